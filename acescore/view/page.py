"""The document pages of the HTML view (``doc/<DOCID>.html``): the source text with REF and
SYS mentions marked, and tables of the document's elements with their mapping, value and
costs (see :mod:`acescore.view.site`).  The marks of the mentions are collected by
:mod:`acescore.view.marks`, the text written by :mod:`acescore.view.text`, the
tables by :mod:`acescore.view.tables`."""

from __future__ import annotations

from json.encoder import encode_basestring_ascii as _enc

from acescore.view.common import ENTITY_LIKE, RELEVE, esc, page_parts, script_json
from acescore.view.marks import attr_diffs, attr_text, collect
from acescore.view.tables import element_table
from acescore.view.text import text_html


class DocPage:
    """Builds one document page."""

    def __init__(
        self,
        docid: str,
        params,
        tasks: dict,
        source,
        source_note: str,
        nav: tuple,
        printed: tuple = (),
    ):
        self.docid = docid
        self.params = params
        self.tasks = tasks  # task name -> DocNumbers (element passes)
        self.printed = printed  # DocNumbers of the report's sections
        self.source = source  # SourceText or None
        self.source_note = source_note
        self.nav = nav
        self.data: list = []  # the marks of the mentions: page data (JSON)
        self.edata: list = []  # (key, entry) of every element: page data
        self.by_mid: dict = {}  # (side, mention id) -> key (entity-like)
        self.elements: dict = {}  # "R:kind:id" -> {"row":..., "m": [keys]}
        self.first_marks: dict = {}  # (side, id) -> the key of its first mark
        self.links: dict = {}  # "R:kind:id" -> [links to its mentions]
        self.colour: dict = {}  # (kind, ref id) -> colour index
        self.mapped: dict = {}  # (kind, ref id) -> its SYS id in the document
        self.spans: list = []  # the text spans of the marks (view_marks.collect)
        self.points: set = set()  # the boundaries of the text (and its region)
        self.offset_mismatch = 0
        self.bad_offsets = 0  # marks with offsets outside the source text
        self._diffs: dict = {}  # (kind, REF id, SYS id) -> attr_diffs
        self._attr_texts: dict = {}  # (side, kind, id) -> attr_text

    def element_key(self, side: str, kind: str, eid: str) -> str:
        return f"{side[0]}:{kind}:{eid}"

    def collect(self) -> None:
        collect(self)

    def diffs(self, kind: str, rid: str, sid: str, rd, sd) -> list[str]:
        """attr_diffs of a mapped pair in this document (once per pair)."""
        key = (kind, rid, sid)
        out = self._diffs.get(key)
        if out is None:
            out = self._diffs[key] = attr_diffs(kind, rd, sd)
        return out

    def attr_text(self, side: str, kind: str, eid: str, g) -> str:
        """attr_text of an element (once per element)."""
        key = (side, kind, eid)
        out = self._attr_texts.get(key)
        if out is None:
            out = self._attr_texts[key] = attr_text(kind, g.attrs)
        return out

    def text_html(self) -> str:
        return text_html(self)

    def table(self, kind: str) -> str:
        return element_table(self, kind)

    # ---- the page data (JSON)
    def data_json(self) -> str:
        """The page's data (JSON): ``{"e": [every element], "m": [every mark]}``, the marks in
        the order of their elements (an element's marks consecutive), the key of a mark
        (``R<i>``, ``S<i>``) its side and its index.  An element is ``{"sd": side, "kd": kind,
        "el": ID, "c": the number of its marks, "o": the ID of its partner (mapped element in
        this document) or null, "a": its attributes (as its table row shows them), "n":
        notes, "e": errors}`` and ``"r"``, the ID of its table row, where that is not
        ``row-<side>:<kind>:<ID>``; a mark ``[mention ID, extent, head, anchor (each a range
        of text segments or null), status, the index of its partner or null, mention type or
        null, the note of its text or null]`` and, if it has some, ``{"n": its own notes,
        "e": its own errors, "a": the keys of its arguments' marks}``.  view.js
        (``pageMarks``) makes every mark's title, notes and errors from them."""
        elements = self.elements
        out = []
        for ekey, entry in self.edata:
            row = elements[ekey]["row"]
            out.append(entry + (f',"r":{_enc(row)}}}' if row != "row-" + ekey else "}"))
        return f'{{"e":[{"".join(out)}],"m":[{"".join(self.data)}]}}'

    # ---- the page
    def render(self, sources: dict) -> bytes:
        self.collect()
        d = self.docid
        prev_f, next_f = self.nav
        vals = []
        for t in self.printed:
            v = t.doc_values.get(d)
            if v is None:
                continue
            pct, sysv, refv = v
            vals.append(
                f'<span class="dv" data-task="{esc(t.task)}" '
                f'title="{sysv:.5f} out of {refv:.5f}">{esc(t.code)} <b>{pct}</b> %'
                f"</span>"
            )
        nav = ['<a href="../index.html">index</a>']
        if prev_f:
            nav.append(f'<a href="{esc(prev_f)}" rel="prev">← previous</a>')
        if next_f:
            nav.append(f'<a href="{esc(next_f)}" rel="next">next →</a>')
        tables = "".join(self.table(k) for k in ENTITY_LIKE + RELEVE)
        if self.source is not None:
            text = self.text_html()
            text_block = f'<div id="text" class="text">{text}</div>'
        else:
            text_block = f'<p class="warn">{esc(self.source_note)}</p>'
        notes = []
        if self.source is not None and self.source_note:
            notes.append(self.source_note)
        if self.offset_mismatch:
            notes.append(
                f"{self.offset_mismatch} mention extent(s) whose charseq text differs"
                " from the source text at their offsets"
            )
        bad = self.bad_offsets
        if bad and self.source is not None:
            notes.append(f"{bad} mention(s) with offsets outside the source text")
        data = self.data_json()
        legend = (
            '<div class="legend doc-legend">'
            '<span><span class="smp r k0">REF</span> underlined: reference mention'
            " (thick + tint: head)</span>"
            '<span><span class="smp s q0">SYS</span> overlined: system mention</span>'
            "<span>same colour: mapped pair</span>"
            '<span><span class="smp r rx">miss</span> / '
            '<span class="smp s sx">false alarm</span>: element not mapped</span>'
            '<span><span class="smp r rd k1">dashed</span>: mention not mapped within'
            " a mapped pair</span>"
            '<span><span class="smp e">wavy red</span>: attribute error</span>'
            '<span><span class="smp ra">bold</span> / <span class="smp sa">italic'
            "</span>: REF / SYS event anchor</span>"
            "<span>click a mention to see its partner; click again to cycle through"
            " overlapping mentions</span></div>"
        )
        warn = "".join(f'<p class="warn">{esc(n)}</p>' for n in notes)
        before, after = page_parts(f"{d} — acescore view", "../", "doc")
        # (encoded part by part: a part in ASCII, as the text and the data mostly are, is
        # not widened to the characters of another, it is copied once)
        return b"".join(
            [
                s.encode("utf-8", "surrogateescape")  # (a path as given)
                for s in (
                    f"{before}<header><nav>{' · '.join(nav)}</nav><h1>{esc(d)}</h1>"
                    f'<p class="muted">source: {esc(sources.get(d, ""))}</p>'
                    f'<p class="values">{" ".join(vals)}</p>{warn}'
                    f'</header>{legend}<main class="docmain"><div class="textcol">',
                    text_block,
                    '</div><aside id="info"><p class="muted">Click a mention in the text or in a'
                    " table.</p></aside></main>",
                    tables,
                    '<div id="tip" hidden></div><div id="selftest" hidden></div>',
                    script_json(data, "doc-data"),
                    after,
                )
            ]
        )
