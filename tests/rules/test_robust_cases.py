"""Broken inputs of the ``score`` command (tests/data/robust, written by make_robust.py):
strict mode stops with one exact line and exit status 2; lenient mode scores the rest exactly
as strict mode scores the corpus without the broken element or document (checked against
that clean corpus: full text report and JSON), and says what it skipped."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore import api
from acescore.cli import main
from acescore.model.errors import AceInputError
from acescore.model.options import DEFAULT_MAX_BYTES, Options
from acescore.run.pipeline import build, discover, read_corpus

DATA = Path(__file__).parent.parent / "data" / "robust"
sys.path.insert(0, str(DATA))
import make_robust  # noqa: E402

# name: (the strict-mode message after "acescore: ", (elements, documents) skipped in
# lenient mode).  Paths are relative to the corpus folder (ref/ and sys/, lists ref.list and
# sys.list).
CASES = [
    (
        "ref_file_missing",
        "ref.list:1: ref/SYNBN_20030417.0003.apf.xml: cannot open: No such file or directory",
        (0, 1),
    ),
    (
        "sys_file_too_large",
        "sys/SYNNW_20031117.0001.apf.xml: file is larger than the limit of 40000 bytes (49138"
        " bytes)",
        (0, 1),
    ),
    (
        "ref_not_utf8",
        "ref/SYNBN_20030417.0003.apf.xml:8: not valid UTF-8 (byte 0xe9 at offset 425); APF files"
        " must be UTF-8",
        (0, 1),
    ),
    (
        "sys_declares_latin1",
        "sys/SYNWL_20040511.0002.apf.xml:1: declares encoding 'ISO-8859-1'; only UTF-8 is supported",
        (0, 1),
    ),
    (
        "ref_entity_declaration",
        "ref/SYNWL_20040511.0002.apf.xml:3: entity declarations are not allowed (external/internal"
        " entities are never expanded)",
        (0, 1),
    ),
    (
        "sys_undefined_entity",
        "sys/SYNBN_20030417.0003.apf.xml:34: undefined entity reference '&xxe;' (only &amp; &lt;"
        " &gt; &quot; &apos; and character references are allowed)",
        (0, 1),
    ),
    (
        "ref_malformed_xml",
        "ref/SYNNW_20031117.0001.apf.xml:28: malformed XML: Opening and ending tag mismatch: head"
        " line 26 and heads",
        (0, 1),
    ),
    ("sys_truncated", "sys/SYNWL_20040511.0002.apf.xml:168: malformed XML: expected '>'", (0, 1)),
    (
        "sys_empty_file",
        "sys/SYNBN_20030417.0003.apf.xml:1: malformed XML: Document is empty",
        (0, 1),
    ),
    (
        "ref_control_character",
        "ref/SYNNW_20031117.0001.apf.xml:24: malformed XML: PCDATA invalid Char value 1",
        (0, 1),
    ),
    (
        "ref_truncated",
        "ref/SYNWL_20040511.0002.apf.xml:99: malformed XML: AttValue: ' expected",
        (0, 1),
    ),
    (
        "sys_source_file_type",
        "sys/SYNNW_20031117.0001.apf.xml:3: Illegal source_file TYPE attribute (= 'TEXT')",
        (0, 1),
    ),
    (
        "ref_source_file_no_uri",
        "ref/SYNWL_20040511.0002.apf.xml:3: Missing source_file URI attribute",
        (0, 1),
    ),
    (
        "sys_source_file_no_source",
        "sys/SYNBN_20030417.0003.apf.xml:3: Missing source_file SOURCE attribute",
        (0, 1),
    ),
    (
        "ref_document_no_docid",
        "ref/SYNNW_20031117.0001.apf.xml:4: Missing document DOCID attribute",
        (0, 1),
    ),
    (
        "ref_docid_twice_in_file",
        "ref/SYNBN_20030417.0003.apf.xml:147: document SYNBN_20030417.0003: document ID"
        " 'SYNBN_20030417.0003' has already been defined",
        (0, 1),
    ),
    (
        "sys_docid_in_two_files",
        "sys/copy.apf.xml:4: document SYNNW_20031117.0001: DOCID SYNNW_20031117.0001 is also"
        " defined at sys/SYNNW_20031117.0001.apf.xml:4; NIST: document ID 'SYNNW_20031117.0001'"
        " has already been defined",
        (0, 1),
    ),
    (
        "sys_source_disagrees",
        "sys/SYNWL_20040511.0002.apf.xml:4: document SYNWL_20040511.0002: system source (newswire)"
        " disagrees with reference source (weblog)",
        (0, 1),
    ),
    (
        "sys_data_type_differs",
        "sys/SYNBN_20030417.0003.apf.xml:4: document SYNBN_20030417.0003: different reference and"
        " system output data types for document 'SYNBN_20030417.0003': ref type is 'text' but"
        " system output type is 'audio'",
        (0, 1),
    ),
    (
        "ref_entity_no_id",
        "ref/SYNBN_20030417.0003.apf.xml:66: entity in document SYNBN_20030417.0003: Missing"
        " entity ID attribute",
        (1, 0),
    ),
    (
        "ref_entity_type",
        "ref/SYNNW_20031117.0001.apf.xml:77: entity SYNNW_20031117.0001-E4: Illegal entity TYPE"
        " attribute (= 'COMPANY')",
        (1, 0),
    ),
    (
        "sys_entity_subtype",
        "sys/SYNNW_20031117.0001.apf.xml:55: entity SYNNW_20031117.0001-S-E3: Illegal entity"
        " SUBTYPE attribute (= 'Commercial')",
        (2, 0),
    ),
    (
        "ref_entity_no_class",
        "ref/SYNWL_20040511.0002.apf.xml:89: entity SYNWL_20040511.0002-E7: Missing entity CLASS"
        " attribute",
        (1, 0),
    ),
    (
        "ref_mention_type",
        "ref/SYNNW_20031117.0001.apf.xml:78: entity_mention SYNNW_20031117.0001-E4-4: Illegal"
        " entity_mention TYPE attribute (= 'NOMINAL')",
        (1, 0),
    ),
    (
        "sys_mention_role",
        "sys/SYNWL_20040511.0002.apf.xml:67: entity_mention SYNWL_20040511.0002-S-E5-1:"
        " Unrecognized entity_mention ROLE attribute (= 'COMPANY')",
        (1, 0),
    ),
    (
        "ref_metonymy_mention_value",
        "ref/SYNBN_20030417.0003.apf.xml:51: entity_mention SYNBN_20030417.0003-E4-5: Unrecognized"
        " entity_mention METONYMY_MENTION attribute (= 'YES')",
        (2, 0),
    ),
    (
        "ref_mention_no_head",
        "ref/SYNWL_20040511.0002.apf.xml:90: entity_mention SYNWL_20040511.0002-E7-7: no mention"
        " head found",
        (1, 0),
    ),
    (
        "sys_mention_no_extent",
        "sys/SYNBN_20030417.0003.apf.xml:58: entity_mention SYNBN_20030417.0003-S-E3-1: no mention"
        " extent found",
        (3, 0),
    ),
    (
        "ref_entity_no_mentions",
        "ref/SYNBN_20030417.0003.apf.xml:66: entity SYNBN_20030417.0003-E5: this entity contains"
        " no mentions",
        (1, 0),
    ),
    (
        "ref_name_no_name",
        "ref/SYNBN_20030417.0003.apf.xml:76: entity SYNBN_20030417.0003-E5: a name is defined"
        " without a NAME attribute",
        (1, 0),
    ),
    (
        "ref_name_empty",
        "ref/SYNBN_20030417.0003.apf.xml:76: entity SYNBN_20030417.0003-E5: name '.' is empty"
        " after normalisation",
        (1, 0),
    ),
    (
        "ref_names_but_not_nam",
        "ref/SYNBN_20030417.0003.apf.xml:15: entity SYNBN_20030417.0003-E2: this entity is"
        " declared to be of level 'NOM', but it has names",
        (2, 0),
    ),
    (
        "sys_external_link_twice",
        "sys/SYNNW_20031117.0001.apf.xml:91: entity SYNNW_20031117.0001-S-E4: multiple external"
        " ID's ('Q2'/'Q1') given for resource 'wiki'",
        (1, 0),
    ),
    (
        "ref_external_link_no_resource",
        "ref/SYNWL_20040511.0002.apf.xml:88: entity SYNWL_20040511.0002-E6: Missing external_link"
        " RESOURCE attribute",
        (1, 0),
    ),
    (
        "ref_no_charseq",
        "ref/SYNNW_20031117.0001.apf.xml:136: value_mention SYNNW_20031117.0001-V3-1: text mention"
        " contains no position info (no 'charseq' or 'charspan')",
        (1, 0),
    ),
    (
        "sys_start_not_integer",
        "sys/SYNWL_20040511.0002.apf.xml:189: TIMEX2_mention SYNWL_20040511.0002-S-T1-1: START"
        " attribute is not an integer (= '471.0')",
        (1, 0),
    ),
    (
        "ref_negative_start",
        "ref/SYNWL_20040511.0002.apf.xml:131: value_mention SYNWL_20040511.0002-V3-1: negative"
        " START offset (= -3)",
        (1, 0),
    ),
    (
        "ref_end_before_start",
        "ref/SYNNW_20031117.0001.apf.xml:151: TIMEX2_mention SYNNW_20031117.0001-T1-1:"
        " Non-positive text span (start=118, end=1)",
        (1, 0),
    ),
    (
        "sys_huge_offset",
        "sys/SYNNW_20031117.0001.apf.xml:132: value_mention SYNNW_20031117.0001-S-V3-1: END"
        " attribute is out of range (= '9999999999999999999999999999999999999...')",
        (1, 0),
    ),
    (
        "ref_value_type",
        "ref/SYNBN_20030417.0003.apf.xml:95: value SYNBN_20030417.0003-V3: Illegal value TYPE"
        " attribute (= 'Punishment')",
        (1, 0),
    ),
    (
        "sys_value_subtype",
        "sys/SYNNW_20031117.0001.apf.xml:122: value SYNNW_20031117.0001-S-V4: Illegal value"
        " SUBTYPE attribute (= 'Officer')",
        (1, 0),
    ),
    (
        "ref_value_no_mentions",
        "ref/SYNWL_20040511.0002.apf.xml:128: value SYNWL_20040511.0002-V3: value data contains no"
        " mentions",
        (1, 0),
    ),
    (
        "ref_timex2_no_mentions",
        "ref/SYNWL_20040511.0002.apf.xml:135: timex2 SYNWL_20040511.0002-T1: timex2 data contains"
        " no mentions",
        (1, 0),
    ),
    (
        "ref_relation_type",
        "ref/SYNWL_20040511.0002.apf.xml:156: relation SYNWL_20040511.0002-R1: Illegal relation"
        " TYPE attribute (= 'LOCATED')",
        (1, 0),
    ),
    (
        "sys_relation_modality",
        "sys/SYNBN_20030417.0003.apf.xml:93: relation SYNBN_20030417.0003-S-R1: Unrecognized"
        " relation MODALITY attribute (= 'Certain')",
        (1, 0),
    ),
    (
        "ref_relation_argument_role",
        "ref/SYNWL_20040511.0002.apf.xml:177: relation SYNWL_20040511.0002-R2: Illegal"
        " relation_argument ROLE attribute (= 'Arg-3')",
        (1, 0),
    ),
    (
        "ref_relation_argument_no_refid",
        "ref/SYNNW_20031117.0001.apf.xml:170: relation SYNNW_20031117.0001-R1: Missing"
        " relation_argument REFID attribute",
        (1, 0),
    ),
    (
        "ref_relation_argument_twice",
        "ref/SYNWL_20040511.0002.apf.xml:159: relation SYNWL_20040511.0002-R1: argument"
        " SYNWL_20040511.0002-E5 is declared twice in relation SYNWL_20040511.0002-R1 (role"
        " Arg-2); NIST: multiple declarations of argument SYNWL_20040511.0002-E5 in role Arg-2",
        (1, 0),
    ),
    (
        "ref_relation_no_mentions",
        "ref/SYNNW_20031117.0001.apf.xml:169: relation SYNNW_20031117.0001-R1: no mentions found",
        (1, 0),
    ),
    (
        "ref_event_no_genericity",
        "ref/SYNNW_20031117.0001.apf.xml:250: event SYNNW_20031117.0001-EV3: Missing event"
        " GENERICITY attribute",
        (1, 0),
    ),
    (
        "sys_event_subtype",
        "sys/SYNNW_20031117.0001.apf.xml:184: event SYNNW_20031117.0001-S-EV2: Illegal event"
        " SUBTYPE attribute (= 'Fly')",
        (1, 0),
    ),
    (
        "ref_event_mention_no_anchor",
        "ref/SYNWL_20040511.0002.apf.xml:243: event_mention SYNWL_20040511.0002-EV2-1: No anchor"
        " found",
        (1, 0),
    ),
    (
        "ref_event_argument_role",
        "ref/SYNNW_20031117.0001.apf.xml:280: event SYNNW_20031117.0001-EV4: Illegal"
        " event_argument ROLE attribute (= 'Job')",
        (1, 0),
    ),
    (
        "ref_entity_defined_twice",
        "ref/SYNNW_20031117.0001.apf.xml:87: entity SYNNW_20031117.0001-E4: multiple entity"
        " definitions (only one definition allowed per document)",
        (1, 0),
    ),
    (
        "ref_cascade_argument_skipped",
        "ref/SYNBN_20030417.0003.apf.xml:5: entity SYNBN_20030417.0003-E1: Illegal entity TYPE"
        " attribute (= 'PEOPLE')",
        (2, 0),
    ),
    (
        "ref_value_id_of_entity",
        "ref/SYNBN_20030417.0003.apf.xml:95: value SYNBN_20030417.0003-E5: ID"
        " SYNBN_20030417.0003-E5 is also the ID of the entity at ref/SYNBN_20030417.0003.apf.xml:66;"
        " NIST: duplicate ID (SYNBN_20030417.0003-E5) for elements of type 'values' and 'entity'",
        (1, 0),
    ),
    (
        "sys_mention_id_twice",
        "sys/SYNNW_20031117.0001.apf.xml:74: entity SYNNW_20031117.0001-S-E4: mention ID"
        " SYNNW_20031117.0001-S-E2-1 is also the ID of the entity mention at"
        " sys/SYNNW_20031117.0001.apf.xml:6; NIST: duplicate ID (SYNNW_20031117.0001-S-E2-1) for"
        " mentions of elements of type 'entity' and 'entity mention'",
        (1, 0),
    ),
    (
        "sys_event_id_of_relation",
        "sys/SYNWL_20040511.0002.apf.xml:246: event SYNWL_20040511.0002-S-R2: ID"
        " SYNWL_20040511.0002-S-R2 is also the ID of the relation at"
        " sys/SYNWL_20040511.0002.apf.xml:193; NIST: duplicate ID (SYNWL_20040511.0002-S-R2) for"
        " elements of type 'events' and 'relation'",
        (1, 0),
    ),
    (
        "ref_dangling_argument",
        "ref/SYNNW_20031117.0001.apf.xml:250: event SYNNW_20031117.0001-EV3: event"
        " 'SYNNW_20031117.0001-EV3' references argument 'SYNNW_20031117.0001-T9' in role"
        " 'Time-Ending' but this argument has not been loaded",
        (1, 0),
    ),
    (
        "ref_dangling_mention_argument",
        "ref/SYNNW_20031117.0001.apf.xml:191: event SYNNW_20031117.0001-EV1: event mention"
        " 'SYNNW_20031117.0001-EV1-1' references argument mention 'SYNNW_20031117.0001-V1-7' in"
        " role 'Crime' but this argument mention has not been loaded",
        (1, 0),
    ),
    (
        "ref_mention_not_of_argument",
        "ref/SYNWL_20040511.0002.apf.xml:159: relation SYNWL_20040511.0002-R1: argument mention"
        " SYNWL_20040511.0002-E8-8 of mention SYNWL_20040511.0002-R1-1 is a mention of"
        " SYNWL_20040511.0002-E8, which is not an argument of relation SYNWL_20040511.0002-R1 in"
        " role Arg-2; NIST: relation mention"
        " 'SYNWL_20040511.0002-R1-1' references argument mention 'SYNWL_20040511.0002-E8-8' in"
        " role 'Arg-2' but this argument mention is not a mention of any argument of relation"
        " 'SYNWL_20040511.0002-R1' in this role",
        (1, 0),
    ),
    (
        "ref_argument_in_other_document",
        "ref/SYNWL_20040511.0002.apf.xml:156: relation SYNWL_20040511.0002-R1: argument"
        " 'SYNBN_20030417.0003-E5' in role 'Arg-2' does not occur in this document",
        (1, 0),
    ),
    (
        "ref_symmetric_relation_one_argument",
        "ref/SYNWL_20040511.0002.apf.xml:156: relation SYNWL_20040511.0002-R1: Arg-1 and Arg-2 are"
        " the same entity (SYNWL_20040511.0002-E4); NIST: symmetric relation"
        " 'SYNWL_20040511.0002-R1' must have exactly 2 'Arg' arguments, but: Arg arguments:"
        " 'SYNWL_20040511.0002-E4'",
        (1, 0),
    ),
    (
        "sys_symmetric_relation_same_entity",
        "sys/SYNWL_20040511.0002.apf.xml:193: relation SYNWL_20040511.0002-S-R2: Arg-1 and Arg-2"
        " are the same entity (SYNWL_20040511.0002-S-E4); NIST: symmetric relation"
        " 'SYNWL_20040511.0002-S-R2' must have exactly 2 'Arg' arguments, but: Arg arguments:"
        " 'SYNWL_20040511.0002-S-E4'",
        (1, 0),
    ),
    (
        "sys_event_argument_twice",
        "sys/SYNNW_20031117.0001.apf.xml:205: event SYNNW_20031117.0001-S-EV1: argument"
        " SYNNW_20031117.0001-S-E2 is declared twice in event SYNNW_20031117.0001-S-EV1 (role"
        " Defendant); NIST: multiple declarations of argument SYNNW_20031117.0001-S-E2 in role"
        " Defendant",
        (1, 0),
    ),
    (
        "ref_relation_without_arg2",
        "ref/SYNNW_20031117.0001.apf.xml:169: relation SYNNW_20031117.0001-R1: the relation has no"
        " Arg-2; NIST: non-symmetric relation 'SYNNW_20031117.0001-R1' has no 'Arg-2' arguments",
        (1, 0),
    ),
    (
        "sys_relation_two_arg1",
        "sys/SYNBN_20030417.0003.apf.xml:93: relation SYNBN_20030417.0003-S-R1: the relation has"
        " more than one Arg-1; NIST: non-symmetric relation 'SYNBN_20030417.0003-S-R1' must have exactly 1 'Arg-1' arguments, but: Arg-1"
        " arguments: 'SYNBN_20030417.0003-S-E1' and 'SYNBN_20030417.0003-S-E2'",
        (1, 0),
    ),
    (
        "global_attribute_conflict",
        "ref/syn_tel_20050619.0001.apf.xml:5: entity GLOBAL-E2: entity GLOBAL-E2 has SUBTYPE"
        " 'Individual' in document SYNBN_20040925.0003 but 'Group' here; NIST: attribute value"
        " conflict for attribute 'SUBTYPE' for entity 'GLOBAL-E2': database value is 'Individual', document"
        " value is 'Group'",
        (2, 0),
    ),
    (
        "global_external_link_conflict",
        "ref/syn_tel_20050619.0001.apf.xml:5: entity GLOBAL-E2: entity GLOBAL-E2 is linked to"
        " wiki 'Q1' in document SYNBN_20040925.0003 but to 'Q2' here; NIST: conflicting external"
        " ID's"
        " ('Q1'/'Q2') given for resource 'wiki'",
        (2, 0),
    ),
    (
        "global_relation_arguments_differ",
        "ref/syn_tel_20050619.0001.apf.xml:113: relation GLOBAL-R3: its arguments here differ"
        " from those in document SYNBN_20040925.0003; NIST: non-symmetric relation"
        " 'GLOBAL-R3' must have exactly 1 'Arg-2' arguments, but: Arg-2 arguments: 'GLOBAL-E4' and"
        " 'syn_tel_20050619.0001-E1'",
        (1, 0),
    ),
    (
        "global_relation_partial_first",
        "ref/SYNBN_20040925.0003.apf.xml:130: relation GLOBAL-R9: the relation has only one"
        " argument ('GLOBAL-E2'); NIST: symmetric relation 'GLOBAL-R9'"
        " must have exactly 2 'Arg' arguments, but: Arg arguments: 'GLOBAL-E2'",
        (1, 0),
    ),
    (
        "combined",
        "ref/SYNNW_20031117.0001.apf.xml:77: entity SYNNW_20031117.0001-E4: Illegal entity TYPE"
        " attribute (= 'COMPANY')",
        (5, 1),
    ),
]
EXPECTED = {name: (msg, counts) for name, msg, counts in CASES}


def test_enough_cases():
    assert len(CASES) >= 40
    assert len(EXPECTED) == len(CASES)
    assert sorted(EXPECTED) == sorted(make_robust.NAMES)


def corpus(tmp_path, name, variant):
    d = tmp_path / variant
    args = make_robust.write_case(name, variant, str(d))
    return d, args


def max_bytes(args):
    return (
        int(args[args.index("--max-file-size") + 1])
        if "--max-file-size" in args
        else DEFAULT_MAX_BYTES
    )


def cli(folder, args, monkeypatch):
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["score", "ref.list", "sys.list", "-m"] + args)
    assert "Traceback" not in result.output
    return result


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EXPECTED))
def test_strict(name, tmp_path, monkeypatch):
    d, args = corpus(tmp_path, name, "broken")
    result = cli(d, args, monkeypatch)
    assert result.exit_code == 2
    assert result.stdout == ""
    what = "documents" if EXPECTED[name][1] == (0, 1) else "elements"
    hint = f"use --lenient to skip such {what}, or `acescore validate` to list them all"
    if name == "sys_file_too_large":  # the cause is the limit: the hint says which
        hint = (
            "the limit is --max-file-size (40000 bytes); to read it, give a larger one"
            " (--max-file-size 48K)"
        )
    assert result.stderr == f"acescore: {EXPECTED[name][0]} — {hint}\n"


def strip_skipped(js: str) -> dict:
    """The JSON without what only lenient mode adds: the skip report and the signature's
    ``|lenient`` mark."""
    out = json.loads(js)
    out.pop("skipped", None)
    out["signature"] = out["signature"].replace("|lenient", "")
    return out


_clean: dict = {}


def clean_outputs(clean: Path, mb: int) -> tuple:
    """The text, warnings and JSON (without the skip report) of a clean corpus scored in
    strict mode from its folder (the current directory), once for every case whose clean
    corpus has the same files (many cases' clean variant is their base corpus)."""
    files = sorted(
        (str(p.relative_to(clean)), p.read_bytes()) for p in clean.rglob("*") if p.is_file()
    )
    key = (hashlib.sha256(repr(files).encode()).hexdigest(), mb)
    if key not in _clean:
        want = api.score("ref.list", "sys.list", "local_2008", True, max_bytes=mb)
        _clean[key] = (want.to_text(), want.warnings, strip_skipped(want.to_json()))
    return _clean[key]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(EXPECTED))
def test_lenient_equals_clean(name, tmp_path, monkeypatch):
    broken, args = corpus(tmp_path, name, "broken")
    clean, _ = corpus(tmp_path, name, "clean")
    mb = max_bytes(args)
    monkeypatch.chdir(broken)
    got = api.score("ref.list", "sys.list", "local_2008", True, max_bytes=mb, lenient=True)
    monkeypatch.chdir(clean)
    want = clean_outputs(clean, mb)
    assert got.to_text() == want[0]
    assert got.warnings == want[1]
    assert strip_skipped(got.to_json()) == want[2]
    rep = got.skipped
    assert (rep.elements, rep.documents) == EXPECTED[name][1]
    # the first reason (in canonical order) or another one is the strict-mode problem
    msg = EXPECTED[name][0].split(": ", 1)[-1]
    assert any(msg.endswith(s.message) for s in rep.reasons), [s.text() for s in rep.reasons]
    js = json.loads(got.to_json())["skipped"]
    assert (js["elements"], js["documents"]) == EXPECTED[name][1]
    assert len(js["reasons"]) == len(rep.reasons) >= 1
    assert all(r["side"] in ("REF", "SYS") and r["message"] for r in js["reasons"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["ref_entity_type", "sys_docid_in_two_files", "ref_cascade_argument_skipped", "combined"],
)
def test_lenient_cli(name, tmp_path, monkeypatch):
    """The command line: the NIST report on stdout is the clean corpus's report (line 1,
    with date and command, excepted); the skip summary goes to standard error only."""
    broken, args = corpus(tmp_path, name, "broken")
    clean, _ = corpus(tmp_path, name, "clean")
    got = cli(broken, args + ["--lenient"], monkeypatch)
    want = cli(clean, args, monkeypatch)
    assert got.exit_code == want.exit_code == 0
    assert got.stdout.split("\n", 1)[1] == want.stdout.split("\n", 1)[1]
    assert "skipped" not in got.stdout
    elements, documents = EXPECTED[name][1]
    lines = got.stderr.splitlines()
    summary = [ln for ln in lines if ln.startswith("acescore: lenient: skipped")]
    assert len(summary) == 1
    assert f"skipped {elements} element" in summary[0]
    assert f"and {documents} document" in summary[0]
    assert any(EXPECTED[name][0] in ln for ln in lines)
    # -q silences the summary, the report stays the same
    quiet = cli(broken, args + ["--lenient", "-q"], monkeypatch)
    assert quiet.stderr == ""
    assert quiet.stdout.split("\n", 1)[1] == got.stdout.split("\n", 1)[1]


@pytest.mark.slow
def test_lenient_json_schema(tmp_path, monkeypatch):
    import jsonschema

    broken, args = corpus(tmp_path, "combined", "broken")
    got = cli(broken, args + ["--lenient", "--format", "json"], monkeypatch)
    doc = json.loads(got.stdout)
    with open(Path(api.__file__).parent / "schema" / "results.schema.json") as fh:
        schema = json.load(fh)
    jsonschema.validate(doc, schema)
    assert doc["skipped"]["elements"] == 5 and doc["skipped"]["documents"] == 1


def test_lenient_on_valid_input_is_strict(monkeypatch):
    """Nothing broken: lenient mode is strict mode, nothing skipped."""
    ref, sys_ = str(DATA / "global" / "ref"), str(DATA / "global" / "sys")
    strict = api.score(ref, sys_, "local_2008", True)
    lenient = api.score(ref, sys_, "local_2008", True, lenient=True)
    assert lenient.to_text() == strict.to_text()
    assert strip_skipped(lenient.to_json()) == strip_skipped(strict.to_json())
    assert (lenient.skipped.elements, lenient.skipped.documents) == (0, 0)
    assert json.loads(lenient.to_json())["skipped"] == {
        "elements": 0,
        "documents": 0,
        "reasons": [],
    }
    assert "skipped" not in json.loads(strict.to_json())


def test_lenient_order_independent(tmp_path, monkeypatch):
    """Which element of a conflict is skipped does not depend on the order of the files."""
    broken, _args = corpus(tmp_path, "global_attribute_conflict", "broken")
    monkeypatch.chdir(broken)
    with open("ref.list") as fh:
        paths = fh.read().split()
    a = api.score(paths, "sys.list", "local_2008", True, lenient=True)
    b = api.score(paths[::-1], "sys.list", "local_2008", True, lenient=True)
    assert a.to_text() == b.to_text()
    assert a.to_json() == b.to_json()


def test_safe_reading_no_dtd_fetch_no_xinclude(tmp_path):
    """A DOCTYPE naming a DTD on the network is neither fetched nor needed, and XInclude is
    not processed: the file scores like the original."""
    base = (DATA / "local" / "ref" / "SYNBN_20030417.0003.apf.xml").read_text(encoding="utf-8")
    text = base.replace('SYSTEM "apf.v5.1.1.dtd"', 'SYSTEM "http://127.0.0.1:9/apf.v5.1.1.dtd"')
    text = text.replace(
        "</document>",
        '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude"'
        ' href="file:///etc/passwd" parse="text"/>\n</document>',
    )
    assert text != base
    p = tmp_path / "net.apf.xml"
    p.write_text(text, encoding="utf-8")
    orig = DATA / "local" / "ref" / "SYNBN_20030417.0003.apf.xml"
    a = api.score(str(p), str(p), "local_2008", True)
    b = api.score(str(orig), str(orig), "local_2008", True)
    assert a.to_text() == b.to_text()
    assert "root:" not in a.to_text()


def test_api_read_corpus_and_build_sides(tmp_path, monkeypatch):
    """The lenient option of read_corpus and build (the pipeline under score())."""
    broken, _ = corpus(tmp_path, "ref_cascade_argument_skipped", "broken")
    monkeypatch.chdir(broken)
    strict, lenient = Options(), Options(lenient=True)
    rc = read_corpus(discover("ref.list"), lenient)
    sc = read_corpus(discover("sys.list"), lenient)
    assert [s.element for s in rc.skipped] == ["entity SYNBN_20030417.0003-E1"]
    assert sc.skipped == []
    with pytest.raises(AceInputError):
        build(rc, sc, strict)  # strict: the event's argument is missing
    loaded = build(rc, sc, lenient)
    rside = loaded.ref
    assert "SYNBN_20030417.0003-EV1" not in rside.of("event")
    assert "SYNBN_20030417.0003-E2" in rside.of("entity")
    with pytest.raises(AceInputError):
        read_corpus(discover("ref.list"), strict)
