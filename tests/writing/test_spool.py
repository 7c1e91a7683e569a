"""Listing text of document shards kept in spool files (acescore.writing.spool): spans cut at block
boundaries in bytes, written by the kernel or by reads, removed with their results or at
exit, and a run without a spool (no temporary folder) gives the same report.  The text
itself is compared with one process's in test_shards_listings.py."""

from __future__ import annotations

import errno
import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from synth import make_corpus

from acescore import api
from acescore.report.listing_records import spooled
from acescore.run import parallel
from acescore.writing import output, spool

needs_fork = pytest.mark.skipif(
    not parallel.fork_available(), reason="shards are forked processes (Linux)"
)


def test_put_gives_spans_and_byte_offsets(tmp_path):
    w = spool.SpoolWriter(str(tmp_path))
    span, offsets = w.put(["ab\n", "cd\n"], [0, 1])
    assert (span.start, span.end, offsets) == (0, 6, [0, 3])
    # not ASCII: é is 2 bytes, the 4-byte 𝄞 -- offsets in bytes; blocks of several pieces
    # (the second of two, the third of an empty piece and one), a block without a piece
    pieces = ["é\n", "x", "𝄞\n", "", "z\n"]
    text = "".join(pieces)
    span2, offsets2 = w.put(pieces, [0, 1, 3, 5])
    assert (span2.start, span2.end) == (6, 6 + len(text.encode()))
    assert offsets2 == [0, 3, 9, 11]
    assert span2.text() == text
    assert [span2[a:b].text() for a, b in ((0, 3), (3, 9), (9, 11), (11, len(span2)))] == [
        "é\n",
        "x𝄞\n",
        "z\n",
        "",
    ]
    assert span2[9:].text() == "z\n" and span2[4:2].text() == ""
    assert Path(span.path).read_bytes() == ("ab\ncd\n" + text).encode()
    assert w.put([], []) is None  # nothing to write: sent as it is
    assert w.put(["", ""], [0, 1]) is None


def test_put_writes_in_writev_chunks_and_after_a_short_write(tmp_path, monkeypatch):
    monkeypatch.setattr(spool, "_IOV", 2)  # two buffers per writev
    real, sizes = os.writev, []

    def short(fd, bufs):  # each writev writes 3 bytes at most
        sizes.append([len(b) for b in bufs])
        return os.write(fd, b"".join(bufs)[:3])

    monkeypatch.setattr(os, "writev", short)
    pieces = ["ab\n", "cdé\n", "", "fgh\n", "i"]
    span, offsets = spool.SpoolWriter(str(tmp_path)).put(pieces, [0, 1, 3])
    assert span.text() == "".join(pieces) and offsets == [0, 3, 8]
    assert sizes == [[3, 5], [0, 4], [1]]
    monkeypatch.setattr(os, "writev", real)


def test_coalesced_joins_adjacent_spans_of_one_file():
    a, b = spool.Span("f", 0, 4), spool.Span("f", 4, 9)
    c, d = spool.Span("g", 9, 12), spool.Span("f", 20, 22)
    out = spool.coalesced(["h", a, b, c, d, "t", spool.Span("f", 22, 25)])
    assert [(p.path, p.start, p.end) if isinstance(p, spool.Span) else p for p in out] == [
        "h",
        ("f", 0, 9),
        ("g", 9, 12),
        ("f", 20, 22),
        "t",
        ("f", 22, 25),
    ]


@pytest.mark.parametrize("refuse", [False, True])
def test_report_with_spans_written_whole(tmp_path, monkeypatch, refuse):
    w = spool.SpoolWriter(str(tmp_path))
    span, _ = w.put("one\ntwo é\nthree\n", [0, 4, 11])
    if refuse:  # sendfile refused (an old kernel, an odd descriptor): reads

        def no(*a):
            raise OSError(errno.EINVAL, "Invalid argument")

        monkeypatch.setattr(os, "sendfile", no)
    target = tmp_path / "report.txt"
    output.Emitter(str(target)).emit(["head\n", span[4:11], "mid\n", span[11:], span[:4]])
    assert target.read_text() == "head\ntwo é\nmid\nthree\none\n"
    r, wfd = os.pipe()  # and to a pipe
    try:
        output._write_all(wfd, ["<", span, ">"])
        os.close(wfd)
        wfd = None
        assert os.read(r, 1000) == "<one\ntwo é\nthree\n>".encode()
    finally:
        os.close(r)
        if wfd is not None:
            os.close(wfd)


def test_writer_that_cannot_write_sends_the_text(tmp_path):
    w = spool.SpoolWriter(str(tmp_path / "gone"))  # the folder does not exist
    assert w.put(["abc\n"], [0]) is None and w.failed
    # the records of pass_records: a listing's header, keys, pieces, first piece of each
    # block; sent packed (the text, where each block starts in it) where it is not spooled
    records = {"REF": ("H\n", ["R1", "R2"], ["ab", "c\n", "dé\n"], [0, 2]), "other": 1}
    packed = {"REF": ("H\n", ["R1", "R2"], "abc\ndé\n", [0, 4]), "other": 1}
    assert spooled(dict(records), w) == packed
    assert spooled(dict(records), None) == packed
    assert spooled(dict(packed), None) == packed  # (packed already: as it is)
    assert spooled(None, w) is None
    good = spool.SpoolWriter(str(tmp_path))
    out = spooled(dict(records), good)
    head, keys, span, offsets = out["REF"]
    assert (head, keys, offsets, span.text(), out["other"]) == (
        "H\n",
        ["R1", "R2"],
        [0, 4],
        "abc\ndé\n",
        1,
    )
    assert span[offsets[1] :].text() == "dé\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("spool"), 6, "shard-listings", "heavy")


@pytest.mark.slow
@needs_fork
def test_sharded_listings_are_spans_removed_with_their_results(corpus):
    ref, sys_ = str(corpus / "ref"), str(corpus / "sys-heavy")
    one = api.score(
        ref, sys_, "local_2008", True, all_mappings=True, summary=True, literature=False
    )
    res = api.score(
        ref, sys_, "local_2008", True, all_mappings=True, summary=True, literature=False, jobs=2
    )
    assert res.shards == 2
    spans = [p for p in res.text_pieces() if isinstance(p, spool.Span)]
    assert spans, "the listings did not go through the spool"
    folder = os.path.dirname(spans[0].path)
    assert os.path.isdir(folder) and os.path.basename(folder).startswith("acescore-spool-")
    assert res.to_text() == one.to_text()
    del res, spans
    gc.collect()
    assert not os.path.exists(folder)


def _cli(corpus: Path, tmpdir: Path, out: Path, jobs: int) -> subprocess.CompletedProcess:
    env = dict(os.environ, TMPDIR=str(tmpdir))
    env.pop("ACESCORE_NO_FAST_EXIT", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "acescore",
            "score",
            str(corpus / "ref"),
            str(corpus / "sys-heavy"),
            "-m",
            "-a",
            "-e",
            "-s",
            "--jobs",
            str(jobs),
            "-q",
            "-o",
            str(out),
        ],
        env=env,
        capture_output=True,
        text=True,
    )


@pytest.mark.slow
@needs_fork
def test_command_leaves_no_spool_behind_and_works_without_one(corpus, tmp_path):
    one = _cli(corpus, tmp_path, tmp_path / "one.txt", 1)
    assert one.returncode == 0, one.stderr
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    two = _cli(corpus, scratch, tmp_path / "two.txt", 2)
    assert two.returncode == 0, two.stderr
    assert list(scratch.iterdir()) == []  # the spool was made there, and removed
    # no temporary folder at all: the text goes through the pipes, the same report
    three = _cli(corpus, tmp_path / "missing", tmp_path / "three.txt", 2)
    assert three.returncode == 0, three.stderr
    body = [
        (tmp_path / f).read_text().split("\n", 1)[1] for f in ("one.txt", "two.txt", "three.txt")
    ]
    assert body[0] == body[1] == body[2]
    assert "======== entity mapping ========" in body[0]


_TERMINATE_AFTER_FIRST_SHARD = """
import os, signal, sys
import acescore.run.parallel as parallel, acescore.run.shards as shards
import acescore.run.entry as entry
entry.SMALL_RUN_BYTES = 0       # a few KB: planned as a large corpus, in shards
pool = parallel.run_pool
def run_pool(starts, limit, timeout=None, on_result=None):
    def first(i, out):          # a shard has sent its listings: the signal, as `kill` would
        os.kill(os.getpid(), getattr(signal, os.environ["ACESCORE_TEST_SIGNAL"]))
        return on_result(i, out)
    return pool(starts, limit, timeout, first)
shards.run_pool = run_pool
from acescore.entry import run
run(sys.argv[1:])
"""


@pytest.mark.slow
@needs_fork
@pytest.mark.parametrize(
    "signame, code, line",
    [
        ("SIGTERM", 143, "acescore: terminated\n"),
        ("SIGHUP", 129, "acescore: hangup (the terminal closed)\n"),
    ],
)
def test_sigterm_removes_the_spool_and_the_report_in_progress(
    corpus, tmp_path, signame, code, line
):
    """SIGTERM part-way (a batch system's time limit), or SIGHUP (the terminal closed): exit
    143 (129) with one line, the workers killed, no spool folder and no half-written report
    left behind."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, TMPDIR=str(scratch), ACESCORE_TEST_SIGNAL=signame)
    env.pop("ACESCORE_NO_FAST_EXIT", None)
    p = subprocess.run(
        [
            sys.executable,
            "-c",
            _TERMINATE_AFTER_FIRST_SHARD,
            "score",
            str(corpus / "ref"),
            str(corpus / "sys-heavy"),
            "-m",
            "-a",
            "-s",
            "--jobs",
            "2",
            "-o",
            str(out / "report.txt"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (p.returncode, p.stderr) == (code, line)
    assert list(scratch.iterdir()) == [] and list(out.iterdir()) == []
