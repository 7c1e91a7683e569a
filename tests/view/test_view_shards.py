"""``acescore view --jobs N`` in document shards (acescore.view.shards): every file of
the site is the same, byte for byte, for every number of processes -- on the golden corpus,
on a corpus generated here, under local and global parameter sets -- and where the shards
cannot give the one-process site (a section printed by the run but not within a shard) the
site is written in one process."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_shards import _link_documents

from acescore.cli import main
from acescore.model.errors import AceUsageError
from acescore.model.options import Options
from acescore.run import parallel
from acescore.view.shards import write_site

HERE = Path(__file__).parent.resolve().parent
SMALL = HERE / "data" / "golden" / "small"
SYNTH = HERE.parent / "tools" / "acesynth.py"

pytestmark = [
    pytest.mark.slow,  # generated corpus, subprocesses
    pytest.mark.skipif(not parallel.fork_available(), reason="shards are forked processes (Linux)"),
]


def site_files(out: Path) -> dict:
    """Relative path -> bytes of every file below ``out``."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def cli_view(ref: Path, sys_: Path, src: Path, out: Path, *args: str) -> str:
    r = CliRunner().invoke(
        main, ["view", str(ref), str(sys_), "--source-dir", str(src), "-O", str(out), "-q", *args]
    )
    assert r.exit_code == 0, r.output
    return r.output


def sharded(
    ref: Path, sys_: Path, src: Path, out: Path, params: str, jobs: int, mentions: bool = True
):
    """write_site directly: (Results, files) where the view went in shards, else None (the
    site was written in one process)."""
    opts = Options(params=params, mentions=mentions, jobs=jobs, literature=False)
    warnings: list = []
    done = write_site(str(ref), str(sys_), opts, str(src), str(out), warnings=warnings)
    return (done if done[0].shards is not None else None), warnings


def assert_same_sites(
    ref: Path, sys_: Path, src: Path, tmp: Path, *args: str, jobs: tuple = (1, 2, 3)
) -> dict:
    """The site written by the command with each of ``jobs`` (the first 1): every file
    identical; returns the files.  (The tests below give two values and write the third
    site with :func:`sharded`, which says whether the shards happened.)"""
    sites = {}
    for j in jobs:
        out = tmp / f"site-{'_'.join(args)}-{j}"
        cli_view(ref, sys_, src, out, "--jobs", str(j), *args)
        sites[j] = site_files(out)
    first = sites[jobs[0]]
    assert len([f for f in first if f.startswith("doc/")]) >= 20
    for j in jobs[1:]:
        assert sorted(sites[j]) == sorted(first)
        for name in first:
            assert sites[j][name] == first[name], name
    return first


@pytest.mark.parametrize(
    "args,jobs",
    [
        ((), (1,)),
        (("-m", "-P", "local_2007"), (1, 2)),
        (("-m", "-P", "global_2008"), (1,)),
        (("-P", "global_2008_with_mentions"), (1, 2)),
    ],
)
def test_golden_site_same_for_every_jobs_value(tmp_path, args, jobs):
    """--jobs 1 through the command (and 2, every other set of options: one sharded run of
    the command shows its path), 3 directly (the shards did happen): one site."""
    files = assert_same_sites(
        SMALL / "ref", SMALL / "sys-heavy", SMALL / "src", tmp_path, *args, jobs=jobs
    )
    params = args[args.index("-P") + 1] if "-P" in args else "local_2008"
    done, _ = sharded(
        SMALL / "ref",
        SMALL / "sys-heavy",
        SMALL / "src",
        tmp_path / "direct-3",
        params,
        3,
        "-m" in args,
    )
    assert done is not None and done[0].shards == 3
    assert not list((tmp_path / "direct-3").glob(".acescore-view.*"))
    assert site_files(tmp_path / "direct-3") == files


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A corpus made now by the synthetic generator: 36 documents, two system profiles."""
    out = tmp_path_factory.mktemp("gen") / "corpus"
    subprocess.run(
        [
            sys.executable,
            str(SYNTH),
            "--out",
            str(out),
            "--docs",
            "36",
            "--seed",
            "view-shards",
            "--profiles",
            "heavy,boundary",
            "--quiet",
        ],
        check=True,
    )
    return out


@pytest.fixture(scope="module")
def generated_site(generated, tmp_path_factory):
    """The site of ``view -m --jobs 1`` for a system of the generated corpus: files by
    path, made once a test process (two tests compare with sys-heavy's)."""
    made: dict = {}

    def site(profile: str) -> dict:
        if profile not in made:
            out = tmp_path_factory.mktemp(f"site-{profile}") / "site"
            sys_ = generated / f"sys-{profile}"
            cli_view(generated / "ref", sys_, generated / "src", out, "--jobs", "1", "-m")
            made[profile] = site_files(out)
        return made[profile]

    return site


@pytest.mark.parametrize(("profile", "jobs"), [("heavy", (2,)), ("boundary", ())])
def test_generated_site_same_for_every_jobs_value(
    generated, generated_site, tmp_path, profile, jobs
):
    """--jobs 1 (and 2 for one profile) through the command, 3 directly: one site."""
    files = generated_site(profile)
    assert len([f for f in files if f.startswith("doc/")]) == 36
    for j in jobs:
        cli_view(
            generated / "ref",
            generated / f"sys-{profile}",
            generated / "src",
            tmp_path / f"site-{j}",
            "--jobs",
            str(j),
            "-m",
        )
        sharded_files = site_files(tmp_path / f"site-{j}")
        assert sorted(sharded_files) == sorted(files)
        for name in files:
            assert sharded_files[name] == files[name], name
    done, _ = sharded(
        generated / "ref",
        generated / f"sys-{profile}",
        generated / "src",
        tmp_path / "direct-3",
        "local_2008",
        3,
    )
    assert done is not None and done[0].shards == 3
    assert site_files(tmp_path / "direct-3") == files


def test_missing_sources_warned_in_document_order(generated, tmp_path):
    """Sources missing for some documents: the same pages, index and warnings (in document
    order) from the shards as from one process."""
    src = tmp_path / "src"
    shutil.copytree(generated / "src", src)
    gone = sorted(src.glob("*.sgm"))[1::5]
    for p in gone:
        p.unlink()
    files = assert_same_sites(
        generated / "ref", generated / "sys-heavy", src, tmp_path, "-m", jobs=(1, 2)
    )
    assert "source text not found" in files["index.html"].decode("utf-8")
    done, warnings = sharded(
        generated / "ref", generated / "sys-heavy", src, tmp_path / "direct", "local_2008", 3
    )
    assert done is not None and done[0].shards == 3
    assert site_files(tmp_path / "direct") == files
    assert warnings == [
        f"view: {p.name[:-4]}: source document not found below {src} "
        f"(looked for {p.name}, {p.name[:-4]})\n"
        for p in gone
    ]


def test_wrong_source_dir_is_a_usage_error_with_nothing_written(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "other.sgm").write_text("<DOC></DOC>\n", encoding="utf-8")
    with pytest.raises(AceUsageError, match="no source document for any of the 20 APF"):
        sharded(SMALL / "ref", SMALL / "sys-heavy", src, tmp_path / "out", "local_2008", 2)
    assert not (tmp_path / "out").exists()


def _without_values(text: str) -> str:
    """An APF text without its value elements and the arguments that name them."""
    values = re.compile(r'<value ID="([^"]+)".*?</value>\s*', re.S)
    ids = values.findall(text)
    text = values.sub("", text)
    for vid in ids:
        ref = re.escape(vid) + r'(?:-\d+)?"'
        text = re.sub(
            r'<(\w+_argument) REFID="' + ref + r"[^>]*?(?:/>|>.*?</\1>)\s*", "", text, flags=re.S
        )
    return text


def test_section_printed_elsewhere_means_one_process(tmp_path):
    """SYS values in the first documents only: the value section is printed by the run
    but not within the second shard (REF values, no SYS value), whose pages would leave
    out its Values: no sharded site; the command writes it in one process, the same for
    every --jobs value."""
    shutil.copytree(SMALL / "sys-heavy", tmp_path / "sys")
    files = sorted((tmp_path / "sys").glob("*.apf.xml"))
    for p in files[4:]:
        p.write_text(_without_values(p.read_text(encoding="utf-8")), encoding="utf-8")
    assert any("<value " in p.read_text(encoding="utf-8") for p in files[:4])
    from acescore import api
    from acescore.run import shards

    opts = Options(mentions=True, jobs=2, literature=False)
    res = shards.score_paths(
        api.discover(str(SMALL / "ref")), api.discover(str(tmp_path / "sys")), opts
    )
    assert res is not None and res.shards == 2  # the report alone goes in shards
    done, _ = sharded(
        SMALL / "ref", tmp_path / "sys", SMALL / "src", tmp_path / "direct", "local_2008", 2
    )
    assert done is None
    assert (tmp_path / "direct" / "index.html").exists()  # written in one process
    site = assert_same_sites(
        SMALL / "ref", tmp_path / "sys", SMALL / "src", tmp_path, "-m", jobs=(1, 3)
    )
    assert site_files(tmp_path / "direct") == site  # --jobs 2
    index = site["index.html"].decode("utf-8")
    assert '<tr data-task="value">' in index
    last = sorted(f for f in site if f.startswith("doc/"))[-1]
    assert 'class="dv" data-task="value"' in site[last].decode("utf-8")


def test_case_twins_named_across_shards(tmp_path):
    """Two DOCIDs that differ only in case, in different shards: the page names (made
    unique in sorted order) and the links to them are those of one process."""
    for sub in ("ref", "sys-heavy", "src"):
        shutil.copytree(SMALL / sub, tmp_path / sub)
    refs = sorted((tmp_path / "ref").glob("*.apf.xml"))
    first = refs[0].name[: -len(".apf.xml")]
    last = refs[-1].name[: -len(".apf.xml")]
    twin = first.lower()
    for sub, ext in (("ref", ".apf.xml"), ("sys-heavy", ".apf.xml"), ("src", ".sgm")):
        p = tmp_path / sub / f"{last}{ext}"
        p.write_text(p.read_text(encoding="utf-8").replace(last, twin), encoding="utf-8")
        p.rename(tmp_path / sub / f"{twin}{ext}")
    files = assert_same_sites(
        tmp_path / "ref", tmp_path / "sys-heavy", tmp_path / "src", tmp_path, "-m", jobs=(1, 3)
    )
    assert f"doc/{twin}-2.html" in files or f"doc/{first}-2.html" in files
    done, _ = sharded(
        tmp_path / "ref",
        tmp_path / "sys-heavy",
        tmp_path / "src",
        tmp_path / "direct",
        "local_2008",
        2,
    )
    assert done is not None and done[0].shards == 2
    assert site_files(tmp_path / "direct") == files


def test_messages_and_golden_site_same_for_every_jobs_value(tmp_path):
    """-m, local_2008 (the other sets: test_golden_site_same_for_every_jobs_value): the NIST
    warnings, the view's line and the summary line on standard error, in the same order
    with shards as in one process; the sites of --jobs 1 and 2 through the command and 3
    directly (the shards did happen): one site."""
    outs, sites = [], []
    for jobs in (1, 2):
        r = CliRunner().invoke(
            main,
            [
                "view",
                str(SMALL / "ref"),
                str(SMALL / "sys-heavy"),
                "--source-dir",
                str(SMALL / "src"),
                "-m",
                "-O",
                str(tmp_path / f"site-{jobs}"),
                "--jobs",
                str(jobs),
            ],
        )
        assert r.exit_code == 0, r.output
        text = re.sub(r"files in \d+\.\d s", "files in - s", r.output)
        outs.append(text.replace(str(tmp_path / f"site-{jobs}"), "SITE"))
        sites.append(site_files(tmp_path / f"site-{jobs}"))
    assert outs[0] == outs[1]
    assert len([f for f in sites[0] if f.startswith("doc/")]) >= 20
    assert sorted(sites[1]) == sorted(sites[0])
    for name in sites[0]:
        assert sites[1][name] == sites[0][name], name
    done, _ = sharded(
        SMALL / "ref", SMALL / "sys-heavy", SMALL / "src", tmp_path / "direct-3", "local_2008", 3
    )
    assert done is not None and done[0].shards == 3
    assert not list((tmp_path / "direct-3").glob(".acescore-view.*"))
    assert site_files(tmp_path / "direct-3") == sites[0]
    assert "acescore: 15 warnings of the NIST tool" in outs[0]  # grouped (default)
    assert "acescore view: 20 documents, 23 files" in outs[0]
    assert "scored 20 of 20 REF documents" in outs[0]


@pytest.mark.parametrize("params", ["global_2008", "global_2008_with_mentions"])
def test_global_set_with_linked_documents(tmp_path, params):
    """Under a global parameter set, REF documents 2 and 4 linked by a cross-document
    entity stay in one shard (with 3 between them); the shards still happen and the site
    is that of one process."""
    r, _ = _link_documents(tmp_path, 2, 4)
    args = ("-m", "-P", params) if params.endswith("mentions") else ("-P", params)
    files = assert_same_sites(
        tmp_path / "ref", tmp_path / "sys-heavy", SMALL / "src", tmp_path, *args, jobs=(1, 2)
    )
    done, _ = sharded(
        tmp_path / "ref",
        tmp_path / "sys-heavy",
        SMALL / "src",
        tmp_path / "direct",
        params,
        3,
        "-m" in args,
    )
    assert done is not None and done[0].shards == 3
    pages = {p.name for p in (tmp_path / "direct" / "doc").iterdir()}
    assert len(pages) == 20 and Path(r[3]).name.replace(".apf.xml", ".html") in pages
    assert site_files(tmp_path / "direct") == files


def test_more_shards_than_processes(generated, generated_site, tmp_path, monkeypatch):
    """A corpus over --jobs x SHARD_REF_BYTES: more shards than processes (run --jobs at a
    time); every page is still the one-process site's."""
    from acescore.run import shards

    ref, sys_, src = generated / "ref", generated / "sys-heavy", generated / "src"
    total = sum(p.stat().st_size for p in ref.glob("*.apf.xml"))
    monkeypatch.setattr(shards, "SHARD_REF_BYTES", total // 6 + 1)
    done, _ = sharded(ref, sys_, src, tmp_path / "many", "local_2008", 2)
    # six shards' worth, the last round's two in two halves and four quarters
    assert done is not None and done[0].shards == 10
    assert site_files(tmp_path / "many") == generated_site("heavy")
