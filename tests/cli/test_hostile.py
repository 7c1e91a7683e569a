"""Hostile input and output faults (issue 15): every class ends in one line and exit 2 (or a
report), never a traceback, a hang or a lost report.  Fixtures are made by the tests from
the bundled examples; commands that could hang (FIFOs) run in a subprocess with a timeout.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from acescore import api
from acescore.cli import main
from acescore.model.errors import AceError, AceInputError
from acescore.reading.apf import parse_xml
from acescore.reading.safe_read import read_bytes
from acescore.writing import output

ROOT = Path(__file__).parent.resolve().parent.parent
EXAMPLES = ROOT / "examples"
DOC = "SYNNW_20030216.0001"
APF = (EXAMPLES / "ref" / f"{DOC}.apf.xml").read_text("utf-8")


def run(args, timeout=120, **kw):
    """``acescore ARGS`` in a subprocess: (exit status, stdout, stderr)."""
    p = subprocess.run(
        [sys.executable, "-m", "acescore", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=kw.pop("cwd", None),
        **kw,
    )
    return p.returncode, p.stdout, p.stderr


def one_line_error(code, out, err, pattern):
    assert code == 2, (code, err)
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert re.search(pattern, err), err


def invoke(args):
    r = CliRunner().invoke(main, args)
    return r.exit_code, r.stdout, r.stderr


# ---- XML declarations: decided by the parser --------------------------------------------------


def with_decl(decl: str, body: str = APF) -> str:
    return body.replace('<?xml version="1.0"?>', decl, 1)


@pytest.mark.parametrize(
    "decl,message",
    [
        ('<?xml version="1.0" encoding=""?>', "malformed XML: Invalid XML encoding name"),
        ('<?xml version="1.0" encoding=?>', "malformed XML: String not started expecting ' or \""),
        ('<?xml version="1.0" encoding = "latin1"?>', "declares encoding 'latin1'"),
        ("<?xml version='1.0' encoding\t=\t'ISO-8859-1'?>", "declares encoding 'ISO-8859-1'"),
        ('<?xml version="1.0"' + " " * 400 + 'encoding="latin1"?>', "declares encoding 'latin1'"),
        ('<?xml version="1.0" encoding="latin-1"?>', "declares encoding 'latin-1'"),
        ('<?xml version="1.0" encoding="bogus-enc"?>', "declares encoding 'bogus-enc'"),
        (
            '<?xml version="1.0" encoding="UTF-16"?>',
            "the XML declaration names an encoding the file is not in",
        ),
    ],
)
def test_declarations_not_utf8_are_refused(tmp_path, decl, message):
    p = tmp_path / "a.apf.xml"
    # a non-ASCII character: read as Latin-1 it would silently become two characters
    p.write_text(with_decl(decl, APF.replace("Fishermens", "Fischérmens", 1)), "utf-8")
    with pytest.raises(AceInputError) as e:
        parse_xml(str(p))
    assert str(e.value).startswith(f"{p}:1: ")
    assert message in str(e.value)
    code, out, err = invoke(["score", str(p), str(p), "-q"])
    assert (code, out) == (2, "")
    assert err.startswith(f"acescore: {e.value}") and err.count("\n") == 1


@pytest.mark.parametrize(
    "decl",
    [
        '<?xml version="1.0" encoding = "UTF-8" ?>',
        "<?xml version='1.0' encoding='utf8'?>",
        '<?xml version="1.0"' + " " * 400 + 'encoding="UTF-8"?>',
        '\ufeff<?xml version="1.0" encoding="US-ASCII"?>',
    ],
)
def test_declarations_of_utf8_are_accepted(tmp_path, decl):
    p = tmp_path / "a.apf.xml"
    p.write_text(with_decl(decl), "utf-8")
    ref = str(EXAMPLES / "ref" / f"{DOC}.apf.xml")
    assert (
        api.score(ref, str(p), mentions=True).to_text()
        == api.score(ref, ref, mentions=True).to_text()
    )


def test_entity_declarations_and_references_in_comments_and_cdata_are_legal(tmp_path):
    p = tmp_path / "a.apf.xml"
    text = APF.replace(
        "<document ", '<!-- <!ENTITY x "y"> and &nbsp; are only text here -->\n<document ', 1
    )
    text = text.replace("Fishermens</charseq>", "Fishermens<![CDATA[]]></charseq>", 1)
    text = text.replace("</source_file>", "<!-- <![CDATA[ <!ENTITY z 'w'> ]]> --></source_file>", 1)
    p.write_text(text, "utf-8")
    base = api.score(
        str(EXAMPLES / "ref" / f"{DOC}.apf.xml"),
        str(EXAMPLES / "ref" / f"{DOC}.apf.xml"),
        mentions=True,
    )
    got = api.score(str(p), str(p), mentions=True)
    assert got.to_text() == base.to_text()
    # outside a comment the declaration is still refused, with its line
    bad = tmp_path / "b.apf.xml"
    bad.write_text(APF.replace("<source_file", '<!DOCTYPE x [<!ENTITY x "y">]>\n<source_file', 1))
    with pytest.raises(AceInputError, match=r"b\.apf\.xml:3: entity declarations are not"):
        parse_xml(str(bad))


# ---- offsets: ASCII digits only ---------------------------------------------------------------


@pytest.mark.parametrize("start", ["\uff16\uff11", "6_1", "+61", "61.0", "0x3d", "\u0666\u0661"])
def test_offsets_are_ascii_digits(tmp_path, start):
    p = tmp_path / "a.apf.xml"
    first = re.search(r'<charseq START="(\d+)"', APF)
    p.write_text(APF[: first.start(1)] + start + APF[first.end(1) :], "utf-8")
    with pytest.raises(AceInputError) as e:
        api.score(str(p), str(p))
    assert f"START attribute is not an integer (= '{start}')" in str(e.value)


# ---- not a regular file; every read capped ----------------------------------------------------


@pytest.mark.slow
def test_fifo_in_a_folder_is_refused_not_waited_for(tmp_path):
    d = tmp_path / "ref"
    shutil.copytree(EXAMPLES / "ref", d)
    os.mkfifo(d / "zz.apf.xml")
    code, out, err = run(["score", str(d), str(EXAMPLES / "sys"), "-q"], timeout=60)
    one_line_error(code, out, err, r"zz\.apf\.xml: is a FIFO \(named pipe\), not an APF file")
    # lenient mode skips it (on both sides) without opening it for reading
    code, out, err = run(["score", str(d), str(EXAMPLES / "sys"), "--lenient"], timeout=60)
    assert code == 0 and "is a FIFO" in err and "Traceback" not in err


@pytest.mark.slow
def test_fifo_named_on_the_command_line_and_as_list(tmp_path):
    fifo = tmp_path / "f.apf.xml"
    os.mkfifo(fifo)
    code, out, err = run(["score", str(fifo), str(fifo)], timeout=60)
    one_line_error(code, out, err, r"f\.apf\.xml: is a FIFO")
    lst = tmp_path / "list"
    os.mkfifo(lst)
    code, out, err = run(["score", "-r", str(lst), "-t", str(lst)], timeout=60)
    one_line_error(code, out, err, r"list: is a FIFO \(named pipe\), not a file list")
    dtd = tmp_path / "x.dtd"
    os.mkfifo(dtd)
    code, out, err = run(["validate", str(EXAMPLES / "ref"), "--dtd", str(dtd)], timeout=60)
    assert code == 2 and "Traceback" not in out + err
    assert out.startswith(f"unknown DTD '{dtd}'") and out.count("\n") == 1


@pytest.mark.slow
def test_fifo_source_document(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(EXAMPLES / "src", src)
    os.unlink(src / f"{DOC}.sgm")
    os.mkfifo(src / f"{DOC}.sgm")
    code, out, err = run(["validate", str(EXAMPLES / "ref"), "--source-dir", str(src)], timeout=60)
    assert code == 1 and "Traceback" not in out + err
    assert "is a FIFO (named pipe), not a source document" in out
    code, out, err = run(
        [
            "view",
            str(EXAMPLES / "ref"),
            str(EXAMPLES / "sys"),
            "--source-dir",
            str(src),
            "-O",
            str(tmp_path / "site"),
        ],
        timeout=120,
    )
    assert code == 0 and "is a FIFO (named pipe), not a source document" in err


@pytest.mark.slow
def test_link_to_dev_zero_is_refused(tmp_path):
    link = tmp_path / "z.apf.xml"
    os.symlink("/dev/zero", link)
    code, out, err = run(["score", str(link), str(link), "--max-file-size", "1000"], timeout=60)
    one_line_error(code, out, err, r"z\.apf\.xml: is a character device, not an APF file")


def test_every_read_is_capped(tmp_path):
    p = tmp_path / "a.bin"
    p.write_bytes(b"x" * 5000)
    with pytest.raises(AceInputError, match="larger than the limit of 4999 bytes"):
        read_bytes(str(p), 4999)
    assert read_bytes(str(p), 100, head=True) == b"x" * 100
    assert read_bytes(str(p), 5000) == b"x" * 5000
    src = tmp_path / "s.sgm"
    src.write_bytes(b"<DOC>" + b"y" * 100 + b"</DOC>")
    from acescore.reading.sgml import read_source

    with pytest.raises(AceInputError, match=r"s\.sgm: file is larger than the limit of 50 bytes"):
        read_source(str(src), max_bytes=50)


def test_reads_are_of_the_size_expected(tmp_path, monkeypatch):
    """A file is read with one request of its size and one byte more, then a small one for
    its end (a 1 MB request allocated a 1 MB buffer for every file); a file longer than its
    size said, or larger than 1 MB, is read whole all the same."""
    import acescore.reading.safe_read as sr

    asked = []
    real_read = os.read

    def spy(fd, n):
        asked.append(n)
        return real_read(fd, n)

    monkeypatch.setattr(sr.os, "read", spy)
    p = tmp_path / "a.apf.xml"
    p.write_bytes(b"x" * 5000)
    assert read_bytes(str(p), 1 << 26) == b"x" * 5000
    assert asked == [5001, 4096]
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(range(256)) * 5000)  # 1,280,000 bytes
    asked.clear()
    assert read_bytes(str(big), 1 << 26) == bytes(range(256)) * 5000
    assert asked == [1 << 20, 1 << 20, 4096]
    asked.clear()  # a regular file whose size is 0 and which has content
    with open("/proc/self/status", "rb") as f:
        first = f.read().split(b"\n")[0]
    assert os.stat("/proc/self/status").st_size == 0
    assert read_bytes("/proc/self/status", 1 << 20).split(b"\n")[0] == first
    assert asked[:2] == [1, 1 << 20]


# ---- loose option values ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args,message",
    [
        (["--fail-under", "edr=nan"], "--fail-under edr=nan: 'nan' is not a number"),
        (["--fail-under", "edr=inf"], "--fail-under edr=inf: 'inf' is not a number"),
        (["--fail-under", "edr=-Infinity"], "'-Infinity' is not a number"),
        (["--max-file-size", "-1"], "Invalid value for '--max-file-size': '-1' is not a size"),
        (["--max-pairs", "0"], "Invalid value for '--max-pairs'"),
        (["--no-such-option"], "No such option '--no-such-option'"),
    ],
)
def test_bad_option_values_are_one_line(args, message):
    code, out, err = invoke(["score", str(EXAMPLES / "ref"), str(EXAMPLES / "sys")] + args)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("acescore: ") and message in err, err


def test_view_with_a_docid_too_long_for_a_file_name(tmp_path):
    long_id = "D" * 300
    p = tmp_path / "a.apf.xml"
    p.write_text(APF.replace(DOC, long_id), "utf-8")
    code, _out, err = invoke(["view", str(p), str(p), "-O", str(tmp_path / "site"), "-q"])
    assert code == 0, err
    pages = os.listdir(tmp_path / "site" / "doc")
    assert len(pages) == 1 and len(pages[0]) < 255 and pages[0].startswith("D" * 150)
    assert pages[0] in (tmp_path / "site" / "index.html").read_text("utf-8")


# ---- quadratic growth: one span shared by many elements ---------------------------------------


def shared_span_corpus(tmp_path, n: int, relations: bool = False) -> str:
    """n entities (or n relations between two entities) on one span: n * n pairs."""
    head = (
        '<?xml version="1.0"?>\n<source_file URI="Q.sgm" SOURCE="newswire" TYPE="text">\n'
        '<document DOCID="Q">\n'
    )

    def entity(i, s):
        return (
            f'<entity ID="Q-E{i}" TYPE="PER" SUBTYPE="Individual" CLASS="SPC">'
            f'<entity_mention ID="Q-E{i}-1" TYPE="NAM" LDCTYPE="NAM"><extent><charseq '
            f'START="{s}" END="{s + 4}">Smith</charseq></extent><head><charseq START="{s}"'
            f' END="{s + 4}">Smith</charseq></head></entity_mention></entity>\n'
        )

    body = []
    if relations:
        body = [entity(1, 10), entity(2, 20)]
        for i in range(n):
            body.append(
                f'<relation ID="Q-R{i}" TYPE="PER-SOC" SUBTYPE="Business"><relation_argument '
                'REFID="Q-E1" ROLE="Arg-1"/><relation_argument REFID="Q-E2" ROLE="Arg-2"/>'
                f'<relation_mention ID="Q-R{i}-1" LEXICALCONDITION="Verbal"><extent><charseq '
                'START="10" END="24">x</charseq></extent><relation_mention_argument '
                'REFID="Q-E1-1" ROLE="Arg-1"><extent><charseq START="10" END="14">x</charseq>'
                "</extent></relation_mention_argument><relation_mention_argument "
                'REFID="Q-E2-1" ROLE="Arg-2"><extent><charseq START="20" END="24">x</charseq>'
                "</extent></relation_mention_argument></relation_mention></relation>\n"
            )
    else:
        body = [entity(i, 10) for i in range(n)]
    p = tmp_path / ("rel.apf.xml" if relations else "ent.apf.xml")
    p.write_text(head + "".join(body) + "</document>\n</source_file>\n", "utf-8")
    return str(p)


@pytest.mark.slow
@pytest.mark.parametrize("relations,what", [(False, "entity mention"), (True, "relation")])
def test_shared_span_is_refused_above_the_pair_limit(tmp_path, relations, what):
    p = shared_span_corpus(tmp_path, 40, relations)  # 1,600 pairs
    code, out, err = invoke(["score", p, p, "-m", "-q", "--max-pairs", "1000"])
    assert (code, out) == (2, "")
    assert re.fullmatch(
        rf"acescore: document Q: more than 1000 REF/SYS {what} pairs to value"
        r" \(\d+ so far\): elements that share one span pair with every element"
        r" of the other side and the work grows with the square; raise the"
        r" limit with --max-pairs N\n",
        err,
    ), err
    code, out, err = invoke(["score", p, p, "-m", "-q", "--max-pairs", "1600"])
    assert code == 0
    assert out.split("\n", 1)[1] == api.score(p, p, mentions=True).to_text()


def test_shared_span_coref(tmp_path):
    p = shared_span_corpus(tmp_path, 40)
    code, out, err = invoke(["coref", p, p, "-q", "--max-pairs", "1000"])
    assert code == 2 and err.startswith(
        "acescore: document Q: more than 1000 REF/SYS entity mention pairs"
    )
    code, out, err = invoke(["coref", p, p, "-q", "--max-pairs", "1600", "--format", "json"])
    assert code == 0 and '"aligned": 40' in out


def test_default_pair_limit_stops_a_small_file_quickly(tmp_path):
    p = shared_span_corpus(tmp_path, 1000)  # 1,000,000 pairs, ~230 KB
    assert os.path.getsize(p) < 300_000
    with pytest.raises(AceError, match="more than 100000 REF/SYS entity mention pairs"):
        api.score(p, p)


# ---- output faults ----------------------------------------------------------------------------


def read_only_folder(tmp_path) -> str:
    if os.geteuid() == 0:  # root writes into any folder with mode 555; not here
        return "/sys"
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o555)
    return str(d)


@pytest.mark.parametrize(
    "dest,message",
    [
        ("{tmp}/missing/report.txt", "the folder {tmp}/missing does not exist"),
        ("{ro}/report.txt", "cannot write in the folder {ro}: "),
        ("/dev/full", "every write to this device fails"),
        ("/proc/report.txt", "cannot write in the folder /proc: "),
        ("{tmp}", "is a folder; -o takes a file name"),
    ],
)
@pytest.mark.parametrize("command", ["score", "coref", "events"])
def test_output_destination_checked_before_the_run(tmp_path, dest, message, command, monkeypatch):
    ro = read_only_folder(tmp_path)
    dest = dest.format(tmp=tmp_path, ro=ro)
    import acescore.run.pipeline

    called = []
    monkeypatch.setattr(acescore.run.pipeline, "read_corpus", lambda *a, **k: called.append(1))
    code, out, err = invoke(
        [command, str(EXAMPLES / "ref"), str(EXAMPLES / "sys"), "-q", "-o", dest]
    )
    assert (code, out, called) == (2, "", [])  # nothing was read
    assert err.count("\n") == 1 and message.format(tmp=tmp_path, ro=ro) in err, err


def test_view_folder_checked_before_the_run(tmp_path):
    code, _out, err = invoke(
        ["view", str(EXAMPLES / "ref"), str(EXAMPLES / "sys"), "-O", "/proc/site"]
    )
    assert code == 2 and err == (
        "acescore: /proc/site: cannot write in this folder: No such file or directory\n"
    )


@pytest.mark.slow
def test_failed_write_keeps_the_previous_report(tmp_path, monkeypatch):
    target = tmp_path / "report.txt"
    target.write_text("the complete previous report\n")
    real_write = os.write
    written = []

    def failing_write(fd, data):
        if fd > 2 and written:
            raise OSError(28, "No space left on device")
        n = real_write(fd, bytes(data[:1000]))
        written.append(n)
        return n

    monkeypatch.setattr(os, "write", failing_write)
    code, _out, err = invoke(
        ["score", str(EXAMPLES / "ref"), str(EXAMPLES / "sys"), "-q", "-o", str(target)]
    )
    monkeypatch.undo()
    assert code == 2
    assert err == (
        f"acescore: {target}: cannot write the report: No space left on device"
        " (nothing was written there)\n"
    )
    assert target.read_text() == "the complete previous report\n"
    assert os.listdir(tmp_path) == ["report.txt"]  # no temporary file left
    # and a write that succeeds replaces it whole, keeping its permissions
    target.chmod(0o640)
    code, _out, err = invoke(
        ["score", str(EXAMPLES / "ref"), str(EXAMPLES / "sys"), "-q", "-o", str(target)]
    )
    assert code == 0 and target.read_text().startswith("command line")
    assert (target.stat().st_mode & 0o777) == 0o640 and os.listdir(tmp_path) == ["report.txt"]


@pytest.mark.slow
def test_failed_run_leaves_no_temporary_file(tmp_path):
    bad = tmp_path / "bad.apf.xml"
    bad.write_text("<source_file")
    code, _out, _err = run(["score", str(bad), str(bad), "-o", str(tmp_path / "r.txt")])
    assert code == 2 and sorted(os.listdir(tmp_path)) == ["bad.apf.xml"]


@pytest.mark.slow
@pytest.mark.parametrize("stderr", ["closed", "/dev/full", "broken pipe"])
def test_failing_standard_error_never_costs_the_report(tmp_path, stderr):
    target = tmp_path / "r.txt"
    args = [
        sys.executable,
        "-m",
        "acescore",
        "score",
        str(EXAMPLES / "ref"),
        str(EXAMPLES / "sys"),
        "-m",
        "-o",
        str(target),
    ]  # -m: warnings on stderr
    if stderr == "closed":
        p = subprocess.run(
            args, stdout=subprocess.PIPE, stderr=None, timeout=120, preexec_fn=lambda: os.close(2)
        )
    elif stderr == "/dev/full":
        with open("/dev/full", "w") as full:
            p = subprocess.run(args, stdout=subprocess.PIPE, stderr=full, timeout=120)
    else:
        r, w = os.pipe()
        os.close(r)
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=w, timeout=120)
        os.close(w)
    assert p.returncode == 0
    want = api.score(str(EXAMPLES / "ref"), str(EXAMPLES / "sys"), mentions=True).to_text()
    assert target.read_text("utf-8").split("\n", 1)[1] == want


@pytest.mark.slow
def test_standard_output_faults(tmp_path):
    ref, sys_ = str(EXAMPLES / "ref"), str(EXAMPLES / "sys")
    with open("/dev/full", "w") as full:
        p = subprocess.run(
            [sys.executable, "-m", "acescore", "score", ref, sys_, "-q"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert p.returncode == 2
    assert p.stderr == "acescore: cannot write to standard output: No space left on device\n"
    p = subprocess.run(
        [sys.executable, "-m", "acescore", "score", ref, sys_, "-q"],
        stdout=None,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    assert p.returncode == 2
    assert p.stderr == "acescore: standard output is closed: use -o FILE for the report\n"
    # a reader that goes away: a quiet exit with status 141
    p = subprocess.Popen(
        [sys.executable, "-m", "acescore", "score", ref, sys_, "-m", "-a", "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    p.stdout.read(100)
    p.stdout.close()
    assert p.wait(timeout=120) == output.EXIT_CLOSED_PIPE
    assert p.stderr.read() == b""


# ---- the conversion commands and --nist-report go through the same checks ---------------------


def test_export_import_and_nist_report_outputs_checked_before_the_run(tmp_path, monkeypatch):
    ref, sys_, src = str(EXAMPLES / "ref"), str(EXAMPLES / "sys"), str(EXAMPLES / "src")
    import acescore.formats

    called = []
    monkeypatch.setattr(acescore.formats, "export_apf", lambda *a, **k: called.append(1))
    code, _out, err = invoke(
        ["export", "--to", "oneie", ref, "--source-dir", src, "-o", "/dev/full"]
    )
    assert (code, called) == (2, [])
    assert err == "acescore: /dev/full: every write to this device fails (/dev/full)\n"
    code, _out, err = invoke(
        [
            "import",
            "--from",
            "oneie",
            str(tmp_path / "p.json"),
            "--source-dir",
            src,
            "-O",
            "/proc/apf",
        ]
    )
    assert code == 2
    assert err == "acescore: /proc/apf: cannot write in this folder: No such file or directory\n"
    import acescore.run.pipeline

    monkeypatch.setattr(acescore.run.pipeline, "read_corpus", lambda *a, **k: called.append(1))
    code, _out, err = invoke(
        [
            "events",
            ref,
            sys_,
            "--convention",
            "oneie",
            "--nist-report",
            str(tmp_path / "missing" / "nist.txt"),
        ]
    )
    assert (code, called) == (2, [])
    assert err == (
        f"acescore: {tmp_path}/missing/nist.txt: the folder {tmp_path}/missing does not exist\n"
    )


@pytest.mark.slow
def test_prediction_file_fifo_is_refused(tmp_path):
    pred = tmp_path / "pred.json"
    os.mkfifo(pred)
    code, out, err = run(
        [
            "import",
            "--from",
            "oneie",
            str(pred),
            "--source-dir",
            str(EXAMPLES / "src"),
            "-O",
            str(tmp_path / "apf"),
        ],
        timeout=60,
    )
    one_line_error(
        code,
        out,
        err,
        r"pred\.json: is a FIFO \(named pipe\), not a prediction"
        r" file$",
    )


def test_a_line_break_in_a_value_stays_one_line(tmp_path):
    """Attribute values are read as written (a newline stays a newline); the message that
    shows one is still one line (found by the fuzz harness: a byte flip made '-' a newline)."""
    p = tmp_path / "a.apf.xml"
    first = re.search(r'SUBTYPE="([^"]*)"', APF)
    p.write_text(APF[: first.start(1)] + "County-or\nDistrict" + APF[first.end(1) :], "utf-8")
    code, out, err = invoke(["events", str(p), str(p), "-q"])
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "(= 'County-or\\nDistrict')" in err, err
