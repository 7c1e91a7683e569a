"""``acescore view``: the HTML error-analysis site.

1. The numbers on the index page are those of the text report (golden ``small`` with
   ``sys-heavy``): each task's total Value, every document's Value (the ``-d`` lines) and
   the rows of the charted detection tables.
2. In headless Chromium (Debian's ``chromium``; .ci/install-chromium.sh installs it) the index
   and a document page load without JavaScript errors, clicking a mention highlights its
   partner, and a screenshot is saved to docs/view-screenshot.png.  Without Chromium this
   test fails: CI installs it.
3. The time to score and write the 150-document ``medium`` view is printed (not asserted).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import html as lhtml

from acescore import api
from acescore.model.errors import AceUsageError
from acescore.view.site import write_view

HERE = Path(__file__).parent.resolve().parent
ROOT = HERE.parent
SMALL = HERE / "data" / "golden" / "small"
EXPECTED = SMALL / "expected" / "heavy__m_d.txt"
MEDIUM = ROOT.parent / "shared" / "golden" / "medium"
SCREENSHOT = ROOT / "docs" / "view-screenshot.png"

BANNER = re.compile(r"^======== (\S+) scoring ========$")
DOC_LINE = re.compile(
    r"^\s*(-?\d+\.\d\d) % \((-?\d+\.\d{5}) out of (-?\d+\.\d{5})\) (\S+) score "
    r"for (\S+)$"
)
#: column widths of a detection-table row of the NIST report: the label, then 30 numbers
WIDTHS = (
    7,
    6,
    6,
    6,
    8,
    6,
    6,
    6,
    8,
    6,
    6,
    7,
    5,
    5,
    8,
    6,
    6,
    6,
    6,
    6,
    8,
    7,
    5,
    5,
    9,
    7,
    7,
    7,
    7,
    7,
    7,
)
VALUE_COL = 20  # "Value (%)"
UNCONDITIONED = range(25, 31)  # FA Miss Err, mention FA Miss Err
MAX_VALUE_COL = 24


def split_row(line: str) -> list[str]:
    out, pos = [], 0
    for w in WIDTHS:
        out.append(line[pos : pos + w].strip())
        pos += w
    return out


def report_sections(text: str) -> dict:
    out: dict = {}
    name = None
    for line in text.splitlines():
        m = BANNER.match(line.strip())
        if m:
            name = m.group(1)
            out[name] = []
        elif name:
            out[name].append(line)
    return out


def single_tables(lines: list[str]) -> dict:
    """(label1, LABEL2) -> rows (fields, the label first) of the single-condition detection
    tables (row labels are cut to 7 characters and need not be unique)."""
    tables: dict = {}
    i = 0
    while i < len(lines) - 3:
        m1 = re.match(r"^ (\S+)\s+\S*_Count", lines[i])
        m2 = re.match(r"^ (\S[^ ]*(?: [^ ]+)*?)\s+Ref ", lines[i + 1]) if m1 else None
        if m1 and m2:
            prev = next((ln for ln in reversed(lines[:i]) if ln.strip()), "")
            rows = []
            j = i + 3
            while j < len(lines) and lines[j].strip():
                rows.append(split_row(lines[j]))
                j += 1
            if not prev.startswith("Performance statistics for"):
                tables.setdefault((m1.group(1), m2.group(1)), rows)
            i = j
        else:
            i += 1
    return tables


def doc_lines(lines: list[str]) -> dict:
    out = {}
    for ln in lines:
        m = DOC_LINE.match(ln)
        if m:
            out[m.group(5)] = (m.group(1), m.group(2), m.group(3))
    return out


def page_marks(data: dict) -> list[dict]:
    """The marks of a page's data (DocPage.data_json): key, side, kind, element, mention ID,
    text ranges, partner key and whether it has errors (view.js's ``pageMarks`` makes the
    rest: its notes are checked in headless Chromium, test_notes_as_shown)."""
    out = []
    owners = [e for e in data["e"] for _ in range(e["c"])]
    assert len(owners) == len(data["m"])
    for i, (a, e) in enumerate(zip(data["m"], owners)):
        s, o = e["sd"][0], "S" if e["sd"] == "REF" else "R"
        more = a[8] if len(a) > 8 else {}
        out.append(
            {
                "k": f"{s}{i}",
                "sd": e["sd"],
                "kd": e["kd"],
                "el": e["el"],
                "id": a[0],
                "x": a[1],
                "h": a[2],
                "an": a[3],
                "st": a[4],
                "p": None if a[5] is None else f"{o}{a[5]}",
                "e": e["e"] + more.get("e", []),
            }
        )
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    res = api.score(
        str(SMALL / "ref"),
        str(SMALL / "sys-heavy"),
        "local_2008",
        True,
        doc_scores=True,
        keep_passes=True,
    )
    out = tmp_path_factory.mktemp("view")
    warnings: list = []
    files = write_view(res, str(SMALL / "src"), str(out), warnings=warnings)
    assert warnings == []
    return res, out, files


@pytest.mark.slow
def test_files(site):
    res, out, files = site
    assert str(out / "index.html") in files
    docs = sorted(p.name for p in (out / "doc").iterdir())
    assert len(docs) == len(res.run.ref.documents) == 20
    for p in files:
        assert os.path.getsize(p) > 0
    # no network: every src/href is relative, no CSS url()/@import
    for p in files:
        text = Path(p).read_text(encoding="utf-8")
        for ref in re.findall(r'\b(?:src|href)\s*=\s*"([^"]*)"', text):
            assert not re.match(r"^(?:[a-z]+:|//)", ref), (p, ref)
        assert "url(" not in text and "@import" not in text, p


@pytest.mark.parametrize("source", ["acescore", "golden"])
@pytest.mark.slow
def test_index_numbers_equal_report(site, source):
    res, out, _ = site
    report = (
        res.to_text()
        if source == "acescore"
        else EXPECTED.read_text(encoding="utf-8").split("\n", 1)[1]
    )
    sections = report_sections(report)
    page = lhtml.parse(str(out / "index.html")).getroot()

    # per-task total Value: the `total` rows of the report
    tasks = page.xpath('//table[@id="tasks"]/tbody/tr')
    assert [tr.get("data-task") for tr in tasks] == list(sections)
    for tr in tasks:
        task = tr.get("data-task")
        tables = single_tables(sections[task])
        totals = {r[VALUE_COL] for rows in tables.values() for r in rows if r[0] == "total"}
        assert len(totals) == 1, (task, totals)
        shown = tr.xpath('td[@data-f="value"]')[0].text_content().strip()
        assert shown == totals.pop(), task

    # per-document Value: the -d lines
    heads = page.xpath('//table[@id="docs"]/thead/tr/th[@data-task]')
    cols = [th.get("data-task") for th in heads]
    assert cols == list(sections)
    rows = page.xpath('//table[@id="docs"]/tbody/tr')
    assert len(rows) == 20
    checked = 0
    for task in cols:
        expected = doc_lines(sections[task])
        assert expected, task
        seen = {}
        for tr in rows:
            td = tr.xpath(f'td[@data-task="{task}"]')[0]
            if td.get("data-sysv") is not None:
                seen[tr.get("data-doc")] = (
                    td.text_content().strip(),
                    td.get("data-sysv"),
                    td.get("data-refv"),
                )
        assert seen == expected, task
        checked += len(seen)
    assert checked > 100

    # chart numbers: rows of the report's TYPE / LEVEL / SOURCE tables
    figures = page.xpath("//figure[@data-task]")
    assert {(f.get("data-task"), f.get("data-cond")) for f in figures} >= {
        ("entity", "TYPE"),
        ("entity", "LEVEL"),
        ("relation", "TYPE"),
        ("event", "TYPE"),
        ("mention_entity", "LEVEL"),
        ("value", "SOURCE"),
    }
    for fig in figures:
        task, cond = fig.get("data-task"), fig.get("data-cond")
        tables = single_tables(sections[task])
        label2 = {"TYPE": "TYPE", "LEVEL": "LEVEL", "SOURCE": "TYPE"}[cond]
        label1 = {
            "TYPE": "entity" if "entity" in task else task.replace("mention_", ""),
            "LEVEL": "entity",
            "SOURCE": "source",
        }[cond]
        table = tables[(label1, label2)]
        trs = fig.xpath('.//table[@class="chart-data"]/tbody/tr')
        assert [tr.get("data-row")[:7].strip() for tr in trs] == [r[0] for r in table], (task, cond)
        for tr, row in zip(trs, table):
            got = [td.text_content().strip() for td in tr.xpath("td")]
            want = [row[MAX_VALUE_COL]] + [row[c] for c in UNCONDITIONED] + [row[VALUE_COL]]
            assert got == want, (task, cond, tr.get("data-row"))


def test_doc_page_structure(site):
    res, out, _ = site
    d = "SYNBC_20030529.0019"
    page = lhtml.parse(str(out / "doc" / f"{d}.html")).getroot()
    data_text = page.xpath('//script[@id="doc-data"]')[0].text
    assert data_text.isascii() and "\\u201c" in data_text  # (“ as \u201c)
    data = json.loads(data_text)
    spans = page.xpath('//div[@id="text"]/span')
    from acescore.reading.sgml import read_source

    text = read_source(str(SMALL / "src" / f"{d}.sgm")).text
    # every mention of the document is listed, and its head range shows its head text
    ent = res.task("entity")
    n_ref = sum(len(g.docs[d].mentions) for g in ent.ref.values() if d in g.docs)
    marks = page_marks(data)
    ms = [m for m in marks if m["kd"] == "entity" and m["sd"] == "REF"]
    assert len(ms) == n_ref
    for m in ms:
        shown = "".join(s.text_content() for s in spans[m["h"][0] : m["h"][1]])
        assert shown == next(
            x.head.text
            for g in ent.ref.values()
            if d in g.docs
            for x in g.docs[d].mentions
            if x.id == m["id"]
        )
        assert shown in text
    # mapped mentions are partners of each other
    M = {m["k"]: m for m in marks}
    pairs = [m for m in marks if m["p"]]
    assert pairs
    for m in pairs:
        assert M[m["p"]]["p"] == m["k"]
    # the element tables have a row for every document-level record of the report
    for kind in ("entity", "value", "timex2", "relation", "event"):
        t = res.task(kind)
        n = sum(1 for g in t.ref.values() if d in g.docs) + sum(
            1 for sid, g in t.sys.items() if d in g.docs and t.sys_doc_mapped(sid, d) is None
        )
        assert len(page.xpath(f'//section[@id="tab-{kind}"]//tbody/tr')) == n, kind


@pytest.mark.slow
def test_missing_source_dir(tmp_path):
    """Sources of some documents missing: a note on their pages and a warning each; a folder
    with none of them is the wrong folder (a usage error, nothing written)."""
    res = api.score(
        str(SMALL / "ref"), str(SMALL / "sys-heavy"), "local_2008", False, keep_passes=True
    )
    src = tmp_path / "src"
    src.mkdir()
    keep = sorted(os.listdir(SMALL / "src"))[-2:]
    for name in keep:
        (src / name).write_bytes((SMALL / "src" / name).read_bytes())
    warnings: list = []
    files = write_view(res, str(src), str(tmp_path / "out"), warnings=warnings)
    assert len(warnings) == 18
    assert len(files) == 23
    page = (tmp_path / "out" / "doc" / "SYNBC_20030529.0019.html").read_text(encoding="utf-8")
    assert "source document not found" in page and 'id="text"' not in page
    (src / keep[0]).rename(src / "other.sgm")
    (src / keep[1]).unlink()
    with pytest.raises(AceUsageError, match="no source document for any of the 20 APF"):
        write_view(res, str(src), str(tmp_path / "out2"))
    assert not (tmp_path / "out2").exists()


@pytest.mark.slow
def test_cli(tmp_path):
    from click.testing import CliRunner

    from acescore.cli import main

    r = CliRunner().invoke(
        main,
        [
            "view",
            str(SMALL / "ref"),
            str(SMALL / "sys-heavy"),
            "--source-dir",
            str(SMALL / "src"),
            "-O",
            str(tmp_path / "site"),
            "-q",
        ],
    )
    assert r.exit_code == 0, r.output
    assert r.output.strip() == str(tmp_path / "site" / "index.html")
    assert (tmp_path / "site" / "doc" / "SYNWL_20050310.0015.html").exists()
    r = CliRunner().invoke(
        main, ["view", str(tmp_path / "none"), str(SMALL / "sys-heavy"), "-O", str(tmp_path / "x")]
    )
    assert r.exit_code == 2


def test_assets_are_package_data():
    """The CSS and JavaScript are package data: pyproject must ship view/static/*."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    m = re.search(r"^\[tool\.setuptools\.package-data\]\n(?:(?!\[).*\n?)*", text, re.M)
    assert m and "view/static/*" in m.group(0), "add view/static/* to the package data"


# ---- headless Chromium -----------------------------------------------------------------------

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    pytest.fail("Chromium is not installed (CI installs it with .ci/install-chromium.sh)")


def run_chromium(url: str, tmp_path: Path, *extra: str) -> tuple[str, str]:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    cmd = [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout, p.stderr


def console_messages(stderr: str) -> list[str]:
    """Messages the page wrote to the console (Chromium logs them as CONSOLE lines); the
    view writes none, so every one is a finding."""
    return [ln for ln in stderr.splitlines() if ":CONSOLE" in ln]


def selftest_result(dom: str) -> tuple[str, str, str]:
    page = lhtml.fromstring(dom)
    el = page.xpath('//*[@id="selftest"]')
    assert el, "no #selftest element"
    errs = page.xpath('//*[@id="js-errors"]')
    return (el[0].get("data-status"), el[0].text_content(), errs[0].text_content() if errs else "")


def pick_mention(doc_page: Path) -> str:
    """A REF entity mention in the document's TEXT with a mapped partner (preferably one
    without errors)."""
    page = lhtml.parse(str(doc_page)).getroot()
    data = json.loads(page.xpath('//script[@id="doc-data"]')[0].text)
    spans = page.xpath('//div[@id="text"]/span')
    cands = [
        m
        for m in page_marks(data)
        if m["sd"] == "REF"
        and m["kd"] == "entity"
        and m["p"]
        and m["x"]
        and "nt" not in (spans[m["x"][0]].get("class") or "").split()
    ]
    assert cands
    clean = [m for m in cands if not m["e"]]
    return (clean or cands)[0]["k"]


@pytest.mark.slow
def test_chromium(site, tmp_path):
    _, out, _ = site
    # the index: loads, sorts, no errors
    dom, err = run_chromium(
        (out / "index.html").as_uri() + "?selftest=sort", tmp_path, "--dump-dom"
    )
    status, detail, js_errors = selftest_result(dom)
    assert status == "pass", detail
    assert not js_errors.strip()
    assert console_messages(err) == []
    # a document page: click a mention, its partner is highlighted
    doc = out / "doc" / "SYNNW_20050917.0010.html"
    key = pick_mention(doc)
    url = doc.as_uri() + f"?selftest={key}"
    dom, err = run_chromium(url, tmp_path, "--dump-dom")
    status, detail, js_errors = selftest_result(dom)
    assert status == "pass", detail
    assert "spans highlighted" in detail
    assert not js_errors.strip()
    assert console_messages(err) == []
    # the screenshot (with the mention selected) for the README
    shot = tmp_path / "shot.png"
    run_chromium(url, tmp_path, "--window-size=1200,760", f"--screenshot={shot}")
    assert shot.exists() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---- a hand-made document: the notes of every mention as view.js shows them ----------------

HAND_SOURCE = (
    "<DOC>\n<DOCID> HAND-1 </DOCID>\n<BODY>\n<TEXT>\n"
    "Acme Corp said it hired Bo Lin in Paris.\n</TEXT>\n</BODY>\n</DOC>\n"
)
HAND_TEXT = re.sub(r"<[^>]*>", "", HAND_SOURCE)


def charseq(tag: str, s: str) -> str:
    """A locator of the first occurrence of ``s`` in the hand-made text."""
    i = HAND_TEXT.index(s)
    return f'<{tag}><charseq START="{i}" END="{i + len(s) - 1}">{s}</charseq></{tag}>'


def entity(eid: str, attrs: str, mentions: list) -> str:
    return (
        f'<entity ID="{eid}" {attrs}>'
        + "".join(
            f'<entity_mention ID="{mid}" {mt}>{charseq("extent", ex)}{charseq("head", hd)}'
            f"</entity_mention>"
            for mid, mt, ex, hd in mentions
        )
        + "<entity_attributes>"
        + charseq("name", mentions[0][3]).replace("<name>", f'<name NAME="{mentions[0][3]}">')
        + "</entity_attributes></entity>"
    )


def apf(body: str) -> str:
    return (
        '<?xml version="1.0"?>\n<source_file URI="HAND-1.sgm" SOURCE="newswire" '
        f'TYPE="text"><document DOCID="HAND-1">{body}</document></source_file>\n'
    )


HAND_REF = apf(
    entity(
        "HAND-1-E1",
        'TYPE="ORG" SUBTYPE="Commercial" CLASS="SPC"',
        [
            ("HAND-1-E1-1", 'TYPE="NAM"', "Acme Corp", "Acme Corp"),
            ("HAND-1-E1-2", 'TYPE="PRO"', "it", "it"),
        ],
    )
    + entity(
        "HAND-1-E2",
        'TYPE="PER" SUBTYPE="Individual" CLASS="SPC"',
        [("HAND-1-E2-1", 'TYPE="NAM"', "Bo Lin", "Bo Lin")],
    )
    + '<relation ID="HAND-1-R1" TYPE="ORG-AFF" SUBTYPE="Employment" MODALITY="Asserted">'
    '<relation_argument REFID="HAND-1-E2" ROLE="Arg-1"/>'
    '<relation_argument REFID="HAND-1-E1" ROLE="Arg-2"/>'
    f'<relation_mention ID="HAND-1-R1-1">{charseq("extent", "it hired Bo Lin")}'
    f'<relation_mention_argument REFID="HAND-1-E2-1" ROLE="Arg-1">{charseq("extent", "Bo Lin")}'
    "</relation_mention_argument>"
    f'<relation_mention_argument REFID="HAND-1-E1-2" ROLE="Arg-2">{charseq("extent", "it")}'
    "</relation_mention_argument></relation_mention></relation>"
)
HAND_SYS = apf(
    entity(
        "HAND-1-S1",
        'TYPE="ORG" SUBTYPE="Media" CLASS="SPC"',
        [("HAND-1-S1-1", 'TYPE="NAM" ROLE="GPE"', "Acme Corp said", "Acme Corp")],
    )
    + entity(
        "HAND-1-S2",
        'TYPE="GPE" SUBTYPE="Nation" CLASS="SPC"',
        [("HAND-1-S2-1", 'TYPE="NAM"', "Paris", "Paris")],
    )
    + '<relation ID="HAND-1-SR1" TYPE="GEN-AFF" SUBTYPE="Org-Location" MODALITY="Asserted">'
    '<relation_argument REFID="HAND-1-S1" ROLE="Arg-1"/>'
    '<relation_argument REFID="HAND-1-S2" ROLE="Arg-2"/>'
    '<relation_mention ID="HAND-1-SR1-1">'
    f"{charseq('extent', 'Acme Corp said it hired Bo Lin in Paris')}"
    f'<relation_mention_argument REFID="HAND-1-S1-1" ROLE="Arg-1">'
    f"{charseq('extent', 'Acme Corp')}</relation_mention_argument>"
    f'<relation_mention_argument REFID="HAND-1-S2-1" ROLE="Arg-2">{charseq("extent", "Paris")}'
    "</relation_mention_argument></relation_mention></relation>"
)

#: (title, notes, errors) of every mark of the hand-made page, by key, under local_2008 (the
#: mentions of a mapped pair mapped) and global_2008 (not mapped)
_E1 = "of entity HAND-1-E1: ORG.Commercial SPC NAM"
_S1 = "of entity HAND-1-S1: ORG.Media SPC NAM"
_SUBTYPE = "attribute error (entity HAND-1-E1 ↔ HAND-1-S1): SUBTYPE: Commercial ≠ Media"
_PLAIN = "(mentions are not mapped under this parameter set)"
_SHARED = {
    "R2": (
        "REF entity mention HAND-1-E2-1 (NAM)",
        [
            "of entity HAND-1-E2: PER.Individual SPC NAM",
            "head “Bo Lin”",
            "MISS: entity HAND-1-E2 is not mapped to a SYS entity",
        ],
        [],
    ),
    "R3": (
        "REF relation mention HAND-1-R1-1",
        [
            "of relation HAND-1-R1: ORG-AFF.Employment MODALITY=Asserted",
            "extent “it hired Bo Lin”",
            "MISS: relation HAND-1-R1 is not mapped to a SYS relation",
        ],
        [],
    ),
    "S5": (
        "SYS entity mention HAND-1-S2-1 (NAM)",
        [
            "of entity HAND-1-S2: GPE.Nation SPC NAM",
            "head “Paris”",
            "FALSE ALARM: entity HAND-1-S2 is not mapped to a REF entity",
        ],
        [],
    ),
    "S6": (
        "SYS relation mention HAND-1-SR1-1",
        [
            "of relation HAND-1-SR1: GEN-AFF.Org-Location MODALITY=Asserted",
            "extent “Acme Corp said it hired Bo Lin in Paris”",
            "FALSE ALARM: relation HAND-1-SR1 is not mapped to a REF relation",
        ],
        [],
    ),
}
HAND_NOTES = {
    "local_2008": dict(
        _SHARED,
        **{
            "R0": (
                "REF entity mention HAND-1-E1-1 (NAM)",
                [
                    _E1,
                    "head “Acme Corp”",
                    "mapped to SYS mention HAND-1-S1-1 of entity HAND-1-S1",
                    "extents differ: “Acme Corp” vs “Acme Corp said”",
                ],
                [_SUBTYPE, "mention role: ORG ≠ GPE"],
            ),
            "R1": (
                "REF entity mention HAND-1-E1-2 (PRO)",
                [
                    _E1,
                    "head “it”",
                    "MENTION MISS: entity HAND-1-E1 is mapped to HAND-1-S1, but"
                    " no SYS mention corresponds to this one",
                ],
                [_SUBTYPE],
            ),
            "S4": (
                "SYS entity mention HAND-1-S1-1 (NAM)",
                [
                    _S1,
                    "head “Acme Corp”",
                    "mapped to REF mention HAND-1-E1-1 of entity HAND-1-E1",
                    "extents differ: “Acme Corp said” vs “Acme Corp”",
                ],
                [_SUBTYPE, "mention role: GPE ≠ ORG"],
            ),
        },
    ),
    "global_2008": dict(
        _SHARED,
        **{
            "R0": (
                "REF entity mention HAND-1-E1-1 (NAM)",
                [_E1, "head “Acme Corp”", f"entity mapped to SYS entity HAND-1-S1 {_PLAIN}"],
                [_SUBTYPE],
            ),
            "R1": (
                "REF entity mention HAND-1-E1-2 (PRO)",
                [_E1, "head “it”", f"entity mapped to SYS entity HAND-1-S1 {_PLAIN}"],
                [_SUBTYPE],
            ),
            "S4": (
                "SYS entity mention HAND-1-S1-1 (NAM)",
                [_S1, "head “Acme Corp”", f"entity mapped to REF entity HAND-1-E1 {_PLAIN}"],
                [_SUBTYPE],
            ),
        },
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("params", sorted(HAND_NOTES))
def test_notes_as_shown(tmp_path, params):
    """The page data says once what the mentions of an element share; view.js makes each
    mention's title, notes and errors from it: in headless Chromium they are the sentences
    expected of a hand-made document (a mapped pair with an attribute error, a mention error,
    different extents and an unmapped mention; a miss, a false alarm, relations with their
    arguments)."""
    for side, text in (("ref", HAND_REF), ("sys", HAND_SYS), ("src", None)):
        (tmp_path / side).mkdir()
        (tmp_path / side / ("HAND-1.sgm" if text is None else "HAND-1.apf.xml")).write_text(
            HAND_SOURCE if text is None else text, encoding="utf-8"
        )
    res = api.score(str(tmp_path / "ref"), str(tmp_path / "sys"), params, True, keep_passes=True)
    out = tmp_path / "site"
    write_view(res, str(tmp_path / "src"), str(out))
    page = out / "doc" / "HAND-1.html"
    data = json.loads(lhtml.parse(str(page)).getroot().xpath('//script[@id="doc-data"]')[0].text)
    marks = {m["k"]: m for m in page_marks(data)}
    assert sorted(marks) == sorted(HAND_NOTES[params])
    assert marks["R3"]["kd"] == "relation" and marks["S4"]["el"] == "HAND-1-S1"
    dom, err = run_chromium(page.as_uri() + "?selftest=describe", tmp_path, "--dump-dom")
    status, detail, js_errors = selftest_result(dom)
    assert status == "pass", detail
    assert not js_errors.strip() and console_messages(err) == []
    shown, links = {}, {}
    for div in lhtml.fromstring(dom).xpath('//*[@id="selftest"]/div[@data-k]'):
        k = div.get("data-k")
        shown[k] = (
            div.xpath(".//b")[0].text_content(),
            [li.text_content() for li in div.xpath(".//li[not(@class)]")],
            [li.text_content() for li in div.xpath('.//li[@class="err"]')],
        )
        links[k] = (div.get("data-p"), div.get("data-a"))
    assert shown == HAND_NOTES[params]
    # partners (the mentions of the mapped pair, where mapped) and the relation's arguments
    pair = params == "local_2008"
    assert links == {
        "R0": ("S4" if pair else "", ""),
        "R1": ("", ""),
        "R2": ("", ""),
        "R3": ("", "R2 R1"),
        "S4": ("R0" if pair else "", ""),
        "S5": ("", ""),
        "S6": ("", "S4 S5"),
    }
