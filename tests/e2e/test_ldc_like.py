"""The corpus laid out like the LDC release (tests/ldc_like.py), first try, every command:
official sources read as they are (docs/rules/ldc-sources.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from ldc_like import AMP_NAMES, DEFECTIVE, make_ldc_like

from acescore.cli import main
from acescore.reading.sgml import read_source
from acescore.reading.sgml_check import check_markup

CLEAN = ("bc", "cts", "wl")


@pytest.fixture(scope="module")
def ldc(tmp_path_factory):
    return make_ldc_like(str(tmp_path_factory.mktemp("ldc")))


def cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert "Traceback" not in r.output
    return r


def sources(ldc):
    for d in ldc.docs:
        yield d, os.path.join(ldc.folder(d.genre), d.docid + ".sgm")


@pytest.mark.slow
def test_layout(ldc):
    assert sorted({d.genre for d in ldc.docs}) == ["bc", "bn", "cts", "nw", "un", "wl"]
    for d in ldc.docs:
        for folder in ("adj", "fp1"):
            names = sorted(os.listdir(ldc.folder(d.genre, folder)))
            assert names == [d.docid + x for x in (".ag.xml", ".apf.xml", ".sgm")]


@pytest.mark.slow
def test_sources_have_the_ldc_quirks(ldc):
    raw = {d.genre: Path(p).read_text(encoding="utf-8") for d, p in sources(ldc)}
    for text in raw.values():
        assert "Smith & Wesson" in text and "AT&amp;T" in text
    bn = raw["bn"]
    assert bn.index("<ENDTIME>") > bn.index("</BODY>")
    un = raw["un"]
    assert '<QUOTE PREVIOUSPOST="\n' in un and "</QUOTE>" not in un
    assert un.count("<POST>") == un.count("</POST>") + 1


def test_sources_are_valid_sgml(ldc):
    for d, path in sources(ldc):
        src = read_source(path)
        assert check_markup(src.raw, path) == [], d.genre


def test_offsets_by_the_ace_rule(ldc):
    """Tags removed, entity references counted as written: `&amp;` is five characters."""
    for d, path in sources(ldc):
        src = read_source(path)
        assert [src.span(s, e) for s, e in d.amp_offsets] == list(AMP_NAMES)
        (s1, e1), (s2, e2) = d.amp_offsets
        assert (e1 - s1 + 1, e2 - s2 + 1) == (14, 8)
        assert s2 - s1 == len("Smith & Wesson and ")


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            "<DOC>\n<DOCID> X </DOCID>\n<BODY>\n<TEXT>\na & b\n</BODY>\n</DOC>\n",
            ["F.sgm:6: TEXT: <TEXT> (line 4) is not closed before </BODY>"],
        ),
        (
            "<DOC>\n<DOCID> X </DOCID>\n<BODY>\n<TEXT>\n<ENDTIME> 1 </ENDTIME>\n</TEXT>\n</BODY>\n"
            "</DOC>\n",
            ["F.sgm:5: ENDTIME: <ENDTIME> is not allowed inside <TEXT>"],
        ),
        (
            "<DOC>\n<BODY>\n<TEXT>\n<TABLE>\n</TEXT>\n</BODY>\n</DOC>\n",
            ["F.sgm:4: TABLE: unknown element <TABLE>", "F.sgm:7: DOC: missing <DOCID>"],
        ),
        (
            "<DOC>\n<DOCID> X </DOCID>\n<BODY>\n<TEXT>\nx\n</TEXT>\n</BODY>\n",
            ["F.sgm:1: DOC: <DOC> is never closed"],
        ),
        (
            "<html><body>x</body></html>",
            ["F.sgm:1: HTML: not an ACE source document: it starts with <HTML>, not <DOC>"],
        ),
        (
            "<DOC>\n<DOCID> X </DOCID>\n<BODY>\n<TEXT>\nx\n</TEXT>\n</BODY>\n</DOC>\n<DOC>\n",
            [
                "F.sgm:9: DOC: <DOC> outside <DOC>",
                "F.sgm:9: DOC: <DOC> is never closed",
                "F.sgm:10: DOC: missing <BODY>, <DOCID>",
            ],
        ),
        (
            '<DOC>\n<DOCID> X </DOCID>\n<BODY>\n<TEXT>\n<POST>\n<QUOTE PREVIOUSPOST="a\nb">\nx\n'
            "<POST>\ny\n</TEXT>\n</BODY>\n<ENDTIME> 2 </ENDTIME>\n</DOC>\n",
            [],
        ),
    ],
)
def test_markup_problems(text, expected):
    assert [str(e) for e in check_markup(text, "F.sgm")] == expected


def test_validate_reference_folders(ldc):
    """A consistent reference folder with its sources: 0 problems; the defective ones: only
    their annotation defects, never the sources."""
    for genre in sorted({d.genre for d in ldc.docs}):
        adj = ldc.folder(genre)
        r = cli("validate", adj, "--source-dir", adj)
        lines = r.output.splitlines()
        assert lines[-1].endswith(
            "checked against 1 source document: "
            + ("0 problems" if genre in CLEAN else "1 problem in 1 file")
        )
        if genre in DEFECTIVE:
            assert r.exit_code == 1
            assert "symmetric relation" in lines[0] and "R-SAME" in lines[0]
        else:
            assert r.exit_code == 0 and len(lines) == 1
    # the whole release at once, sources found below the top folder
    top = os.path.join(ldc.root, "data", "English")
    r = cli("validate", *[ldc.folder(g) for g in CLEAN], "--source-dir", top)
    assert r.exit_code == 0
    assert r.output.splitlines()[-1] == (
        "validate: 3 files, 3 documents, "
        + r.output.split(" documents, ")[1].split(" charseqs")[0]
        + " charseqs checked against 3 source documents:"
        " 0 problems"
    )


@pytest.mark.slow
def test_source_dir_usage_errors(ldc, tmp_path):
    adj = ldc.folder("bc")
    (tmp_path / "empty").mkdir()
    docid = ldc.docids("bc")[0]
    wrong = ldc.folder("nw")
    for cmd in (
        ["validate", adj],
        ["view", adj, ldc.folder("bc", "fp1"), "-q", "-O", tmp_path / "site"],
    ):
        for sd, msg in (
            (
                tmp_path / "empty",
                f"--source-dir {tmp_path / 'empty'}: no source"
                " document (*.sgm) in this folder or below it",
            ),
            (tmp_path / "nosuch", f"--source-dir {tmp_path / 'nosuch'}: no such folder"),
            (
                wrong,
                f"--source-dir {wrong}: no source document for the APF"
                f" document (looked for {docid}.sgm): is it the wrong folder?",
            ),
        ):
            r = cli(*cmd, "--source-dir", sd)
            assert r.exit_code == 2, r.output
            assert r.output.splitlines() in ([msg], [f"acescore: {msg}"])
        assert not (tmp_path / "site").exists()


@pytest.mark.slow
def test_view_shows_the_official_sources(ldc, tmp_path):
    for genre in CLEAN:
        adj = ldc.folder(genre)
        site = tmp_path / genre
        r = cli("view", adj, ldc.folder(genre, "fp1"), "--source-dir", adj, "-m", "-q", "-O", site)
        assert r.exit_code == 0, r.output
        page = (site / "doc" / (ldc.docids(genre)[0] + ".html")).read_text(encoding="utf-8")
        assert "source document" not in page  # found and read: no note
        assert "Smith &amp; Wesson" in page and "AT&amp;amp;T" in page
