"""Writing the data model back to APF (the inverse of :mod:`acescore.reading.apf`).

``write_apf(apffile, path)`` writes an APF file that reads back to an equal model (apart
from line numbers and file paths) and is valid against the DTD it names.  What the model
does not keep cannot be written: LDCTYPE, relation TENSE and LEXICALCONDITION,
relation time arguments, ``ldc_scope`` (the event mention extent is written in its place),
the text of names (a name gets the head locator of a literal NAM mention with that
normalised name, if there is one).  Defaults are left out rather than written (ROLE equal
to the entity TYPE, METONYMY_MENTION FALSE, relation MODALITY ``Unspecified``, timex2 SET
and NON_SPECIFIC ``NO``), so the output stays valid against the 5.1.1 DTD.  Symmetric
relations (role ``Arg`` in the model) get ``Arg-1`` and ``Arg-2`` again.  Text and values
are written as the model holds them, i.e. as they were written in the file read
(:func:`~acescore.reading.as_written.written_back`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from lxml import etree

from acescore.model.apf import ApfFile, Argument, Document, Locator
from acescore.model.params import SYMMETRIC_RELATIONS
from acescore.model.text import normalize_name
from acescore.reading.as_written import written_back

DEFAULT_DOCTYPE = "apf.v5.1.1.dtd"


def _num(v: float) -> str:
    """A number as the reader parses it back exactly (``repr`` of a float)."""
    return repr(v) if isinstance(v, float) else str(v)


def _locator(parent: Any, tag: str, loc: Locator) -> Any:
    c = etree.SubElement(parent, tag)
    if loc.kind == "text":
        s = etree.SubElement(c, "charseq", START=str(loc.start), END=str(loc.end))
        s.text = loc.text
    elif loc.kind == "audio":
        s = etree.SubElement(c, "timespan", START=_num(loc.start), END=_num(loc.end))
        s.text = loc.text
    else:
        bbl = etree.SubElement(c, "bblist")
        for b in loc.boxes:
            bb = etree.SubElement(
                bbl,
                "bbox",
                PAGE=str(b.page),
                X=_num(b.x),
                Y=_num(b.y),
                WIDTH=_num(b.width),
                HEIGHT=_num(b.height),
            )
            bb.text = b.text
    return c


def _links(parent: Any, links: Iterable[tuple[str, str]]) -> None:
    for res, eid in links:
        etree.SubElement(parent, "external_link", RESOURCE=res, EID=eid)


def _roles(args: Iterable[Argument], symmetric: bool) -> list:
    """(role, refid) pairs to write; symmetric ``Arg`` arguments become Arg-1, Arg-2."""
    out = []
    n = 0
    for a in args:
        role = a.role
        if symmetric and role == "Arg":
            role = "Arg-1" if n == 0 else "Arg-2"
            n += 1
        out.append((role, a.refid))
    return out


def _document(sf: Any, doc: Document) -> None:
    d = etree.SubElement(sf, "document", DOCID=doc.docid)
    m: Any  # the mentions of every kind, in turn
    extents = {}
    for e in doc.entities:
        for m in e.mentions:
            extents[m.id] = m.extent
    for coll in (doc.values, doc.timex2s):
        for el in coll:
            for m in el.mentions:
                extents[m.id] = m.extent

    for e in doc.entities:
        x = etree.SubElement(d, "entity", ID=e.id, TYPE=e.type, SUBTYPE=e.subtype, CLASS=e.cls)
        heads: dict = {}
        for m in e.mentions:
            a = {"ID": m.id, "TYPE": m.type}
            if m.role != e.type:
                a["ROLE"] = m.role
            if m.style == "METONYMIC":
                a["METONYMY_MENTION"] = "TRUE"
            xm = etree.SubElement(x, "entity_mention", a)
            _locator(xm, "extent", m.extent)
            _locator(xm, "head", m.head)
            if m.type == "NAM" and m.style == "LITERAL" and m.head.kind == "text":
                heads.setdefault(normalize_name(m.head.text), m.head)
        if e.names:
            ea = etree.SubElement(x, "entity_attributes")
            for n in e.names:
                nm = etree.SubElement(ea, "name", NAME=n)
                h = heads.get(n)
                if h is not None:
                    s = etree.SubElement(nm, "charseq", START=str(h.start), END=str(h.end))
                    s.text = h.text
        _links(x, e.links)

    for v in doc.values:
        a = {"ID": v.id, "TYPE": v.type}
        if v.subtype is not None:
            a["SUBTYPE"] = v.subtype
        x = etree.SubElement(d, "value", a)
        for m in v.mentions:
            xm = etree.SubElement(x, "value_mention", ID=m.id)
            _locator(xm, "extent", m.extent)
        _links(x, v.links)

    for t in doc.timex2s:
        a = {"ID": t.id}
        for k, val in t.attrs:
            if k in ("SET", "NON_SPECIFIC") and val == "NO":
                continue
            a[k] = val
        x = etree.SubElement(d, "timex2", a)
        for m in t.mentions:
            xm = etree.SubElement(x, "timex2_mention", ID=m.id)
            _locator(xm, "extent", m.extent)
        _links(x, t.links)

    for r in doc.relations:
        a = {"ID": r.id, "TYPE": r.type}
        if r.type != "METONYMY":
            a["SUBTYPE"] = r.subtype
        if r.modality != "Unspecified":
            a["MODALITY"] = r.modality
        x = etree.SubElement(d, "relation", a)
        sym = r.type in SYMMETRIC_RELATIONS
        for role, refid in _roles(r.arguments, sym):
            etree.SubElement(x, "relation_argument", REFID=refid, ROLE=role)
        for m in r.mentions:
            xm = etree.SubElement(x, "relation_mention", ID=m.id)
            _locator(xm, "extent", m.extent)
            for role, refid in _roles(m.arguments, sym):
                xa = etree.SubElement(xm, "relation_mention_argument", REFID=refid, ROLE=role)
                if refid in extents:
                    _locator(xa, "extent", extents[refid])
        _links(x, r.links)

    for ev in doc.events:
        x = etree.SubElement(
            d,
            "event",
            ID=ev.id,
            TYPE=ev.type,
            SUBTYPE=ev.subtype,
            MODALITY=ev.modality,
            POLARITY=ev.polarity,
            GENERICITY=ev.genericity,
            TENSE=ev.tense,
        )
        for arg in ev.arguments:
            etree.SubElement(x, "event_argument", REFID=arg.refid, ROLE=arg.role)
        for m in ev.mentions:
            xm = etree.SubElement(x, "event_mention", ID=m.id)
            _locator(xm, "extent", m.extent)
            _locator(xm, "ldc_scope", m.extent)
            _locator(xm, "anchor", m.anchor)
            for arg in m.arguments:
                xa = etree.SubElement(xm, "event_mention_argument", REFID=arg.refid, ROLE=arg.role)
                if arg.refid in extents:
                    _locator(xa, "extent", extents[arg.refid])
        _links(x, ev.links)


def apf_bytes(apffile: ApfFile, doctype: str | None = None) -> bytes:
    """The APF text (UTF-8) of ``apffile``.  ``doctype`` is the DOCTYPE system identifier
    (e.g. :data:`DEFAULT_DOCTYPE`); default: the one the file was read with, and no DOCTYPE
    when it had none (a file without DOCTYPE is validated against APF 5.1.1)."""
    docs = apffile.documents
    heads = {(d.uri, d.source, d.data_type) for d in docs}
    if len(heads) > 1:
        raise ValueError("the documents of one APF file must share URI, SOURCE and TYPE")
    if docs:
        uri, source, data_type = docs[0].uri, docs[0].source, docs[0].data_type
    else:
        uri, source, data_type = "", (apffile.sources[0] if apffile.sources else ""), "text"
    sf = etree.Element("source_file", URI=uri, SOURCE=source, TYPE=data_type)
    for d in docs:
        _document(sf, d)
    etree.indent(sf, space="  ")
    sysid = doctype or apffile.doctype
    if sysid:
        return (
            written_back(
                etree.tostring(
                    sf,
                    xml_declaration=True,
                    encoding="UTF-8",
                    doctype=f'<!DOCTYPE source_file SYSTEM "{sysid}">',
                )
            )
            + b"\n"
        )
    return written_back(etree.tostring(sf, xml_declaration=True, encoding="UTF-8")) + b"\n"


def write_apf(apffile: ApfFile, path: str, doctype: str | None = None) -> None:
    """Write ``apffile`` to ``path`` as APF (see the module documentation)."""
    data = apf_bytes(apffile, doctype)
    d = os.path.dirname(path)
    if d:
        os.makedirs(d, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
