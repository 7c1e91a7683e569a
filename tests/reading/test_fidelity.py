"""Fidelity to the NIST tool where an XML parser or a newer Unicode would read differently
(issue #19): language classes of Perl 5.36 (Unicode 14.0), APF text as written (entity
references kept, line breaks in attribute values kept), and the tool's warnings about
repeated argument IDs and redundant relation/event mentions.

tests/data/fidelity/ is a small synthetic corpus made by its make_corpus.py; its expected/
files are the reports and warnings of the NIST tool in canonical order (docs/rules/determinism.md),
see tests/data/fidelity/README.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from test_golden import assert_same_report, cli_args, flags_of, with_jobs
from test_roundtrip import without_positions

from acescore import api
from acescore.cli import main
from acescore.model import _scripts
from acescore.model.text import classify_language, normalize_name
from acescore.reading.apf import read_apf
from acescore.reading.as_written import as_written, written, written_back
from acescore.reading.writer import apf_bytes
from acescore.scoring.names import name_similarity

FIDELITY = Path(__file__).parent.parent / "data" / "fidelity"
CASES = sorted(
    p for p in (FIDELITY / "expected").glob("sys__*.txt") if not p.name.endswith(".stderr.txt")
)


def test_the_four_cases_are_there():
    assert [p.stem for p in CASES] == ["sys__P_global_2008", "sys__m", "sys__m_a_s", "sys__m_d_e"]


@pytest.mark.parametrize("exp", CASES, ids=[p.stem for p in CASES])
def test_report_and_warnings_identical(exp, monkeypatch):
    monkeypatch.chdir(FIDELITY)  # the tool was run here, with these lists
    _, opts = flags_of(exp)
    params, mentions = opts.pop("params"), opts.pop("mentions")
    res = api.score("ref.list", "sys.list", params, mentions, **opts)
    expected = exp.read_text(encoding="utf-8").split("\n", 1)[1]
    actual = res.to_text()
    assert_same_report(expected, actual)
    warnings = Path(str(exp).replace(".txt", ".stderr.txt")).read_text(encoding="utf-8")
    assert "".join(res.warnings) == warnings
    assert warnings.count("WARNING") == 11


@pytest.mark.parametrize(
    "text,language",
    [
        ("乔治·布什", "Chinese"),  # U+00B7 is neither Han nor Latin in Unicode 14
        ("John·Smith", "English"),
        ("约翰·Smith", "MIXED"),
        ("中\u0301国", "Chinese"),  # combining acute: Inherited, not Latin
        ("عبد\u02bcالله", "Arabic"),  # modifier apostrophe: not Latin
        ("北京\u2e41上海", "Chinese"),  # reversed comma: not Arabic
        ("Foo\u204fBar", "English"),  # reversed semicolon: not Arabic
        ("Acme\u2ff0Corp", "English"),  # ideographic description character: not Han
        ("中国&amp;美国公司", "MIXED"),  # the reference as written has Latin letters
        ("\u3001", "Chinese"),
        ("\u0640", "Arabic"),  # Script_Extensions, as in Perl
    ],
)
def test_language_classes_of_perl_5_36(text, language):
    assert classify_language(text) == language


def test_tables_record_their_perl():
    assert (_scripts.PERL_VERSION, _scripts.UNICODE_VERSION) == ("5.36.0", "14.0.0")
    assert "tools/dump_perl_scripts.pl" in _scripts.__doc__


def test_names_as_written(tmp_path):
    src = (FIDELITY / "ref" / "FID-EN-1.apf.xml").read_bytes()
    assert b'NAME="Abu-\nDhabi"' in src and b'NAME="AT&amp;T"' in src
    doc = read_apf(str(FIDELITY / "ref" / "FID-EN-1.apf.xml")).documents[0]
    names = {e.id: e.names for e in doc.entities}
    assert names["FID-EN-1-E1"] == ("at&amp;t",)
    assert names["FID-EN-1-E2"] == ("abudhabi",)  # the line break joins the parts
    assert names["FID-EN-1-E5"] == ("x&lt;y corp",)
    head = doc.entities[0].mentions[0].head
    assert (head.text, head.display) == ("AT&amp;T", "AT&amp;T")
    zh = read_apf(str(FIDELITY / "ref" / "FID-ZH-1.apf.xml")).documents[0]
    assert zh.entities[0].names == ("乔治·布什", "布什")  # 布<newline>什: Han on both sides
    assert normalize_name("乔治·\n布什") == "乔治· 布什"  # U+00B7 is not Han: no join


def test_global_name_similarity_counts_the_reference_as_written():
    # issue #19: NAME="A&amp;B" against "A&amp;C": 1 - 1/7, not 1 - 1/3
    assert name_similarity("a&amp;b", "a&amp;c") == pytest.approx(1 - 1 / 7)


def test_as_written_and_back():
    data = b'<a X="1"\n Y="a\r\nb\tc" Z="&#10;">AT&amp;T &lt; 5 &#x4e2d; > 2\n</a>'
    once = as_written(data)
    assert once == (
        b'<a X="1"\n Y="a&#13;&#10;b&#9;c" Z="&amp;#10;">AT&amp;amp;T &amp;lt; 5'
        b" &amp;#x4e2d; > 2\n</a>"
    )
    assert (
        written_back(b'<a Y="a&#13;&#10;b&#9;c" Z="&amp;#10;">AT&amp;amp;T &gt; 2</a>')
        == b'<a Y="a\r\nb\tc" Z="&#10;">AT&amp;T > 2</a>'
    )


def test_plain_text_is_written_escaped():
    assert written("AT&T <b> c") == "AT&amp;T &lt;b> c"
    assert written("plain") == "plain"


@pytest.mark.parametrize("name", ["FID-EN-1", "FID-ZH-1", "FID-AR-1"])
def test_written_files_read_back_as_written(name, tmp_path):
    path = str(FIDELITY / "ref" / f"{name}.apf.xml")
    original = read_apf(path)
    data = apf_bytes(original)
    out = tmp_path / "out.apf.xml"
    out.write_bytes(data)
    again = read_apf(str(out))
    assert without_positions(again) == without_positions(original)

    # the warnings are read again too (they name the file read)
    def warnings(f, p):
        d = f.documents[0]
        return [w.replace(p, "FILE") for el in d.relations + d.events for w in el.warnings]

    assert warnings(again, str(out)) == warnings(original, path)
    assert len(warnings(original, path)) == {"FID-EN-1": 2, "FID-ZH-1": 4, "FID-AR-1": 0}[name]
    if name == "FID-EN-1":
        # names are written normalised (writer.py), texts as they were written
        assert b'NAME="at&amp;t"' in data and b">AT&amp;T</charseq>" in data
        assert b"&amp;amp;" not in data


def test_locator_language_is_that_of_the_display_text():
    """The shortcut (an ASCII text starting with a letter is English) gives the language
    of the display text (collapsed, de-hyphenated, cut to 40 characters) on texts of
    letters, digits, white space, hyphens, line breaks and other scripts."""
    import random

    from acescore.model.text import display_text, locator_language

    rng = random.Random(17)
    alphabet = [
        "a",
        "Z",
        "7",
        " ",
        "  ",
        "\n",
        "\r\n",
        "-",
        "-\n",
        ".",
        "\u00e9",
        "\u4e2d",
        "\u0627",
        "\u00a0",
        "\t",
        "0",
    ]
    ascii_only = ["7", "7", "7", " ", "  ", "\n", "\r\n", "-", "-\n", ".", "\t", "0", "a"]
    cases = [
        "",
        "0",
        "a",
        " a",
        "-\nab",
        "7 \u4e2d",
        "x" * 39 + "\u4e2d",
        "x" * 60 + "\u4e2d",
        "1" * 38 + "a",
        "1" * 37 + "a",
        "1" * 36 + "a" + "1" * 9,
        "1" * 37 + "a" + "1" * 9,
        "  -\n" * 12 + "a",
        "1-\n" * 20 + "b",
        '" \t' * 30 + "c",
        "42",
        "$5 million",
    ]
    cases += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))) for _ in range(3000)]
    # ASCII texts whose first letter comes late, or that have none
    cases += [
        "".join(rng.choice(ascii_only) for _ in range(rng.randint(1, 80))) for _ in range(3000)
    ]
    for raw in cases:
        assert locator_language(raw) == classify_language(display_text(raw)), repr(raw)
    assert locator_language("x" * 60 + "\u4e2d") == "English"  # cut before the Han
    assert locator_language("1" * 40 + "\u4e2d") == "UNKNOWN"  # cut to 37 + "..."
    assert locator_language("1" * 37 + "\u4e2d") == "Chinese"  # 38: kept whole


@pytest.mark.parametrize("exp,jobs", with_jobs(CASES, ids=[p.stem for p in CASES]))
def test_cli_report_and_warnings_identical(exp, jobs, monkeypatch):
    """The command line, for --jobs 1, and 2 or 4: the NIST tool's report and warnings."""
    monkeypatch.chdir(FIDELITY)
    args = cli_args(exp, jobs)
    args[args.index("-t") + 1] = "sys.list"
    r = CliRunner().invoke(main, args, catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    assert r.stdout.split("\n", 1)[1] == exp.read_text(encoding="utf-8").split("\n", 1)[1]
    warnings = Path(str(exp).replace(".txt", ".stderr.txt")).read_text(encoding="utf-8")
    assert "".join(r.stderr.splitlines(keepends=True)[:-2]).strip() == warnings.strip()
