"""``acescore validate``: broken inputs give one exact line and the right exit status; the
golden corpora (copied under tests/data/validate) validate cleanly."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from acescore.cli.validate import validate
from acescore.model.errors import AceUsageError
from acescore.reading import dtd as dtdmod
from acescore.rules.validate import validate_paths

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BROKEN = os.path.join(HERE, "data", "broken")
GOLDEN = os.path.join(HERE, "data", "validate")
SUMMARY = re.compile(
    r"^validate: \d+ files?, \d+ documents?, .*: \d+ problems?( in \d+ files?)?"
    r"(, \d+ unusable paths?)?$"
)


def run(args, cwd):
    """Run ``acescore validate ARGS`` in ``cwd``; returns (exit code, lines without the
    summary, summary line)."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(validate, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    out = result.output
    assert "Traceback" not in out
    lines = out.splitlines()
    assert lines, "no output"
    return result.exit_code, lines[:-1], lines[-1]


# One case per file in tests/data/broken: (file stem, the one expected problem line).
# All are checked with --source-dir src.
FILE_CASES = [
    (
        "malformed_xml",
        "malformed_xml.apf.xml:42: malformed XML: Opening and ending tag mismatch:"
        " entity_mention line 36 and entity",
    ),
    ("empty_file", "empty_file.apf.xml:1: malformed XML: Document is empty"),
    (
        "not_utf8",
        "not_utf8.apf.xml:15: not valid UTF-8 (byte 0xef at offset 746); APF files must be UTF-8",
    ),
    (
        "xxe_entity_declaration",
        "xxe_entity_declaration.apf.xml:3: entity declarations are not"
        " allowed (external/internal entities are never expanded)",
    ),
    (
        "xxe_undeclared_entity",
        "xxe_undeclared_entity.apf.xml:41: undefined entity reference"
        " '&xxe;' (only &amp; &lt; &gt; &quot; &apos; and character"
        " references are allowed)",
    ),
    (
        "unknown_doctype",
        "unknown_doctype.apf.xml: unknown DTD 'apf.v4.0.1.dtd' in DOCTYPE (known:"
        " apf.v5.1.1.dtd, apf.v5.1.2.dtd, apf.v5.2.0.dtd); validated against"
        " apf.v5.1.1.dtd, use --dtd to choose",
    ),
    (
        "wrapper_element",
        "wrapper_element.apf.xml:3: corpus: apf.v5.1.1.dtd: No declaration for element corpus",
    ),
    (
        "wrong_entity_type",
        "wrong_entity_type.apf.xml:44: entity BRK-1-E4: apf.v5.1.1.dtd: Value"
        ' "COMPANY" for attribute TYPE of entity is not among the enumerated'
        " set",
    ),
    (
        "wrong_entity_subtype",
        "wrong_entity_subtype.apf.xml:35: entity BRK-1-E3: Illegal entity"
        " SUBTYPE attribute (= 'Commercial')",
    ),
    (
        "missing_class",
        "missing_class.apf.xml:44: entity BRK-1-E4: apf.v5.1.1.dtd: Element entity"
        " does not carry attribute CLASS",
    ),
    (
        "unknown_attribute",
        "unknown_attribute.apf.xml:44: entity BRK-1-E4: apf.v5.1.1.dtd: No"
        " declaration for attribute CONFIDENCE of element entity",
    ),
    (
        "wrong_mention_role",
        "wrong_mention_role.apf.xml:36: entity_mention BRK-1-E3-1:"
        ' apf.v5.1.1.dtd: Value "FAC" for attribute ROLE of entity_mention is'
        " not among the enumerated set",
    ),
    (
        "head_before_extent",
        "head_before_extent.apf.xml:36: entity_mention BRK-1-E3-1:"
        " apf.v5.1.1.dtd: Element entity_mention content does not follow the"
        " DTD, expecting (extent , head), got (head extent )",
    ),
    (
        "wrong_relation_role",
        "wrong_relation_role.apf.xml:83: relation BRK-1-R2: apf.v5.1.1.dtd:"
        ' Value "Arg-3" for attribute ROLE of relation_argument is not among'
        " the enumerated set",
    ),
    (
        "missing_event_genericity",
        "missing_event_genericity.apf.xml:94: event BRK-1-EV1: Missing event GENERICITY attribute",
    ),
    (
        "value_subtype_not_allowed",
        "value_subtype_not_allowed.apf.xml:53: value BRK-1-V1: Illegal"
        " value SUBTYPE attribute (= 'Money')",
    ),
    (
        "timex2_bad_set",
        "timex2_bad_set.apf.xml:58: timex2 BRK-1-T1: apf.v5.1.1.dtd: Value"
        ' "MAYBE" for attribute SET of timex2 is not among the enumerated set',
    ),
    (
        "entity_without_mentions",
        "entity_without_mentions.apf.xml:44: entity BRK-1-E5: this entity contains no mentions",
    ),
    (
        "missing_docid",
        "missing_docid.apf.xml:4: document: apf.v5.1.1.dtd: Element document does"
        " not carry attribute DOCID",
    ),
    (
        "start_not_a_number",
        "start_not_a_number.apf.xml:55: value_mention BRK-1-V1-1: START"
        " attribute is not an integer (= '14S')",
    ),
    (
        "negative_span",
        "negative_span.apf.xml:55: value_mention BRK-1-V1-1: Non-positive text"
        " span (start=154, end=148)",
    ),
    (
        "offset_off_by_one",
        "offset_off_by_one.apf.xml:102: event_mention BRK-1-EV1-1: anchor"
        " START=69 END=71: text 'met' does not match the source text 'et '"
        " (offsets off by +1: the text is at START=68 END=70)",
    ),
    (
        "text_mismatch",
        "text_mismatch.apf.xml:37: entity_mention BRK-1-E3-1: extent START=97"
        " END=101: text 'Paros' does not match the source text 'Paris'",
    ),
    (
        "offset_beyond_end",
        "offset_beyond_end.apf.xml:55: value_mention BRK-1-V1-1: extent"
        " START=1148 END=1154: beyond the end of the source document (167"
        " characters)",
    ),
    (
        "source_docid_mismatch",
        "source_docid_mismatch.apf.xml:4: document BRK-2: source document"
        f" {os.path.join('src', 'BRK-1.sgm')} has DOCID 'BRK-1'",
    ),
    (
        "source_not_found",
        "source_not_found.apf.xml:4: document BRK-7: no source document in src"
        " (looked for BRK-7.sgm, BRK-7)",
    ),
    (
        "duplicate_mention_id",
        "duplicate_mention_id.apf.xml:27: entity BRK-1-E2: mention ID"
        " BRK-1-E1-2 is also the ID of the entity mention at"
        " duplicate_mention_id.apf.xml:10; NIST: duplicate ID (BRK-1-E1-2)"
        " for mentions of elements of type 'entity' and 'entity mention'",
    ),
    (
        "duplicate_element_id",
        "duplicate_element_id.apf.xml:53: value BRK-1-E4: ID BRK-1-E4 is"
        " also the ID of the entity at duplicate_element_id.apf.xml:44;"
        " NIST: duplicate ID (BRK-1-E4) for elements of type 'values' and"
        " 'entity'",
    ),
    (
        "dangling_refid",
        "dangling_refid.apf.xml:94: event BRK-1-EV1: event 'BRK-1-EV1' references"
        " argument 'BRK-1-E9' in role 'Instrument' but this argument has not"
        " been loaded",
    ),
    (
        "dangling_mention_refid",
        "dangling_mention_refid.apf.xml:99: event BRK-1-EV1: event mention"
        " 'BRK-1-EV1-1' references argument mention 'BRK-1-T1-9' in role"
        " 'Time-Within' but this argument mention has not been loaded",
    ),
    (
        "argument_is_a_mention",
        "argument_is_a_mention.apf.xml:94: event BRK-1-EV1: BRK-1-E3-1 is"
        " the ID of a mention, not of an element; NIST: event 'BRK-1-EV1'"
        " references argument 'BRK-1-E3-1' in role 'Place' but this"
        " argument has not been loaded",
    ),
    (
        "symmetric_relation_one_argument",
        "symmetric_relation_one_argument.apf.xml:68: relation"
        " BRK-1-R1: the relation has only one argument"
        " ('BRK-1-E1'); NIST: symmetric relation 'BRK-1-R1'"
        " must have exactly 2 'Arg' arguments, but: Arg"
        " arguments: 'BRK-1-E1'",
    ),
    (
        "relation_without_arg2",
        "relation_without_arg2.apf.xml:81: relation BRK-1-R2: the"
        " relation has no Arg-2; NIST: non-symmetric relation 'BRK-1-R2'"
        " has no 'Arg-2' arguments",
    ),
    (
        "mention_not_of_argument",
        "mention_not_of_argument.apf.xml:84: relation BRK-1-R2:"
        " argument mention BRK-1-E2-3 of mention BRK-1-R2-1 is a"
        " mention of BRK-1-E2, which is not an argument of relation"
        " BRK-1-R2 in role Arg-2; NIST: relation mention 'BRK-1-R2-1'"
        " references argument mention 'BRK-1-E2-3' in role 'Arg-2' but"
        " this argument mention is not a mention of any argument of"
        " relation 'BRK-1-R2' in this role",
    ),
    (
        "head_outside_extent",
        "head_outside_extent.apf.xml:19: entity_mention BRK-1-E2-1: head"
        " 83..92 is not inside the extent 72..81",
    ),
    (
        "anchor_outside_extent",
        "anchor_outside_extent.apf.xml:99: event_mention BRK-1-EV1-1:"
        " anchor 118..122 is not inside the extent 57..112",
    ),
]

# Cases with several inputs or bad command lines: (args, expected lines, exit status).
OTHER_CASES = [
    (["does-not-exist.apf.xml"], ["does-not-exist.apf.xml: no such file or directory"], 2),
    (["no_apf_files"], ["no_apf_files: no APF files (*.apf.xml, *.apf) in this directory"], 2),
    (["empty.list"], ["empty.list: file list is empty"], 2),
    (
        # a list entry naming nothing is one problem; the other entries are validated
        ["missing_entry.list"],
        ["not-there.apf.xml: cannot open: No such file or directory"],
        1,
    ),
    (
        ["duplicate_docid"],
        [
            f"{os.path.join('duplicate_docid', 'b.apf.xml')}:4: document BRK-1:"
            " DOCID BRK-1 is also defined at"
            f" {os.path.join('duplicate_docid', 'a.apf.xml')}:4; NIST: document"
            " ID 'BRK-1' has already been defined"
        ],
        1,
    ),
    (
        ["global_conflict"],
        [
            f"{os.path.join('global_conflict', 'G-2.apf.xml')}:5: entity GLOBAL-E1:"
            " entity GLOBAL-E1 has SUBTYPE 'Individual' in document G-1 but"
            " 'Group' here; NIST: attribute value conflict for attribute"
            " 'SUBTYPE' for entity 'GLOBAL-E1': database value is 'Individual',"
            " document value is 'Group'"
        ],
        1,
    ),
    (
        ["global_argument_elsewhere"],
        [
            f"{os.path.join('global_argument_elsewhere', 'G-2.apf.xml')}:11:"
            " relation GLOBAL-R1: argument 'GLOBAL-E1' in role 'Arg-1'"
            " does not occur in this document"
        ],
        1,
    ),
    (
        ["valid.apf.xml", "--dtd", "2009"],
        ["unknown DTD '2009'; choose one of 5.1.1, 5.1.2, 5.2.0, source or give a .dtd file"],
        2,
    ),
    (["valid.apf.xml", "--source-dir", "nosuch"], ["--source-dir nosuch: no such folder"], 2),
    (
        ["valid.apf.xml", "--source-dir", "no_apf_files"],
        ["--source-dir no_apf_files: no source document (*.sgm) in this folder or below it"],
        2,
    ),
    (
        ["source_not_found.apf.xml", "--source-dir", "src"],
        [
            "--source-dir src: no source document for the APF document (looked for BRK-7.sgm):"
            " is it the wrong folder?"
        ],
        2,
    ),
]


def test_enough_broken_inputs():
    assert len(FILE_CASES) + len(OTHER_CASES) >= 25
    stems = {f[: -len(".apf.xml")] for f in os.listdir(BROKEN) if f.endswith(".apf.xml")}
    assert stems == {c[0] for c in FILE_CASES} | {"valid"}


def test_valid_base_document():
    code, lines, summary = run(["valid.apf.xml", "--source-dir", "src"], BROKEN)
    assert (code, lines) == (0, [])
    assert summary == (
        "validate: 1 file, 1 document, 34 charseqs checked against 1 source document: 0 problems"
    )


@pytest.mark.parametrize("stem,expected", FILE_CASES, ids=[c[0] for c in FILE_CASES])
def test_broken_file(stem, expected):
    # a folder with no source for any document is the wrong folder (a usage error, below):
    # a missing source is a problem when others are there
    extra = ["valid.apf.xml"] if stem == "source_not_found" else []
    code, lines, summary = run([stem + ".apf.xml", *extra, "--source-dir", "src"], BROKEN)
    assert lines == [expected]
    assert code == 1
    assert SUMMARY.match(summary), summary
    assert summary.endswith(": 1 problem in 1 file")


@pytest.mark.parametrize(
    "args,expected,status", OTHER_CASES, ids=[" ".join(c[0]) for c in OTHER_CASES]
)
def test_broken_other(args, expected, status):
    code, lines, summary = run(args, BROKEN)
    if status == 2 and len(expected) == 1 and not lines:
        # usage errors print only their one line (it is then the last line)
        lines = [summary]
    assert lines == expected
    assert code == status


def test_empty_directory(tmp_path):
    d = tmp_path / "empty"
    d.mkdir()
    code, lines, summary = run([str(d)], BROKEN)
    assert code == 2
    assert lines == [f"{d}: no APF files (*.apf.xml, *.apf) in this directory"]
    assert summary.endswith("0 problems, 1 unusable path")


def test_keeps_going_after_problems():
    """Problems of several files and an unusable path in one run, in file order."""
    code, lines, summary = run(
        [
            "text_mismatch.apf.xml",
            "nothing-here",
            "valid.apf.xml",
            "missing_class.apf.xml",
            "--source-dir",
            "src",
        ],
        BROKEN,
    )
    assert code == 2
    assert lines == [
        "nothing-here: no such file or directory",
        FILE_CASES[[c[0] for c in FILE_CASES].index("text_mismatch")][1],
        FILE_CASES[[c[0] for c in FILE_CASES].index("missing_class")][1],
    ]
    assert summary == (
        "validate: 3 files, 3 documents, 102 charseqs checked against 1 source"
        " document: 2 problems in 2 files, 1 unusable path"
    )


def test_forced_dtd():
    # valid 5.1.1 data has values, timex2 and events, which APF 5.2.0 does not know
    code, lines, _ = run(["valid.apf.xml", "--dtd", "5.2.0"], BROKEN)
    assert code == 1
    assert lines[0].startswith(
        "valid.apf.xml:4: document BRK-1: apf.v5.2.0.dtd: Element"
        " document content does not follow the DTD"
    )
    code, lines, _ = run(["valid.apf.xml", "--dtd", "apf.v5.1.2.dtd"], BROKEN)
    assert (code, lines) == (0, [])


@pytest.mark.parametrize("side", ["tiny/ref", "tiny/sys-heavy", "tiny/ref.list", "global/ref"])
def test_golden_is_clean(side):
    src = os.path.join(os.path.dirname(side), "src")
    for params in ("local_2008", "global_2008"):
        code, lines, summary = run([side, "--source-dir", src, "-P", params], GOLDEN)
        assert (code, lines) == (0, []), lines[:5]
        assert summary.endswith(": 0 problems")


def test_golden_sides_together():
    code, lines, summary = run(["tiny/ref", "tiny/sys-heavy", "--source-dir", "tiny/src"], GOLDEN)
    assert (code, lines) == (0, [])
    assert summary.startswith("validate: 6 files, 6 documents, ")


def test_api_report():
    r = validate_paths(
        [os.path.join(BROKEN, "text_mismatch.apf.xml")], source_dir=os.path.join(BROKEN, "src")
    )
    assert r.exit_code == 1 and r.files == 1 and r.documents == 1 and r.charseqs == 34
    assert len(r.problems) == 1 and "Paros" in r.problems[0]
    with pytest.raises(AceUsageError):
        validate_paths([BROKEN], dtd="nonsense")


@pytest.mark.slow
def test_subprocess_entry_point():
    """The real command line: python -m acescore validate (no traceback, exit status)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(HERE) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "acescore",
            "validate",
            "xxe_entity_declaration.apf.xml",
            "not_utf8.apf.xml",
        ],
        cwd=BROKEN,
        capture_output=True,
        text=True,
        env=env,
    )
    assert "Traceback" not in p.stdout + p.stderr
    assert p.returncode == 1
    assert p.stdout.splitlines()[:2] == [FILE_CASES[3][1], FILE_CASES[2][1]]


def test_dtd_choice():
    assert dtdmod.dtd_for_doctype(None) == "apf.v5.1.1.dtd"
    assert dtdmod.dtd_for_doctype("apf.v5.2.0.dtd") == "apf.v5.2.0.dtd"
    assert dtdmod.dtd_for_doctype("http://example.org/dtd/apf.v5.1.2.dtd") == "apf.v5.1.2.dtd"
    assert dtdmod.dtd_for_doctype("..\\dtd\\APF.V5.1.1.DTD") == "apf.v5.1.1.dtd"
    assert dtdmod.dtd_for_doctype("apf.v4.0.1.dtd") is None
    for name, want in [
        ("5.1.1", "apf.v5.1.1.dtd"),
        ("v5.2.0", "apf.v5.2.0.dtd"),
        ("apf.v5.1.2.dtd", "apf.v5.1.2.dtd"),
        ("2008", "apf.v5.2.0.dtd"),
        ("ACE2005", "apf.v5.1.1.dtd"),
        ("source", "ace_source_sgml.dtd"),
    ]:
        assert dtdmod.resolve_dtd_name(name) == want
    with pytest.raises(AceUsageError):
        dtdmod.resolve_dtd_name("5.3.0")


def test_dtds_kept_once():
    """One copy of the DTDs, the top-level dtd/ folder, installed as acescore/dtd/ (setup.py
    maps the package to that folder; pyproject.toml lists its files as package data)."""
    root = os.path.dirname(HERE)
    assert not os.path.exists(os.path.join(root, "acescore", "dtd"))
    names = ["ace_source_sgml.dtd", "apf.v5.1.1.dtd", "apf.v5.1.2.dtd", "apf.v5.2.0.dtd"]
    assert sorted(os.listdir(os.path.join(root, "dtd"))) == names
    for n in names:
        assert dtdmod.dtd_path(n) == os.path.join(root, "dtd", n)
        assert dtdmod.load_dtd(n) is not None
    with open(os.path.join(root, "setup.py"), encoding="utf-8") as fh:
        assert 'package_dir={"acescore.dtd": "dtd"}' in fh.read()
    with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as fh:
        assert '"acescore.dtd" = ["*.dtd"]' in fh.read()
