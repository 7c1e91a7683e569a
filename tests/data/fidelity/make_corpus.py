#!/usr/bin/env python3
"""Writes the small synthetic 'fidelity' corpus (ref/, sys/, ref.list, sys.list) next to
this script.  Invented text, names and IDs.

It exercises what the NIST tool reads differently from an XML parser or from a newer
Unicode (issue #19):

* Chinese and Latin names joined by U+00B7 MIDDLE DOT (乔治·布什, 约翰·Smith, John·Smith),
  and other characters whose script extensions differ between Unicode 14 (Perl 5.36) and
  later versions: U+0301 after Han, U+02BC in Arabic, U+2E41 between Han, U+204F and
  U+2FF0 between Latin letters;
* names and mention texts with ``&amp;`` and ``&lt;`` (kept as written by the tool);
* attribute values across lines (``Abu-<newline>Dhabi``, ``布<newline>什``);
* one ID in two argument roles of a relation and of a relation mention, and relation and
  event mentions that repeat an earlier mention's arguments (the tool's warnings).

Run ``python3 make_corpus.py`` to rewrite the files (deterministic).
"""

from __future__ import annotations

import os

HERE = os.path.dirname(os.path.abspath(__file__))


def ent(eid, etype, subtype, mentions, names=(), cls="SPC"):
    return {
        "id": eid,
        "type": etype,
        "subtype": subtype,
        "class": cls,
        "mentions": mentions,
        "names": names,
    }


def zh(side):
    s = side == "sys"
    e1_names = ("乔治·布什",) if s else ("乔治·布什", "布\n什")
    return (
        "FID-ZH-1",
        [
            ent(
                "E1",
                "PER",
                "Individual",
                [
                    ("1", "NAM", 0, 4, "乔治·布什"),
                    ("2", "NAM", 20, 21, "布什"),
                    ("3", "PRO", 30, 30, "他"),
                ],
                e1_names,
            ),
            ent(
                "E2",
                "ORG",
                "Commercial",
                [("4", "NAM", 40, 48, "中国&amp;美国公司")],
                ("中国&amp;美国公司",),
            ),
            ent(
                "E3",
                "GPE",
                "Population-Center",
                [("5", "NAM", 60, 64, "北京\u2e41上海")],
                ("北京\u2e41上海",),
            ),
            ent(
                "E4",
                "PER",
                "Individual",
                [("6", "NAM", 70, 77, "约翰·Smyth" if s else "约翰·Smith")],
                ("约翰·Smyth" if s else "约翰·Smith",),
            ),
            ent("E5", "ORG", "Commercial", [("7", "NAM", 80, 82, "中\u0301国")], ("中\u0301国",)),
        ],
        [
            (
                "R1",
                "ORG-AFF",
                "Employment",
                [("Arg-1", "E1"), ("Arg-2", "E2")],
                [("1", 0, 48, [("Arg-1", "E1-1"), ("Arg-2", "E2-4")])]
                + ([] if s else [("2", 20, 48, [("Arg-1", "E1-1"), ("Arg-2", "E2-4")])]),
            ),
            (
                "R2",
                "GEN-AFF",
                "Org-Location",
                [("Arg-1", "E2"), ("Arg-2", "E3")],
                [("1", 40, 64, [("Arg-1", "E2-4"), ("Arg-2", "E3-5")])],
            ),
            (
                "R3",
                "ORG-AFF",
                "Employment",
                [("Arg-1", "E4"), ("Arg-2", "E4")],
                [("1", 70, 77, [("Arg-1", "E4-6"), ("Arg-2", "E4-6")])],
            ),
        ],
        [
            (
                "EV1",
                "Conflict",
                "Attack",
                [("Attacker", "E1"), ("Place", "E3")],
                [
                    ("1", 0, 64, (10, 11), [("Attacker", "E1-1"), ("Place", "E3-5")]),
                    ("2", 5, 64, (10, 11), [("Attacker", "E1-1"), ("Place", "E3-5")]),
                    ("3", 100, 120, (105, 106), [("Attacker", "E1-1"), ("Place", "E3-5")]),
                ],
            )
        ],
    )


def en(side):
    s = side == "sys"
    att = "AT&amp;C" if s else "AT&amp;T"
    return (
        "FID-EN-1",
        [
            ent(
                "E1",
                "ORG",
                "Commercial",
                [("1", "NAM", 0, 7, att), ("2", "NOM", 20, 26, "company")],
                (att,),
            ),
            ent(
                "E2",
                "GPE",
                "Population-Center",
                [("3", "NAM", 30, 39, "Abu Dhabi" if s else "Abu-\nDhabi")],
                ("Abu Dhabi" if s else "Abu-\nDhabi",),
            ),
            ent("E3", "PER", "Individual", [("4", "NAM", 50, 59, "John·Smith")], ("John·Smith",)),
            ent(
                "E4",
                "ORG",
                "Commercial",
                [("5", "NAM", 60, 68, "Acme\u2ff0Corp")],
                ("Acme\u2ff0Corp",),
            ),
            ent("E5", "ORG", "Commercial", [("6", "NAM", 70, 80, "X&lt;Y Corp")], ("X&lt;Y Corp",)),
            ent(
                "E6", "ORG", "Commercial", [("7", "NAM", 90, 96, "Foo\u204fBar")], ("Foo\u204fBar",)
            ),
            ent(
                "E7",
                "PER",
                "Individual",
                [("8", "NAM", 100, 106, "A&amp;C" if s else "A&amp;B")],
                ("A&amp;C" if s else "A&amp;B",),
            ),
        ],
        [
            (
                "R1",
                "ORG-AFF",
                "Employment",
                [("Arg-1", "E3"), ("Arg-2", "E1")],
                [
                    ("1", 0, 59, [("Arg-1", "E3-4"), ("Arg-2", "E1-1")]),
                    ("2", 10, 59, [("Arg-1", "E3-4"), ("Arg-2", "E1-1")]),
                    ("3", 20, 59, [("Arg-1", "E3-4"), ("Arg-2", "E1-2")]),
                ],
            ),
            (
                "R2",
                "PHYS",
                "Located",
                [("Arg-1", "E3"), ("Arg-2", "E2")],
                [
                    ("1", 30, 59, [("Arg-1", "E3-4"), ("Arg-2", "E2-3")]),
                    ("2", 30, 59, [("Arg-1", "E2-3"), ("Arg-2", "E3-4")]),
                ],
            ),
        ],
        [
            (
                "EV1",
                "Business",
                "Merge-Org",
                [("Org", "E1"), ("Org", "E4")],
                [
                    ("1", 0, 68, (62, 64), [("Org", "E1-1"), ("Org", "E4-5")]),
                    ("2", 0, 68, (62, 64), [("Org", "E1-1"), ("Org", "E4-5")]),
                ],
            )
        ],
    )


def ar(side):
    s = side == "sys"
    return (
        "FID-AR-1",
        [
            ent(
                "E1", "PER", "Individual", [("1", "NAM", 0, 7, "عبد\u02bcالله")], ("عبد\u02bcالله",)
            ),
            ent(
                "E2",
                "GPE",
                "Population-Center",
                [("2", "NAM", 20, 26, "القاهرة")],
                ("القاهرة",) if s else ("القاهرة", "ال\nقاهرة"),
            ),
        ],
        [
            (
                "R1",
                "PHYS",
                "Located",
                [("Arg-1", "E1"), ("Arg-2", "E2")],
                [("1", 0, 26, [("Arg-1", "E1-1"), ("Arg-2", "E2-2")])],
            )
        ],
        [],
    )


def charseq(start, end, text, indent):
    return f'{indent}<charseq START="{start}" END="{end}">{text}</charseq>\n'


def apf(docid, entities, relations, events, prefix):
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        '<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">\n',
        f'<source_file URI="{docid}.sgm" SOURCE="newswire" TYPE="text">\n',
        f'<document DOCID="{docid}">\n',
    ]
    p = f"{docid}-{prefix}"
    for e in entities:
        out.append(
            f'<entity ID="{p}{e["id"]}" TYPE="{e["type"]}" SUBTYPE="{e["subtype"]}"'
            f' CLASS="{e["class"]}">\n'
        )
        for mid, mtype, start, end, text in e["mentions"]:
            out.append(f'  <entity_mention ID="{p}{e["id"]}-{mid}" TYPE="{mtype}">\n')
            for part in ("extent", "head"):
                out.append(
                    f"    <{part}>\n" + charseq(start, end, text, "      ") + f"    </{part}>\n"
                )
            out.append("  </entity_mention>\n")
        if e["names"]:
            out.append("  <entity_attributes>\n")
            first = e["mentions"][0]
            for n in e["names"]:
                out.append(
                    f'    <name NAME="{n}">\n'
                    + charseq(first[2], first[3], first[4], "      ")
                    + "    </name>\n"
                )
            out.append("  </entity_attributes>\n")
        out.append("</entity>\n")
    for rid, rtype, subtype, args, mentions in relations:
        out.append(
            f'<relation ID="{p}{rid}" TYPE="{rtype}" SUBTYPE="{subtype}"'
            f' MODALITY="Asserted" TENSE="Unspecified">\n'
        )
        for role, ref in args:
            out.append(f'  <relation_argument REFID="{p}{ref}" ROLE="{role}"/>\n')
        for mid, start, end, margs in mentions:
            out.append(
                f'  <relation_mention ID="{p}{rid}-{mid}">\n'
                f"    <extent>\n"
                + charseq(start, end, "x" * (end - start + 1), "      ")
                + "    </extent>\n"
            )
            for role, ref in margs:
                out.append(f'    <relation_mention_argument REFID="{p}{ref}" ROLE="{role}"/>\n')
            out.append("  </relation_mention>\n")
        out.append("</relation>\n")
    for vid, etype, subtype, args, mentions in events:
        out.append(
            f'<event ID="{p}{vid}" TYPE="{etype}" SUBTYPE="{subtype}" MODALITY="Asserted"'
            ' POLARITY="Positive" GENERICITY="Specific" TENSE="Past">\n'
        )
        for role, ref in args:
            out.append(f'  <event_argument REFID="{p}{ref}" ROLE="{role}"/>\n')
        for mid, start, end, (a0, a1), margs in mentions:
            out.append(
                f'  <event_mention ID="{p}{vid}-{mid}">\n'
                "    <extent>\n"
                + charseq(start, end, "y" * (end - start + 1), "      ")
                + "    </extent>\n    <anchor>\n"
                + charseq(a0, a1, "z" * (a1 - a0 + 1), "      ")
                + "    </anchor>\n"
            )
            for role, ref in margs:
                out.append(f'    <event_mention_argument REFID="{p}{ref}" ROLE="{role}"/>\n')
            out.append("  </event_mention>\n")
        out.append("</event>\n")
    out.append("</document>\n</source_file>\n")
    return "".join(out)


def main():
    for side, prefix in (("ref", ""), ("sys", "S-")):
        folder = os.path.join(HERE, side)
        os.makedirs(folder, exist_ok=True)
        names = []
        for make in (ar, en, zh):
            docid, entities, relations, events = make(side)
            name = f"{side}/{docid}.apf.xml"
            with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as fh:
                fh.write(apf(docid, entities, relations, events, prefix))
            names.append(name)
        with open(os.path.join(HERE, f"{side}.list"), "w", encoding="utf-8") as fh:
            fh.write("".join(n + "\n" for n in names))


if __name__ == "__main__":
    main()
