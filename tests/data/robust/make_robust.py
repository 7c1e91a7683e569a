"""Writes the broken-input corpora of tests/test_robust_cases.py (the tests call
:func:`write_case`; nothing generated is stored).

Two small synthetic base corpora live here, made by the project's synthetic-corpus generator
``acesynth.py`` (``--base ACESYNTH`` rebuilds them):

* ``local/``  -- ``acesynth.py --docs 3 --seed rb1 --sentences 3-4 --profiles heavy``
* ``global/`` -- ``acesynth.py --docs 3 --seed rbg --sentences 3-4 --global --profiles heavy``

(``ref/`` is the reference, ``sys/`` the ``heavy`` system output.)  Every case puts one
problem (``combined``: several) into a copy of a base corpus, as a *pair*:

* ``broken`` -- the corpus with the problem;
* ``clean``  -- the same corpus with the broken element or document deleted, and what depends
  on it (a relation or event whose argument is gone); a skipped document is deleted on both
  sides.

In strict mode the broken corpus must stop with one exact message (exit status 2); in
lenient mode it must score exactly like the clean corpus in strict mode.  Each variant is a
folder with ``ref/``, ``sys/`` and the lists ``ref.list``, ``sys.list``.
``python make_robust.py --out DIR`` writes every case as DIR/NAME/{broken,clean}; the expected
messages live in tests/test_robust_cases.py.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DROP = object()  # delete the file

# the documents of the local base (file name = DOCID + .apf.xml)
D1, D2, D3 = "SYNBN_20030417.0003", "SYNNW_20031117.0001", "SYNWL_20040511.0002"
# the documents of the global base
G1, G2, G3 = "SYNBN_20040925.0003", "SYNWL_20030623.0002", "syn_tel_20050619.0001"


# ---- text edits ------------------------------------------------------------------------------


def _start_tag(text: str, tag: str, eid: str, attr: str = "ID") -> tuple[int, int]:
    m = re.search(rf'<{tag} [^>]*\b{attr}="{re.escape(eid)}"[^>]*>', text)
    assert m, (tag, eid)
    return m.start(), m.end()


def span(text: str, tag: str, eid: str) -> tuple[int, int]:
    """The lines of element ``<tag ID="eid">`` up to its end tag (with the line end)."""
    i, j = _start_tag(text, tag, eid)
    i = text.rindex("\n", 0, i) + 1
    end = j if text[j - 2 : j] == "/>" else text.index(f"</{tag}>", j) + len(f"</{tag}>")
    if text[end : end + 1] == "\n":
        end += 1
    return i, end


def remove(tag: str, eid: str):
    def f(text):
        i, j = span(text, tag, eid)
        return text[:i] + text[j:]

    return f


def set_attr(tag: str, eid: str, attr: str, value, key: str = "ID"):
    """Set (value str), or delete (value None) an attribute of a start tag."""

    def f(text):
        i, j = _start_tag(text, tag, eid, key)
        head = text[i:j]
        pat = re.compile(rf'\s{attr}="[^"]*"')
        if value is None:
            assert pat.search(head), (tag, eid, attr)
            head = pat.sub("", head, count=1)
        elif pat.search(head):
            head = pat.sub(f' {attr}="{value}"', head, count=1)
        else:
            head = (
                head[:-1] + f' {attr}="{value}">'
                if not head.endswith("/>")
                else head[:-2] + f' {attr}="{value}"/>'
            )
        return text[:i] + head + text[j:]

    return f


def within(tag: str, eid: str, fn):
    """Apply ``fn`` to the text of one element only."""

    def f(text):
        i, j = span(text, tag, eid)
        return text[:i] + fn(text[i:j]) + text[j:]

    return f


def sub(old: str, new: str, count: int = 1):
    def f(text):
        assert old in text, old
        return text.replace(old, new, count)

    return f


def nth_sub(old: str, new: str, n: int):
    """Replace only the n-th (1-based) occurrence."""

    def f(text):
        k = -1
        for _ in range(n):
            k = text.index(old, k + 1)
        return text[:k] + new + text[k + len(old) :]

    return f


def insert_before(marker: str, new: str):
    def f(text):
        assert marker in text, marker
        return text.replace(marker, new + marker, 1)

    return f


def chain(*fns):
    def f(text):
        for fn in fns:
            text = fn(text)
        return text

    return f


def copy_of(tag: str, eid: str, *edits):
    """The text of an element (for inserting it elsewhere), edited."""

    def get(text):
        i, j = span(text, tag, eid)
        out = text[i:j]
        for e in edits:
            out = e(out)
        return out

    return get


# ---- the cases ---------------------------------------------------------------------------------

CASES: list = []


def case(name, base="local", broken=None, clean=None, args=(), missing=(), add=None, raw=None):
    """``broken``/``clean``: {(side, DOCID or file name): edit function or DROP};
    ``add``: {(side, file name): function(base texts) -> new text} (broken only);
    ``raw``: {(side, DOCID): bytes function} for byte-level edits (broken only);
    ``missing``: list entries (side, file name) that name no file."""
    CASES.append(
        dict(
            name=name,
            base=base,
            broken=broken or {},
            clean=clean or {},
            args=list(args),
            missing=list(missing),
            add=add or {},
            raw=raw or {},
        )
    )


def both(docid):
    return {("ref", docid): DROP, ("sys", docid): DROP}


def e(doc, n):
    return f"{doc}-E{n}"


def s(doc, kind, n):
    return f"{doc}-S-{kind}{n}"


# -- files that cannot be read: the document is skipped on both sides -------------------------
case("ref_file_missing", broken={("ref", D1): DROP}, missing=[("ref", D1)], clean=both(D1))
case(
    "sys_file_too_large",
    args=["--max-file-size", "40000"],
    broken={("sys", D2): insert_before("<document", "<!-- " + "padding " * 5000 + "-->\n")},
    clean=both(D2),
)
case(
    "ref_not_utf8",
    raw={
        ("ref", D1): lambda b: b.replace(
            b"Fishermens</charseq>\n    </extent>\n    <head>",
            b"Fisherm\xe9ns</charseq>\n    </extent>\n    <head>",
            1,
        )
    },
    clean=both(D1),
)
case(
    "sys_declares_latin1",
    broken={
        ("sys", D3): sub('<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>')
    },
    clean=both(D3),
)
case(
    "ref_entity_declaration",
    broken={
        ("ref", D3): sub(
            '<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">',
            '<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd" [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>',
        )
    },
    clean=both(D3),
)
case("sys_undefined_entity", broken={("sys", D1): sub(">Fishermens<", ">&xxe;<")}, clean=both(D1))
case("ref_malformed_xml", broken={("ref", D2): nth_sub("</head>", "</heads>", 3)}, clean=both(D2))
case("sys_truncated", broken={("sys", D3): lambda t: t[: len(t) // 2]}, clean=both(D3))
case("sys_empty_file", broken={("sys", D1): lambda t: ""}, clean=both(D1))
case(
    "ref_control_character",
    broken={("ref", D2): nth_sub("</charseq>", "\x01</charseq>", 5)},
    clean=both(D2),
)
case("ref_truncated", broken={("ref", D3): lambda t: t[: len(t) // 3]}, clean=both(D3))

# -- source_file and document attributes ------------------------------------------------------
case(
    "sys_source_file_type",
    broken={("sys", D2): sub('TYPE="text" AUTHOR', 'TYPE="TEXT" AUTHOR')},
    clean=both(D2),
)
case("ref_source_file_no_uri", broken={("ref", D3): sub(f'URI="{D3}.sgm" ', "")}, clean=both(D3))
case(
    "sys_source_file_no_source",
    broken={("sys", D1): sub('SOURCE="broadcast news" ', "")},
    clean=both(D1),
)
case(
    "ref_document_no_docid",
    broken={("ref", D2): sub(f'<document DOCID="{D2}">', "<document>")},
    clean=both(D2),
)
case(
    "ref_docid_twice_in_file",
    broken={
        ("ref", D1): lambda t: t.replace(
            "</source_file>", t[t.index("<document") : t.index("</source_file>")] + "</source_file>"
        )
    },
    clean=both(D1),
)
case(
    "sys_docid_in_two_files",
    add={("sys", "copy.apf.xml"): lambda base: base[("sys", D2)]},
    clean=both(D2),
)
case(
    "sys_source_disagrees",
    broken={("sys", D3): sub('SOURCE="weblog"', 'SOURCE="newswire"')},
    clean=both(D3),
)
case(
    "sys_data_type_differs",
    broken={
        ("sys", D1): lambda t: re.sub(
            r"(?s)<document DOCID=\"[^\"]*\">.*</document>",
            f'<document DOCID="{D1}">\n</document>',
            t.replace('TYPE="text" AUTHOR', 'TYPE="audio" AUTHOR'),
        )
    },
    clean=both(D1),
)

# -- one element cannot be read: that element is skipped ---------------------------------------
case(
    "ref_entity_no_id",
    broken={("ref", D1): set_attr("entity", e(D1, 5), "ID", None)},
    clean={("ref", D1): remove("entity", e(D1, 5))},
)
case(
    "ref_entity_type",
    broken={("ref", D2): set_attr("entity", e(D2, 4), "TYPE", "COMPANY")},
    clean={("ref", D2): remove("entity", e(D2, 4))},
)
case(
    "sys_entity_subtype",
    broken={("sys", D2): set_attr("entity", s(D2, "E", 3), "SUBTYPE", "Commercial")},
    clean={("sys", D2): chain(remove("entity", s(D2, "E", 3)), remove("event", s(D2, "EV", 2)))},
)
case(
    "ref_entity_no_class",
    broken={("ref", D3): set_attr("entity", e(D3, 7), "CLASS", None)},
    clean={("ref", D3): remove("entity", e(D3, 7))},
)
case(
    "ref_mention_type",
    broken={
        ("ref", D2): within(
            "entity",
            e(D2, 4),
            lambda x: re.sub(
                r'(<entity_mention [^>]*?)TYPE="NOM"', r'\1TYPE="NOMINAL"', x, count=1
            ),
        )
    },
    clean={("ref", D2): remove("entity", e(D2, 4))},
)
case(
    "sys_mention_role",
    broken={
        ("sys", D3): within(
            "entity", s(D3, "E", 5), lambda x: x.replace('ROLE="ORG"', 'ROLE="COMPANY"', 1)
        )
    },
    clean={("sys", D3): remove("entity", s(D3, "E", 5))},
)
case(
    "ref_metonymy_mention_value",
    broken={
        ("ref", D1): within(
            "entity",
            e(D1, 4),
            lambda x: x.replace('METONYMY_MENTION="TRUE"', 'METONYMY_MENTION="YES"', 1),
        )
    },
    clean={("ref", D1): chain(remove("entity", e(D1, 4)), remove("relation", f"{D1}-R1"))},
)
case(
    "ref_mention_no_head",
    broken={
        ("ref", D3): within(
            "entity", e(D3, 7), lambda x: re.sub(r"(?s)\s*<head>.*?</head>", "", x, count=1)
        )
    },
    clean={("ref", D3): remove("entity", e(D3, 7))},
)
case(
    "sys_mention_no_extent",
    broken={
        ("sys", D1): within(
            "entity",
            s(D1, "E", 3),
            lambda x: re.sub(r"(?s)\s*<extent>.*?</extent>", "", x, count=1),
        )
    },
    clean={
        ("sys", D1): chain(
            remove("entity", s(D1, "E", 3)),
            remove("relation", s(D1, "R", 1)),
            remove("relation", s(D1, "R", 2)),
        )
    },
)
case(
    "ref_entity_no_mentions",
    broken={
        ("ref", D1): within(
            "entity",
            e(D1, 5),
            lambda x: re.sub(r"(?s)\s*<entity_mention .*</entity_mention>", "", x),
        )
    },
    clean={("ref", D1): remove("entity", e(D1, 5))},
)
case(
    "ref_name_no_name",
    broken={
        ("ref", D1): within(
            "entity", e(D1, 5), lambda x: x.replace('<name NAME="Marit Taldaneer">', "<name>")
        )
    },
    clean={("ref", D1): remove("entity", e(D1, 5))},
)
case(
    "ref_name_empty",
    broken={
        ("ref", D1): within(
            "entity", e(D1, 5), lambda x: x.replace('NAME="Marit Taldaneer"', 'NAME=" . "')
        )
    },
    clean={("ref", D1): remove("entity", e(D1, 5))},
)
case(
    "ref_names_but_not_nam",
    broken={
        ("ref", D1): within(
            "entity",
            e(D1, 2),
            lambda x: x.replace(
                "</entity_mention>\n",
                '</entity_mention>\n  <entity_attributes>\n    <name NAME="farmers"/>\n'
                "  </entity_attributes>\n",
            ),
        )
    },
    clean={("ref", D1): chain(remove("entity", e(D1, 2)), remove("event", f"{D1}-EV1"))},
)
case(
    "sys_external_link_twice",
    broken={
        ("sys", D2): within(
            "entity",
            s(D2, "E", 4),
            lambda x: x.replace(
                "</entity>",
                '  <external_link RESOURCE="wiki" EID="Q1"/>\n  <external_link RESOURCE="wiki" EID="Q2"/>\n</entity>',
            ),
        )
    },
    clean={("sys", D2): remove("entity", s(D2, "E", 4))},
)
case(
    "ref_external_link_no_resource",
    broken={
        ("ref", D3): within(
            "entity",
            e(D3, 6),
            lambda x: x.replace("</entity>", '  <external_link EID="Q1"/>\n</entity>'),
        )
    },
    clean={("ref", D3): remove("entity", e(D3, 6))},
)
case(
    "ref_no_charseq",
    broken={
        ("ref", D2): within(
            "value", f"{D2}-V3", lambda x: re.sub(r"<charseq [^>]*>[^<]*</charseq>", "", x, count=1)
        )
    },
    clean={("ref", D2): remove("value", f"{D2}-V3")},
)
case(
    "sys_start_not_integer",
    broken={
        ("sys", D3): within(
            "timex2", s(D3, "T", 1), lambda x: re.sub(r'START="(\d+)"', r'START="\1.0"', x, count=1)
        )
    },
    clean={("sys", D3): remove("timex2", s(D3, "T", 1))},
)
case(
    "ref_negative_start",
    broken={
        ("ref", D3): within(
            "value", f"{D3}-V3", lambda x: re.sub(r'START="(\d+)"', r'START="-3"', x, count=1)
        )
    },
    clean={("ref", D3): remove("value", f"{D3}-V3")},
)
case(
    "ref_end_before_start",
    broken={
        ("ref", D2): within(
            "timex2", f"{D2}-T1", lambda x: re.sub(r'END="(\d+)"', r'END="1"', x, count=1)
        )
    },
    clean={("ref", D2): remove("timex2", f"{D2}-T1")},
)
case(
    "sys_huge_offset",
    broken={
        ("sys", D2): within(
            "value",
            s(D2, "V", 3),
            lambda x: re.sub(r'END="(\d+)"', 'END="' + "9" * 400 + '"', x, count=1),
        )
    },
    clean={("sys", D2): remove("value", s(D2, "V", 3))},
)
case(
    "ref_value_type",
    broken={("ref", D1): set_attr("value", f"{D1}-V3", "TYPE", "Punishment")},
    clean={("ref", D1): remove("value", f"{D1}-V3")},
)
case(
    "sys_value_subtype",
    broken={("sys", D2): set_attr("value", s(D2, "V", 4), "SUBTYPE", "Officer")},
    clean={("sys", D2): remove("value", s(D2, "V", 4))},
)
case(
    "ref_value_no_mentions",
    broken={
        ("ref", D3): within(
            "value",
            f"{D3}-V3",
            lambda x: re.sub(r"(?s)\s*<value_mention .*</value_mention>", "", x),
        )
    },
    clean={("ref", D3): remove("value", f"{D3}-V3")},
)
case(
    "ref_timex2_no_mentions",
    broken={
        ("ref", D3): within(
            "timex2",
            f"{D3}-T1",
            lambda x: re.sub(r"(?s)\s*<timex2_mention .*</timex2_mention>", "", x),
        )
    },
    clean={("ref", D3): remove("timex2", f"{D3}-T1")},
)
case(
    "ref_relation_type",
    broken={("ref", D3): set_attr("relation", f"{D3}-R1", "TYPE", "LOCATED")},
    clean={("ref", D3): remove("relation", f"{D3}-R1")},
)
case(
    "sys_relation_modality",
    broken={("sys", D1): set_attr("relation", s(D1, "R", 1), "MODALITY", "Certain")},
    clean={("sys", D1): remove("relation", s(D1, "R", 1))},
)
case(
    "ref_relation_argument_role",
    broken={
        ("ref", D3): within(
            "relation", f"{D3}-R2", lambda x: x.replace('ROLE="Arg-2"/>', 'ROLE="Arg-3"/>', 1)
        )
    },
    clean={("ref", D3): remove("relation", f"{D3}-R2")},
)
case(
    "ref_relation_argument_no_refid",
    broken={
        ("ref", D2): within(
            "relation",
            f"{D2}-R1",
            lambda x: re.sub(r'<relation_argument REFID="[^"]*"', "<relation_argument", x, count=1),
        )
    },
    clean={("ref", D2): remove("relation", f"{D2}-R1")},
)
case(
    "ref_relation_argument_twice",
    broken={
        ("ref", D3): within(
            "relation",
            f"{D3}-R1",
            lambda x: x.replace(
                f'  <relation_argument REFID="{e(D3, 5)}" ROLE="Arg-2"/>\n',
                f'  <relation_argument REFID="{e(D3, 5)}" ROLE="Arg-2"/>\n'
                f'  <relation_argument REFID="{e(D3, 5)}" ROLE="Arg-2"/>\n',
            ),
        )
    },
    clean={("ref", D3): remove("relation", f"{D3}-R1")},
)
case(
    "ref_relation_no_mentions",
    broken={
        ("ref", D2): within(
            "relation",
            f"{D2}-R1",
            lambda x: re.sub(r"(?s)\s*<relation_mention .*</relation_mention>", "", x),
        )
    },
    clean={("ref", D2): remove("relation", f"{D2}-R1")},
)
case(
    "ref_event_no_genericity",
    broken={("ref", D2): set_attr("event", f"{D2}-EV3", "GENERICITY", None)},
    clean={("ref", D2): remove("event", f"{D2}-EV3")},
)
case(
    "sys_event_subtype",
    broken={("sys", D2): set_attr("event", s(D2, "EV", 2), "SUBTYPE", "Fly")},
    clean={("sys", D2): remove("event", s(D2, "EV", 2))},
)
case(
    "ref_event_mention_no_anchor",
    broken={
        ("ref", D3): within(
            "event", f"{D3}-EV2", lambda x: re.sub(r"(?s)\s*<anchor>.*?</anchor>", "", x, count=1)
        )
    },
    clean={("ref", D3): remove("event", f"{D3}-EV2")},
)
case(
    "ref_event_argument_role",
    broken={
        ("ref", D2): within(
            "event", f"{D2}-EV4", lambda x: x.replace('ROLE="Position"/>', 'ROLE="Job"/>', 1)
        )
    },
    clean={("ref", D2): remove("event", f"{D2}-EV4")},
)
case(
    "ref_entity_defined_twice",
    broken={
        ("ref", D2): lambda t: insert_before(
            f'<entity ID="{e(D2, 5)}"',
            copy_of(
                "entity", e(D2, 4), lambda x: x.replace('SUBTYPE="Group"', 'SUBTYPE="Individual"')
            )(t),
        )(t)
    },
    clean={},
)

# -- whole-side checks ------------------------------------------------------------------------
case(
    "ref_cascade_argument_skipped",
    broken={("ref", D1): set_attr("entity", e(D1, 1), "TYPE", "PEOPLE")},
    clean={("ref", D1): chain(remove("entity", e(D1, 1)), remove("event", f"{D1}-EV1"))},
)
case(
    "ref_value_id_of_entity",
    broken={("ref", D1): set_attr("value", f"{D1}-V3", "ID", e(D1, 5))},
    clean={("ref", D1): remove("value", f"{D1}-V3")},
)
case(
    "sys_mention_id_twice",
    broken={
        ("sys", D2): within(
            "entity",
            s(D2, "E", 4),
            lambda x: re.sub(
                r'<entity_mention ID="[^"]*"', f'<entity_mention ID="{s(D2, "E", 2)}-1"', x, count=1
            ),
        )
    },
    clean={("sys", D2): remove("entity", s(D2, "E", 4))},
)
case(
    "sys_event_id_of_relation",
    broken={
        ("sys", D3): lambda t: set_attr(
            "event",
            re.findall(r'<event ID="([^"]*)"', t)[0],
            "ID",
            re.findall(r'<relation ID="([^"]*)"', t)[0],
        )(t)
    },
    clean={("sys", D3): lambda t: remove("event", re.findall(r'<event ID="([^"]*)"', t)[0])(t)},
)
case(
    "ref_dangling_argument",
    broken={
        ("ref", D2): within(
            "event",
            f"{D2}-EV3",
            lambda x: x.replace(
                f'REFID="{D2}-T3" ROLE="Time-Ending"/>', f'REFID="{D2}-T9" ROLE="Time-Ending"/>'
            ),
        )
    },
    clean={("ref", D2): remove("event", f"{D2}-EV3")},
)
case(
    "ref_dangling_mention_argument",
    broken={
        ("ref", D2): within(
            "event", f"{D2}-EV1", lambda x: x.replace(f'REFID="{D2}-V1-1"', f'REFID="{D2}-V1-7"')
        )
    },
    clean={("ref", D2): remove("event", f"{D2}-EV1")},
)
case(
    "ref_mention_not_of_argument",
    broken={
        ("ref", D3): within(
            "relation",
            f"{D3}-R1",
            lambda x: x.replace(
                f'<relation_mention_argument REFID="{e(D3, 5)}-5"',
                f'<relation_mention_argument REFID="{e(D3, 8)}-8"',
            ),
        )
    },
    clean={("ref", D3): remove("relation", f"{D3}-R1")},
)
case(
    "ref_argument_in_other_document",
    broken={
        ("ref", D3): within(
            "relation",
            f"{D3}-R1",
            lambda x: x.replace(
                f'<relation_argument REFID="{e(D3, 5)}"', f'<relation_argument REFID="{e(D1, 5)}"'
            ),
        )
    },
    clean={("ref", D3): remove("relation", f"{D3}-R1")},
)
case(
    "ref_symmetric_relation_one_argument",
    broken={
        ("ref", D3): within(
            "relation",
            f"{D3}-R1",
            lambda x: (
                x.replace(
                    'TYPE="GEN-AFF" SUBTYPE="Org-Location"', 'TYPE="PER-SOC" SUBTYPE="Business"'
                )
                .replace(f'REFID="{e(D3, 5)}" ROLE="Arg-2"', f'REFID="{e(D3, 4)}" ROLE="Arg-2"')
                .replace(f'REFID="{e(D3, 5)}-5" ROLE="Arg-2"', f'REFID="{e(D3, 4)}-4" ROLE="Arg-2"')
            ),
        )
    },
    clean={("ref", D3): remove("relation", f"{D3}-R1")},
)
# the two defects of real (LDC) annotation the NIST tool cannot score (docs/rules/ldc-sources.md), in a
# first-pass (system) folder: a symmetric relation whose Arg-1 and Arg-2 are one entity (its
# mentions two mentions of it), an event argument declared twice (same ID, same role)
case(
    "sys_symmetric_relation_same_entity",
    broken={
        ("sys", D3): within(
            "relation",
            s(D3, "R", 2),
            lambda x: x.replace(
                'TYPE="GEN-AFF" SUBTYPE="Org-Location"', 'TYPE="PHYS" SUBTYPE="Located"'
            ).replace(
                f'REFID="{s(D3, "E", 8)}" ROLE="Arg-2"', f'REFID="{s(D3, "E", 4)}" ROLE="Arg-2"'
            ),
        )
    },
    clean={("sys", D3): remove("relation", s(D3, "R", 2))},
)
case(
    "sys_event_argument_twice",
    broken={
        ("sys", D2): within(
            "event",
            s(D2, "EV", 1),
            lambda x: x.replace(
                f'  <event_argument REFID="{s(D2, "E", 2)}" ROLE="Defendant"/>\n',
                f'  <event_argument REFID="{s(D2, "E", 2)}" ROLE="Defendant"/>\n'
                f'  <event_argument REFID="{s(D2, "E", 2)}" ROLE="Defendant"/>\n',
            ),
        )
    },
    clean={("sys", D2): remove("event", s(D2, "EV", 1))},
)
case(
    "ref_relation_without_arg2",
    broken={
        ("ref", D2): within(
            "relation",
            f"{D2}-R1",
            lambda x: re.sub(
                r'(?s)\s*<relation_argument [^>]*ROLE="Arg-2"/>',
                "",
                re.sub(
                    r'(?s)\s*<relation_mention_argument [^>]*ROLE="Arg-2">.*?</relation_mention_argument>',
                    "",
                    x,
                ),
            ),
        )
    },
    clean={("ref", D2): remove("relation", f"{D2}-R1")},
)
case(
    "sys_relation_two_arg1",
    broken={
        ("sys", D1): within(
            "relation",
            s(D1, "R", 1),
            lambda x: x.replace(
                f'  <relation_argument REFID="{s(D1, "E", 2)}" ROLE="Arg-1"/>\n',
                f'  <relation_argument REFID="{s(D1, "E", 2)}" ROLE="Arg-1"/>\n'
                f'  <relation_argument REFID="{s(D1, "E", 1)}" ROLE="Arg-1"/>\n',
            ),
        )
    },
    clean={("sys", D1): remove("relation", s(D1, "R", 1))},
)

# -- cross-document (global) checks ---------------------------------------------------------
case(
    "global_attribute_conflict",
    base="global",
    broken={("ref", G3): set_attr("entity", "GLOBAL-E2", "SUBTYPE", "Group")},
    clean={("ref", G3): chain(remove("entity", "GLOBAL-E2"), remove("relation", f"{G3}-R1"))},
)
case(
    "global_external_link_conflict",
    base="global",
    broken={
        ("ref", G1): within(
            "entity",
            "GLOBAL-E2",
            lambda x: x.replace(
                "</entity>", '  <external_link RESOURCE="wiki" EID="Q1"/>\n</entity>'
            ),
        ),
        ("ref", G3): within(
            "entity",
            "GLOBAL-E2",
            lambda x: x.replace(
                "</entity>", '  <external_link RESOURCE="wiki" EID="Q2"/>\n</entity>'
            ),
        ),
    },
    clean={
        ("ref", G1): within(
            "entity",
            "GLOBAL-E2",
            lambda x: x.replace(
                "</entity>", '  <external_link RESOURCE="wiki" EID="Q1"/>\n</entity>'
            ),
        ),
        ("ref", G3): chain(remove("entity", "GLOBAL-E2"), remove("relation", f"{G3}-R1")),
    },
)
case(
    "global_relation_arguments_differ",
    base="global",
    broken={
        ("ref", G3): within(
            "relation",
            f"{G3}-R1",
            lambda x: x.replace(
                f'<relation ID="{G3}-R1" TYPE="PER-SOC" SUBTYPE="Lasting-Personal" TENSE="Unspecified"'
                ' MODALITY="Other">',
                '<relation ID="GLOBAL-R3" TYPE="ORG-AFF" SUBTYPE="Ownership" TENSE="Past"'
                ' MODALITY="Asserted">',
            ),
        )
    },
    clean={("ref", G3): remove("relation", f"{G3}-R1")},
)
case(
    "global_relation_partial_first",
    base="global",
    broken={
        ("ref", G1): insert_before(
            "<event ",
            f'<relation ID="GLOBAL-R9" TYPE="PER-SOC"'
            ' SUBTYPE="Lasting-Personal" MODALITY="Other">\n'
            '  <relation_argument REFID="GLOBAL-E2" ROLE="Arg-1"/>\n'
            f'  <relation_mention ID="{G1}-GLOBAL-R9-1">\n'
            "    <extent>\n"
            '      <charseq START="233" END="241">x</charseq>\n'
            "    </extent>\n"
            f'    <relation_mention_argument REFID="{G1}-GLOBAL-E2-2"'
            ' ROLE="Arg-1"/>\n'
            "  </relation_mention>\n"
            "</relation>\n",
        ),
        ("ref", G3): sub(f'<relation ID="{G3}-R1"', '<relation ID="GLOBAL-R9"'),
    },
    clean={("ref", G3): sub(f'<relation ID="{G3}-R1"', '<relation ID="GLOBAL-R9"')},
)


# -- several problems in one corpus -------------------------------------------------------------
case(
    "combined",
    broken={
        ("ref", D2): set_attr("entity", e(D2, 4), "TYPE", "COMPANY"),
        ("sys", D1): set_attr("relation", s(D1, "R", 1), "MODALITY", "Certain"),
        ("ref", D3): set_attr("relation", f"{D3}-R1", "TYPE", "LOCATED"),
        ("sys", D3): sub('SOURCE="weblog"', 'SOURCE="newswire"'),
        ("sys", D2): set_attr("entity", s(D2, "E", 3), "SUBTYPE", "Commercial"),
    },
    clean={
        ("ref", D2): remove("entity", e(D2, 4)),
        ("sys", D1): remove("relation", s(D1, "R", 1)),
        ("sys", D2): chain(remove("entity", s(D2, "E", 3)), remove("event", s(D2, "EV", 2))),
        **both(D3),
    },
)


# ---- writing -----------------------------------------------------------------------------------


def _read(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def _write(path: str, data) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    kw = {} if isinstance(data, bytes) else {"encoding": "utf-8", "newline": ""}
    with open(path, mode, **kw) as fh:
        fh.write(data)


def _fname(docid: str) -> str:
    return docid if docid.endswith(".xml") else docid + ".apf.xml"


def base_texts(base: str) -> dict:
    texts = {}
    for side in ("ref", "sys"):
        folder = os.path.join(HERE, base, side)
        for f in sorted(os.listdir(folder)):
            texts[(side, f[: -len(".apf.xml")])] = _read(os.path.join(folder, f))
    return texts


def write_case(name: str, variant: str, dest: str) -> list:
    """Write the corpus of one case (``variant`` ``broken`` or ``clean``) into ``dest``:
    ``ref/``, ``sys/`` and the lists ``ref.list``, ``sys.list`` (paths relative to
    ``dest``, sorted; in the broken variant also the entries naming missing files).
    Returns the extra command-line arguments of the case."""
    c = BY_NAME[name]
    texts = base_texts(c["base"])
    files = {(side, _fname(doc)): text.encode("utf-8") for (side, doc), text in texts.items()}
    edits = c[variant]
    for (side, doc), fn in sorted(edits.items()):
        key = (side, _fname(doc))
        if fn is DROP:
            del files[key]
        else:
            files[key] = fn(texts[(side, doc)]).encode("utf-8")
    if variant == "broken":
        for (side, doc), fn in sorted(c["raw"].items()):
            files[(side, _fname(doc))] = fn(texts[(side, doc)].encode("utf-8"))
        for (side, fname), fn in sorted(c["add"].items()):
            files[(side, fname)] = fn(texts).encode("utf-8")
    for (side, fname), data in files.items():
        _write(os.path.join(dest, side, fname), data)
    for side in ("ref", "sys"):
        entries = [f"{s}/{f}" for s, f in files if s == side]
        if variant == "broken":
            entries += [f"{s}/{_fname(d)}" for s, d in c["missing"] if s == side]
        _write(os.path.join(dest, f"{side}.list"), "".join(f"{p}\n" for p in sorted(entries)))
    return list(c["args"])


BY_NAME = {c["name"]: c for c in CASES}
assert len(BY_NAME) == len(CASES)
NAMES = [c["name"] for c in CASES]


def rebuild_base(acesynth: str) -> None:
    for name, extra in (("local", ["--seed", "rb1"]), ("global", ["--seed", "rbg", "--global"])):
        tmp = os.path.join(HERE, f"_tmp_{name}")
        subprocess.run(
            [
                sys.executable,
                acesynth,
                "--docs",
                "3",
                "--sentences",
                "3-4",
                "--profiles",
                "heavy",
                "--out",
                tmp,
                "--quiet",
                "--force",
            ]
            + extra,
            check=True,
        )
        shutil.rmtree(os.path.join(HERE, name), ignore_errors=True)
        shutil.copytree(os.path.join(tmp, "ref"), os.path.join(HERE, name, "ref"))
        shutil.copytree(os.path.join(tmp, "sys-heavy"), os.path.join(HERE, name, "sys"))
        shutil.rmtree(tmp)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write every case (NAME/broken, NAME/clean) into this folder")
    ap.add_argument(
        "--base", metavar="ACESYNTH", help="rebuild local/ and global/ with this acesynth.py first"
    )
    a = ap.parse_args()
    if a.base:
        rebuild_base(a.base)
    if a.out:
        for name in NAMES:
            for variant in ("broken", "clean"):
                write_case(name, variant, os.path.join(a.out, name, variant))
        print(f"{len(NAMES)} cases written to {a.out}")
    else:
        print(f"{len(NAMES)} cases (use --out DIR to write them)")


if __name__ == "__main__":
    main()
