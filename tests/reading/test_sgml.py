"""Source documents: offsets by the ACE rule (tags do not count, a newline counts one)."""

from __future__ import annotations

import glob
import os

import pytest
from lxml import etree

from acescore.model.errors import AceInputError
from acescore.reading.sgml import decode_references, read_source, span_matches

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TINY = os.path.join(HERE, "data", "validate", "tiny")


def write(tmp_path, name, data: bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def test_golden_charseqs_match_source():
    """Every charseq of the tiny corpus equals source.text[START:END+1]."""
    n = 0
    for f in sorted(glob.glob(os.path.join(TINY, "*", "*.apf.xml"))):
        tree = etree.parse(f)
        docid = tree.find("document").get("DOCID")
        src = read_source(os.path.join(TINY, "src", docid + ".sgm"))
        assert src.docid == docid
        for c in tree.iter("charseq"):
            s, e = int(c.get("START")), int(c.get("END"))
            assert src.text[s : e + 1] == c.text
            assert src.span(s, e) == c.text
            n += 1
    assert n > 600


def test_offsets_ace_rule(tmp_path):
    p = write(
        tmp_path,
        "D.sgm",
        b'<DOC>\n<DOCID> D1 </DOCID>\n<TEXT>\nAb <b x="1">cd</b>\nef\n</TEXT>\n</DOC>\n',
    )
    s = read_source(p)
    assert s.text == "\n D1 \n\nAb cd\nef\n\n\n"
    assert s.docid == "D1"
    start, end = s.text_region
    assert s.text[start:end] == "\nAb cd\nef\n"
    assert s.text.index("cd") == 10 and s.span(10, 11) == "cd"
    assert s.in_text_region(10, 11) and not s.in_text_region(1, 2)


def test_crlf_counts_one_and_bom_is_not_a_character(tmp_path):
    lf = read_source(write(tmp_path, "a.sgm", b"<DOC><TEXT>\nx\ny\n</TEXT></DOC>"))
    crlf = read_source(
        write(tmp_path, "b.sgm", b"\xef\xbb\xbf<DOC><TEXT>\r\nx\r\ny\r\n</TEXT></DOC>")
    )
    assert crlf.text == lf.text == "\nx\ny\n"
    assert crlf.text_region == lf.text_region == (0, 5)


def test_unicode_counts_characters_not_bytes(tmp_path):
    s = read_source(write(tmp_path, "u.sgm", "<DOC><TEXT>刘晓东 met كريم</TEXT></DOC>".encode()))
    assert s.span(0, 2) == "刘晓东" and s.span(8, 11) == "كريم"


def test_entities_raw_and_decoded(tmp_path):
    p = write(tmp_path, "e.sgm", b"<DOC><TEXT>AT&amp;T &#233;t&lt;</TEXT></DOC>")
    raw = read_source(p)
    assert raw.text == "AT&amp;T &#233;t&lt;"  # the ACE rule: &amp; is five characters
    dec = read_source(p, entities="decode")
    assert dec.text == "AT&T \u00e9t<"
    # an APF charseq may hold either form of the raw span
    assert span_matches("AT&amp;T", raw.span(0, 7))
    assert span_matches("AT&T", raw.span(0, 7))
    assert not span_matches("AT+T", raw.span(0, 7))
    assert decode_references("&bogus; &#x41;") == "&bogus; A"
    with pytest.raises(ValueError):
        read_source(p, entities="html")


def test_errors(tmp_path):
    with pytest.raises(AceInputError) as e:
        read_source(str(tmp_path / "missing.sgm"))
    assert "cannot open source document" in str(e.value)
    p = write(tmp_path, "l1.sgm", b"<DOC>\n<TEXT>caf\xe9</TEXT></DOC>")
    with pytest.raises(AceInputError) as e:
        read_source(p)
    assert str(e.value) == (
        f"{p}:2: not valid UTF-8 (byte 0xe9 at offset 15); source documents must be UTF-8"
    )
    with pytest.raises(AceInputError):
        read_source(str(tmp_path))


def test_no_text_element(tmp_path):
    s = read_source(write(tmp_path, "n.sgm", b"<DOC>plain</DOC>"))
    assert s.text == "plain" and s.docid is None and s.text_region is None
    assert s.span(3, 1) == "" and s.span(-1, 2) == ""
