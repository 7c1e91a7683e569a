"""A synthetic corpus laid out like the LDC release of ACE 2005 (docs/rules/ldc-sources.md), for
end-to-end tests of every command on "the official corpus, first try".

Built on :mod:`acesynth` (made-up documents, reference and a perturbed annotation), then
rearranged and roughened the way the official folders are:

* ``data/English/GENRE/adj/`` (the adjudicated reference) and ``.../fp1/`` (a first-pass
  annotator) for the six genres bc, bn, cts, nw, un, wl; each folder holds the source
  ``DOCID.sgm`` next to ``DOCID.apf.xml`` and an ``DOCID.ag.xml`` (not APF);
* SGML sources: a bare ``&`` and an ``&amp;`` in every document (inside an annotated name),
  ``<ENDTIME>`` after ``</BODY>`` in broadcast news, and in newsgroup text a
  ``<QUOTE PREVIOUSPOST="...">`` over several lines that is never closed and a ``<POST>``
  left open;
* annotation defects in the genres of :data:`DEFECTIVE`: a symmetric (PER-SOC) relation
  whose Arg-1 and Arg-2 are one entity (adj and fp1), an event argument declared twice
  (fp1).

Nothing comes from a licensed corpus.  ``python tests/ldc_like.py OUT`` writes one.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

# the generator is a developer tool at the top of the checkout: tools/acesynth.py
sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
)
import acesynth

GENRES = {
    "broadcast conversation": "bc",
    "broadcast news": "bn",
    "telephone": "cts",
    "newswire": "nw",
    "usenet": "un",
    "weblog": "wl",
}
#: genres whose adj and fp1 folders hold the annotation defects
DEFECTIVE = ("bn", "nw", "un")
#: text added at the end of every document's TEXT: a bare ``&`` and an entity reference,
#: each inside a name annotated on both sides
AMP_LINE = "Shares of Smith & Wesson and AT&amp;T rose.\n"
AMP_NAMES = ("Smith & Wesson", "AT&amp;T")  # as they are in the source (raw)

_TAG = re.compile(r"<[^>]*>")


@dataclass
class Doc:
    docid: str
    genre: str
    #: (start, end) inclusive offsets of AMP_NAMES by the ACE rule (tags removed, entity
    #: references counted as written)
    amp_offsets: list = field(default_factory=list)
    defects: list = field(default_factory=list)  # (folder, kind, element ID)


@dataclass
class LdcLike:
    root: str
    docs: list

    def folder(self, genre: str, annotator: str = "adj") -> str:
        return os.path.join(self.root, "data", "English", genre, annotator)

    def docids(self, genre: str) -> list:
        return [d.docid for d in self.docs if d.genre == genre]


def _offset(sgm: str, pos: int) -> int:
    """The ACE offset of ``sgm[pos]``: characters before it, tags removed."""
    return len(_TAG.sub("", sgm[:pos]))


def roughen_source(sgm: str, genre: str) -> tuple[str, list]:
    """The LDC quirks of ``genre``; returns the new source and the offsets of AMP_NAMES."""
    at = sgm.rindex("</TEXT>")
    sgm = sgm[:at] + AMP_LINE + sgm[at:]
    base = _offset(sgm, at)
    offsets = []
    for name in AMP_NAMES:
        s = base + AMP_LINE.index(name)
        offsets.append((s, s + len(name) - 1))
    if genre == "bn":
        m = re.search(r"<DATETIME>\s*(\S+ \S+|\S+)\s*</DATETIME>", sgm)
        sgm = sgm.replace(
            "</BODY>\n", f"</BODY>\n<ENDTIME> {m.group(1) if m else 'x'} </ENDTIME>\n", 1
        )
    if genre == "un":
        quote = (
            '<QUOTE PREVIOUSPOST="\nSomeone wrote: the vote is on Tuesday,\n'
            'and the figures &amp; the rules follow.">'
        )
        sgm = re.sub(r"(</POSTDATE>\n)", lambda m: m.group(1) + quote, sgm)
        sgm = sgm.replace("</POST>", "", 1)  # a POST left open
    return sgm, offsets


def _charseq(s: int, e: int, raw: str) -> str:
    # the APF text: the raw slice written with its '&' escaped (AT&amp;T -> AT&amp;amp;T),
    # so that the decoded text equals the source slice
    return f'<charseq START="{s}" END="{e}">{escape(raw)}</charseq>'


def amp_entities(docid: str, offsets: list, prefix: str) -> str:
    out = []
    for k, ((s, e), raw) in enumerate(zip(offsets, AMP_NAMES), 1):
        eid = f"{docid}-{prefix}{k}"
        cs = _charseq(s, e, raw)
        out.append(
            f'<entity ID="{eid}" TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC">\n'
            f'  <entity_mention ID="{eid}-1" TYPE="NAM" LDCTYPE="NAM">\n'
            f"    <extent>\n      {cs}\n    </extent>\n"
            f"    <head>\n      {cs}\n    </head>\n  </entity_mention>\n"
            f"  <entity_attributes>\n    <name NAME={quoteattr(raw)}>\n      {cs}\n"
            f"    </name>\n  </entity_attributes>\n</entity>\n"
        )
    return "".join(out)


_ENTITY_MENTION = re.compile(
    r'<entity ID="([^"]+)" TYPE="PER"[^>]*>\s*<entity_mention ID="([^"]+)"[^>]*>\s*<extent>\s*'
    r'(<charseq START="\d+" END="\d+">[^<]*</charseq>)'
)


def same_entity_relation(apf: str, docid: str, rid: str) -> tuple[str, str]:
    """A PER-SOC relation whose Arg-1 and Arg-2 are the same PER entity (and mention)."""
    m = _ENTITY_MENTION.search(apf)
    assert m, f"{docid}: no PER entity to build a defect on"
    ent, men, cs = m.groups()

    def arg(role: str) -> str:
        return (
            f'    <relation_mention_argument REFID="{men}" ROLE="{role}">\n'
            f"      <extent>\n        {cs}\n      </extent>\n"
            f"    </relation_mention_argument>\n"
        )

    rel = (
        f'<relation ID="{rid}" TYPE="PER-SOC" SUBTYPE="Business" TENSE="Unspecified"'
        f' MODALITY="Asserted">\n'
        f'  <relation_argument REFID="{ent}" ROLE="Arg-1"/>\n'
        f'  <relation_argument REFID="{ent}" ROLE="Arg-2"/>\n'
        f'  <relation_mention ID="{rid}-1" LEXICALCONDITION="Possessive">\n'
        f"    <extent>\n      {cs}\n    </extent>\n{arg('Arg-1')}{arg('Arg-2')}"
        f"  </relation_mention>\n</relation>\n"
    )
    return apf.replace("</document>", rel + "</document>", 1), rid


def duplicate_event_argument(apf: str, docid: str) -> tuple[str, str]:
    """Declare an event's first argument twice (same REFID, same ROLE)."""
    m = re.search(r'<event ID="([^"]+)"[^>]*>\n(\s*<event_argument [^>]*/>\n)', apf)
    assert m, f"{docid}: no event argument to duplicate"
    return apf[: m.end()] + m.group(2) + apf[m.end() :], m.group(1)


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def make_ldc_like(out: str, per_genre: int = 1, seed: str = "ldc", docs: int = 40) -> LdcLike:
    """Write the corpus into ``out`` (created) and describe it: ``per_genre`` documents of
    each genre (0: every one of the ``docs`` documents generated, the genres as uneven as
    the release's)."""
    synth = os.path.join(out, "_acesynth")
    acesynth.main(
        [
            "--docs",
            str(docs),
            "--seed",
            seed,
            "--profiles",
            "light",
            "--no-lists",
            "--quiet",
            "--force",
            "--out",
            synth,
        ]
    )
    by_genre: dict = {}
    for name in sorted(os.listdir(os.path.join(synth, "src"))):
        sgm = _read(os.path.join(synth, "src", name))
        source = re.search(r'<DOCTYPE SOURCE="([^"]+)"', sgm).group(1)
        by_genre.setdefault(GENRES[source], []).append(name[: -len(".sgm")])
    docs = []
    for genre in sorted(GENRES.values()):
        assert len(by_genre.get(genre, ())) >= per_genre, f"seed {seed}: too few {genre}"
        for docid in by_genre[genre][: per_genre or None]:
            doc = Doc(docid, genre)
            sgm, doc.amp_offsets = roughen_source(
                _read(os.path.join(synth, "src", docid + ".sgm")), genre
            )
            for folder, side, prefix in (("adj", "ref", "E-AMP"), ("fp1", "sys-light", "S-AMP")):
                apf = _read(os.path.join(synth, side, docid + ".apf.xml"))
                apf = apf.replace(
                    "</document>", amp_entities(docid, doc.amp_offsets, prefix) + "</document>", 1
                )
                if genre in DEFECTIVE:
                    apf, rid = same_entity_relation(apf, docid, f"{docid}-{prefix[0]}R-SAME")
                    doc.defects.append((folder, "same-entity relation", rid))
                    if folder == "fp1":
                        apf, eid = duplicate_event_argument(apf, docid)
                        doc.defects.append((folder, "event argument twice", eid))
                d = os.path.join(out, "data", "English", genre, folder)
                _write(os.path.join(d, docid + ".apf.xml"), apf)
                _write(os.path.join(d, docid + ".sgm"), sgm)
                _write(
                    os.path.join(d, docid + ".ag.xml"),  # the LDC's annotation graphs
                    f'<?xml version="1.0"?>\n<AGSet id="{docid}"/>\n',
                )
            docs.append(doc)
    shutil.rmtree(synth)
    return LdcLike(out, docs)


if __name__ == "__main__":
    # python tests/ldc_like.py OUT [PER_GENRE [DOCS]]: 0 600 is a release-sized corpus
    c = make_ldc_like(
        sys.argv[1],
        int(sys.argv[2]) if len(sys.argv) > 2 else 1,
        docs=int(sys.argv[3]) if len(sys.argv) > 3 else 40,
    )
    for d in c.docs:
        print(d.genre, d.docid, d.defects)
