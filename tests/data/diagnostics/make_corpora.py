"""Build the two small hand-made corpora of the diagnostics tests (run in this folder).

* ``phantom/``: two documents with cross-document (global) IDs; a SYS relation and a SYS
  event whose second-document instance lists only some of the element's arguments, which
  makes the NIST tool create empty document parts for the missing SYS argument elements
  (docs/rules/relations-events.md §12) -- visible in ``-a`` listings.
* ``dup/``: one document whose reference contains an entity, a value, a timex2, a relation
  and an event each copied under a second ID (``-c`` duplicate warnings, docs/rules/input.md §4).

External links (docs/rules/report.md §5.3.1 EXTERNAL ID MISMATCH, §5.2 ids) are on some ``phantom`` entities.
The expected reports next to them were produced by the NIST scorer run in canonical order
(see README.md); this script only writes the APF inputs and the file lists.
"""

from __future__ import annotations

import os
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))


class Doc:
    def __init__(self, docid: str, source: str, text: str):
        self.docid = docid
        self.source = source
        self.text = text
        self.parts: list[str] = []

    def span(self, s: str, occ: int = 1):
        pos = -1
        for _ in range(occ):
            pos = self.text.index(s, pos + 1)
        return pos, pos + len(s) - 1

    def charseq(self, s: str, occ: int = 1, indent: str = "      ") -> str:
        a, b = self.span(s, occ)
        return f'{indent}<charseq START="{a}" END="{b}">{escape(s)}</charseq>\n'

    def entity(self, eid, etype, subtype, cls, mentions, names=(), links=()):
        out = [f'<entity ID="{eid}" TYPE="{etype}" SUBTYPE="{subtype}" CLASS="{cls}">\n']
        for mid, mtype, head, extent, occ in mentions:
            out.append(f'  <entity_mention ID="{mid}" TYPE="{mtype}" LDCTYPE="{mtype}">\n')
            out.append("    <extent>\n" + self.charseq(extent, occ) + "    </extent>\n")
            out.append("    <head>\n" + self.charseq(head, occ) + "    </head>\n")
            out.append("  </entity_mention>\n")
        if names:
            out.append("  <entity_attributes>\n")
            for n, occ in names:
                out.append(
                    f'    <name NAME="{escape(n)}">\n'
                    + self.charseq(n, occ, "      ")
                    + "    </name>\n"
                )
            out.append("  </entity_attributes>\n")
        for res, eid_ in links:
            out.append(f'  <external_link RESOURCE="{res}" EID="{eid_}"/>\n')
        out.append("</entity>\n")
        self.parts.append("".join(out))

    def value(self, vid, vtype, subtype, mentions):
        sub = f' SUBTYPE="{subtype}"' if subtype else ""
        out = [f'<value ID="{vid}" TYPE="{vtype}"{sub}>\n']
        for mid, text, occ in mentions:
            out.append(
                f'  <value_mention ID="{mid}">\n    <extent>\n'
                + self.charseq(text, occ)
                + "    </extent>\n  </value_mention>\n"
            )
        out.append("</value>\n")
        self.parts.append("".join(out))

    def timex2(self, tid, val, mentions):
        out = [f'<timex2 ID="{tid}" VAL="{val}">\n']
        for mid, text, occ in mentions:
            out.append(
                f'  <timex2_mention ID="{mid}">\n    <extent>\n'
                + self.charseq(text, occ)
                + "    </extent>\n  </timex2_mention>\n"
            )
        out.append("</timex2>\n")
        self.parts.append("".join(out))

    def relation(self, rid, rtype, subtype, modality, args, mentions):
        out = [f'<relation ID="{rid}" TYPE="{rtype}" SUBTYPE="{subtype}" MODALITY="{modality}">\n']
        for role, ref in args:
            out.append(f'  <relation_argument REFID="{ref}" ROLE="{role}"/>\n')
        for mid, extent, occ, margs in mentions:
            out.append(f'  <relation_mention ID="{mid}" LEXICALCONDITION="Verbal">\n')
            out.append("    <extent>\n" + self.charseq(extent, occ) + "    </extent>\n")
            for role, ref, text, tocc in margs:
                out.append(
                    f'    <relation_mention_argument REFID="{ref}" ROLE="{role}">\n'
                    "      <extent>\n"
                    + self.charseq(text, tocc, "        ")
                    + "      </extent>\n    </relation_mention_argument>\n"
                )
            out.append("  </relation_mention>\n")
        out.append("</relation>\n")
        self.parts.append("".join(out))

    def event(
        self,
        vid,
        vtype,
        subtype,
        args,
        mentions,
        modality="Asserted",
        polarity="Positive",
        genericity="Specific",
        tense="Past",
    ):
        out = [
            f'<event ID="{vid}" TYPE="{vtype}" SUBTYPE="{subtype}" MODALITY="{modality}" '
            f'POLARITY="{polarity}" GENERICITY="{genericity}" TENSE="{tense}">\n'
        ]
        for role, ref in args:
            out.append(f'  <event_argument REFID="{ref}" ROLE="{role}"/>\n')
        for mid, extent, occ, anchor, aocc, margs in mentions:
            out.append(f'  <event_mention ID="{mid}">\n')
            out.append("    <extent>\n" + self.charseq(extent, occ) + "    </extent>\n")
            out.append("    <anchor>\n" + self.charseq(anchor, aocc) + "    </anchor>\n")
            for role, ref, text, tocc in margs:
                out.append(
                    f'    <event_mention_argument REFID="{ref}" ROLE="{role}">\n'
                    "      <extent>\n"
                    + self.charseq(text, tocc, "        ")
                    + "      </extent>\n    </event_mention_argument>\n"
                )
            out.append("  </event_mention>\n")
        out.append("</event>\n")
        self.parts.append("".join(out))

    def write(self, folder: str) -> str:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{self.docid}.apf.xml")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(
                '<?xml version="1.0"?>\n<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">\n'
                f'<source_file URI="{self.docid}.sgm" SOURCE="{self.source}" TYPE="text" '
                'AUTHOR="LDC" ENCODING="UTF-8">\n'
                f'<document DOCID="{self.docid}">\n'
                + "".join(self.parts)
                + "</document>\n</source_file>\n"
            )
        return path


T1 = "Anna Berg works for Acme Corp in Lisbon. Bo Lind sold Delta Ltd on Monday."
T2 = "Anna Berg met reporters. She said Acme Corp is growing. Anna Berg founded Delta Ltd."
D1, D2 = "PHA_20050101.0001", "PHA_20050102.0002"


def phantom_ref():
    d1 = Doc(D1, "newswire", T1)
    d1.entity(
        "GE1",
        "PER",
        "Individual",
        "SPC",
        [(f"{D1}-GE1-1", "NAM", "Anna Berg", "Anna Berg", 1)],
        [("Anna Berg", 1)],
        [("wiki", "Anna_Berg"), ("kb", "E0001")],
    )
    d1.entity(
        "GE2",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D1}-GE2-1", "NAM", "Acme Corp", "Acme Corp", 1)],
        [("Acme Corp", 1)],
        [("wiki", "Acme_Corp")],
    )
    d1.entity(
        "GE3",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D1}-GE3-1", "NAM", "Delta Ltd", "Delta Ltd", 1)],
        [("Delta Ltd", 1)],
        [("kb", "E0003")],
    )
    d1.entity(
        f"{D1}-E4",
        "PER",
        "Individual",
        "SPC",
        [(f"{D1}-E4-1", "NAM", "Bo Lind", "Bo Lind", 1)],
        [("Bo Lind", 1)],
    )
    d1.timex2(f"{D1}-T1", "2005-01-03", [(f"{D1}-T1-1", "Monday", 1)])
    d1.relation(
        "GR1",
        "ORG-AFF",
        "Employment",
        "Asserted",
        [("Arg-1", "GE1"), ("Arg-2", "GE2")],
        [
            (
                f"{D1}-GR1-1",
                "Anna Berg works for Acme Corp",
                1,
                [
                    ("Arg-1", f"{D1}-GE1-1", "Anna Berg", 1),
                    ("Arg-2", f"{D1}-GE2-1", "Acme Corp", 1),
                ],
            )
        ],
    )
    d1.event(
        "GEV1",
        "Transaction",
        "Transfer-Ownership",
        [("Seller", f"{D1}-E4"), ("Artifact", "GE3"), ("Time-Within", f"{D1}-T1")],
        [
            (
                f"{D1}-GEV1-1",
                "Bo Lind sold Delta Ltd on Monday",
                1,
                "sold",
                1,
                [
                    ("Seller", f"{D1}-E4-1", "Bo Lind", 1),
                    ("Artifact", f"{D1}-GE3-1", "Delta Ltd", 1),
                    ("Time-Within", f"{D1}-T1-1", "Monday", 1),
                ],
            )
        ],
    )
    d2 = Doc(D2, "newswire", T2)
    d2.entity(
        "GE1",
        "PER",
        "Individual",
        "SPC",
        [
            (f"{D2}-GE1-1", "NAM", "Anna Berg", "Anna Berg", 1),
            (f"{D2}-GE1-2", "PRO", "She", "She", 1),
            (f"{D2}-GE1-3", "NAM", "Anna Berg", "Anna Berg", 2),
        ],
        [("Anna Berg", 1)],
    )
    d2.entity(
        "GE2",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D2}-GE2-1", "NAM", "Acme Corp", "Acme Corp", 1)],
        [("Acme Corp", 1)],
    )
    d2.entity(
        "GE3",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D2}-GE3-1", "NAM", "Delta Ltd", "Delta Ltd", 1)],
        [("Delta Ltd", 1)],
    )
    d2.relation(
        "GR1",
        "ORG-AFF",
        "Employment",
        "Asserted",
        [("Arg-1", "GE1"), ("Arg-2", "GE2")],
        [
            (
                f"{D2}-GR1-1",
                "She said Acme Corp",
                1,
                [("Arg-1", f"{D2}-GE1-2", "She", 1), ("Arg-2", f"{D2}-GE2-1", "Acme Corp", 1)],
            )
        ],
    )
    d2.relation(
        "GR2",
        "ORG-AFF",
        "Founder",
        "Asserted",
        [("Arg-1", "GE1"), ("Arg-2", "GE3")],
        [
            (
                f"{D2}-GR2-1",
                "Anna Berg founded Delta Ltd",
                1,
                [
                    ("Arg-1", f"{D2}-GE1-3", "Anna Berg", 2),
                    ("Arg-2", f"{D2}-GE3-1", "Delta Ltd", 1),
                ],
            )
        ],
    )
    return [d1, d2]


def phantom_sys():
    d1 = Doc(D1, "newswire", T1)
    d1.entity(
        "SE1",
        "PER",
        "Individual",
        "SPC",
        [(f"{D1}-SE1-1", "NAM", "Anna Berg", "Anna Berg", 1)],
        [("Anna Berg", 1)],
        [("kb", "E0001")],
    )
    d1.entity(
        "SE2",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D1}-SE2-1", "NAM", "Acme Corp", "Acme Corp", 1)],
        [("Acme Corp", 1)],
        [("wiki", "Acme_Inc")],
    )
    d1.entity(
        "SE3",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D1}-SE3-1", "NAM", "Delta Ltd", "Delta Ltd", 1)],
        [("Delta Ltd", 1)],
    )
    d1.entity(
        "SE4",
        "PER",
        "Individual",
        "SPC",
        [(f"{D1}-SE4-1", "NAM", "Bo Lind", "Bo Lind", 1)],
        [("Bo Lind", 1)],
        [("wiki", "Bo_Lind")],
    )
    d1.timex2(f"{D1}-ST1", "2005-01-03", [(f"{D1}-ST1-1", "Monday", 1)])
    d1.relation(
        "SR1",
        "ORG-AFF",
        "Employment",
        "Asserted",
        [("Arg-1", "SE1"), ("Arg-2", "SE2")],
        [
            (
                f"{D1}-SR1-1",
                "Anna Berg works for Acme Corp",
                1,
                [
                    ("Arg-1", f"{D1}-SE1-1", "Anna Berg", 1),
                    ("Arg-2", f"{D1}-SE2-1", "Acme Corp", 1),
                ],
            )
        ],
    )
    d1.event(
        "SEV1",
        "Transaction",
        "Transfer-Ownership",
        [("Seller", "SE4"), ("Artifact", "SE3"), ("Time-Within", f"{D1}-ST1")],
        [
            (
                f"{D1}-SEV1-1",
                "Bo Lind sold Delta Ltd",
                1,
                "sold",
                1,
                [
                    ("Seller", f"{D1}-SE4-1", "Bo Lind", 1),
                    ("Artifact", f"{D1}-SE3-1", "Delta Ltd", 1),
                    ("Time-Within", f"{D1}-ST1-1", "Monday", 1),
                ],
            )
        ],
    )
    d2 = Doc(D2, "newswire", T2)
    d2.entity(
        "SE1",
        "PER",
        "Individual",
        "SPC",
        [
            (f"{D2}-SE1-1", "NAM", "Anna Berg", "Anna Berg", 1),
            (f"{D2}-SE1-3", "NAM", "Anna Berg", "Anna Berg", 2),
        ],
        [("Anna Berg", 1)],
    )
    d2.entity(
        "SE5",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D2}-SE5-1", "NAM", "Acme Corp", "Acme Corp", 1)],
        [("Acme Corp", 1)],
    )
    d2.entity(
        "SE3",
        "ORG",
        "Commercial",
        "SPC",
        [(f"{D2}-SE3-1", "NAM", "Delta Ltd", "Delta Ltd", 1)],
        [("Delta Ltd", 1)],
    )
    d2.entity("SE6", "PER", "Individual", "SPC", [(f"{D2}-SE6-1", "PRO", "She", "She", 1)])
    # the D2 instance of SR1 lists only its Arg-1
    d2.relation(
        "SR1",
        "ORG-AFF",
        "Employment",
        "Asserted",
        [("Arg-1", "SE1")],
        [(f"{D2}-SR1-1", "Anna Berg met reporters", 1, [("Arg-1", f"{D2}-SE1-1", "Anna Berg", 1)])],
    )
    d2.relation(
        "SR2",
        "ORG-AFF",
        "Founder",
        "Asserted",
        [("Arg-1", "SE1"), ("Arg-2", "SE3")],
        [
            (
                f"{D2}-SR2-1",
                "Anna Berg founded Delta Ltd",
                1,
                [
                    ("Arg-1", f"{D2}-SE1-3", "Anna Berg", 2),
                    ("Arg-2", f"{D2}-SE3-1", "Delta Ltd", 1),
                ],
            )
        ],
    )
    d2.relation(
        "SR3",
        "GEN-AFF",
        "Org-Location",
        "Asserted",
        [("Arg-1", "SE6"), ("Arg-2", "SE5")],
        [
            (
                f"{D2}-SR3-1",
                "She said Acme Corp",
                1,
                [("Arg-1", f"{D2}-SE6-1", "She", 1), ("Arg-2", f"{D2}-SE5-1", "Acme Corp", 1)],
            )
        ],
    )
    # the D2 instance of SEV1 lists only its Artifact
    d2.event(
        "SEV1",
        "Transaction",
        "Transfer-Ownership",
        [("Artifact", "SE3")],
        [
            (
                f"{D2}-SEV1-1",
                "Anna Berg founded Delta Ltd",
                1,
                "founded",
                1,
                [("Artifact", f"{D2}-SE3-1", "Delta Ltd", 1)],
            )
        ],
    )
    return [d1, d2]


T3 = (
    "Dr. Ivo Kranz of Norvale Labs was charged with fraud on 12 May. "
    "Kranz denied the fraud charge. Norvale Labs fired Kranz in May."
)
D3 = "DUP_20060512.0001"


def dup_ref():
    d = Doc(D3, "broadcast news", T3)
    for eid in (f"{D3}-E1", f"{D3}-E1b"):
        d.entity(
            eid,
            "PER",
            "Individual",
            "SPC",
            [
                (f"{eid}-1", "NAM", "Ivo Kranz", "Dr. Ivo Kranz", 1),
                (f"{eid}-2", "NAM", "Kranz", "Kranz", 2),
                (f"{eid}-3", "NAM", "Kranz", "Kranz", 3),
            ],
            [("Ivo Kranz", 1), ("Kranz", 2)],
        )
    d.entity(
        f"{D3}-E2",
        "ORG",
        "Commercial",
        "SPC",
        [
            (f"{D3}-E2-1", "NAM", "Norvale Labs", "Norvale Labs", 1),
            (f"{D3}-E2-2", "NAM", "Norvale Labs", "Norvale Labs", 2),
        ],
        [("Norvale Labs", 1)],
    )
    for vid in (f"{D3}-V1", f"{D3}-V1b"):
        d.value(vid, "Crime", None, [(f"{vid}-1", "fraud", 1), (f"{vid}-2", "fraud charge", 1)])
    for tid in (f"{D3}-T1", f"{D3}-T1b"):
        d.timex2(tid, "XXXX-05-12", [(f"{tid}-1", "12 May", 1)])
    d.timex2(f"{D3}-T2", "XXXX-05", [(f"{D3}-T2-1", "May", 2)])
    for rid in (f"{D3}-R1", f"{D3}-R1b"):
        d.relation(
            rid,
            "ORG-AFF",
            "Employment",
            "Asserted",
            [("Arg-1", f"{D3}-E1"), ("Arg-2", f"{D3}-E2")],
            [
                (
                    f"{rid}-1",
                    "Dr. Ivo Kranz of Norvale Labs",
                    1,
                    [
                        ("Arg-1", f"{D3}-E1-1", "Dr. Ivo Kranz", 1),
                        ("Arg-2", f"{D3}-E2-1", "Norvale Labs", 1),
                    ],
                )
            ],
        )
    for vid in (f"{D3}-EV1", f"{D3}-EV1b"):
        d.event(
            vid,
            "Justice",
            "Charge-Indict",
            [("Defendant", f"{D3}-E1"), ("Crime", f"{D3}-V1"), ("Time-Within", f"{D3}-T1")],
            [
                (
                    f"{vid}-1",
                    "Dr. Ivo Kranz of Norvale Labs was charged with fraud on 12 May",
                    1,
                    "charged",
                    1,
                    [
                        ("Defendant", f"{D3}-E1-1", "Dr. Ivo Kranz", 1),
                        ("Crime", f"{D3}-V1-1", "fraud", 1),
                        ("Time-Within", f"{D3}-T1-1", "12 May", 1),
                    ],
                )
            ],
        )
    d.event(
        f"{D3}-EV2",
        "Personnel",
        "End-Position",
        [("Entity", f"{D3}-E2"), ("Person", f"{D3}-E1"), ("Time-Within", f"{D3}-T2")],
        [
            (
                f"{D3}-EV2-1",
                "Norvale Labs fired Kranz in May",
                1,
                "fired",
                1,
                [
                    ("Entity", f"{D3}-E2-2", "Norvale Labs", 2),
                    ("Person", f"{D3}-E1-3", "Kranz", 3),
                    ("Time-Within", f"{D3}-T2-1", "May", 2),
                ],
            )
        ],
    )
    return [d]


def write(corpus: str, side: str, docs) -> None:
    folder = os.path.join(HERE, corpus, side)
    paths = [d.write(folder) for d in docs]
    with open(os.path.join(HERE, corpus, f"{side}.list"), "w", encoding="utf-8") as fh:
        for p in sorted(paths):
            fh.write(os.path.relpath(p, os.path.join(HERE, corpus)) + "\n")


def main() -> None:
    write("phantom", "ref", phantom_ref())
    write("phantom", "sys", phantom_sys())
    write("dup", "ref", dup_ref())


if __name__ == "__main__":
    main()
