"""The classes of issue "Trust" for the fuzz harness (tests/fuzz_hostile.py, ``--classes
trust``; ``all`` runs them with the others).  Each builds one input in a fresh folder and
says how to run it and what must hold besides the harness's own checks (no traceback, no
internal error, an exit status of the README's table, exit 2 one line, no hang, no
temporary file left, no worker left running):

* ``pipe_path`` (1): crosscheck, with a stand-in NIST tool that opens files as the real one
  does (two-argument ``open``), of REF/SYS files named ``x|``, ``|x``, ``<x``, `` x`` ...
  (positional, ``-r``/``-t`` lists, list files): the command such a name would run never
  runs;
* ``docid_path`` (2): ``import`` of predictions and ``view`` of APF whose DOCIDs are
  ``../../outside/x``, absolute paths, NUL, control characters, 300 characters, ``.``:
  nothing is written outside the output folder;
* ``view_link`` (3): OUT_DIR prepared with links at ``index.html``, ``doc``, ``assets`` or
  among the pages, to a file or folder outside: their targets untouched;
* ``export_big`` (5): ``export`` of huge-but-cheap APF (thousands of mentions, or all on
  one span): ends in time, whole or refused;
* ``docs_file`` (6): ``--docs`` naming a FIFO, /dev/zero, a folder, a missing file, a
  file not in UTF-8: refused (exit 2) without hanging;
* ``signal`` (7): SIGTERM or SIGHUP at a random moment of a run with workers: exit 143 or
  129 (or the run's own status if it had ended), nothing left behind;
* ``startup_int`` (8): Ctrl-C (SIGINT) while a new interpreter starts the program: exit
  130 with the one line ``acescore: interrupted`` (or the run's status);
* ``oom`` (9): a new interpreter under ``ulimit -v`` of 20 to 400 MB: the run's result or
  ``acescore: out of memory ...`` alone, exit 2, no report;
* ``huge_option`` (9): huge option values (``--jobs 10**18``, ``--bootstrap 1e12`` ...):
  refused or done within the time limit;
* ``bad_path`` (9): bytes that are not UTF-8 in ``-o``, ``-O``, inputs, ``--source-dir``,
  ``--docs`` (in a new interpreter under ``LC_ALL=C`` for half of them);
* ``gates`` (10): compare's gates (``--alpha nan``, ``--fail-if-worse ""``, systems with no
  document in common with REF);
* ``hash_seed`` (12): ``coref``/``compare --format json`` in a new interpreter under a random
  PYTHONHASHSEED and ``--jobs``: byte-identical to the first run of the same command.

Classes 4 and 11 and the JSON half of 9 are :data:`fuzz_hostile.IMPORT_CLASSES`.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import stat
from pathlib import Path

TRUST_CLASSES = (
    "pipe_path",
    "docid_path",
    "view_link",
    "export_big",
    "docs_file",
    "signal",
    "startup_int",
    "oom",
    "huge_option",
    "bad_path",
    "gates",
    "hash_seed",
)

OUT_OF_MEMORY = "acescore: out of memory: nothing was written;"

# Opens its -r and -t lists and each file they name with two-argument open, as the NIST
# tool does (a name ending in "|" runs the rest), then prints a report line.
TWO_ARG_OPEN_TOOL = r"""
my %opt = @ARGV;
foreach my $list ($opt{"-r"}, $opt{"-t"}) {
  open (LIST, $list) or die "cannot open list $list";
  while (my $f = <LIST>) {
    $f =~ s/\n//;
    open (FILE, $f) or die "cannot open $f";
    close FILE;
  }
  close LIST;
}
print "The scoring mode parameter set is \"local_2008\":\n";
"""

HOSTILE_DOCIDS = [
    "../../outside/x",
    "../outside/y",
    "/ABS/outside/z",
    "a\x00b",
    "a\nb",
    "x" * 300,
    ".",
    "..",
    ".hidden",
    "a/b/c",
    "\\..\\x",
    "con",
    "\u202e\u0000",
    "-rf",
    "doc|",
]


def snapshot(folder: Path) -> dict:
    """{relative path: bytes, link target or "/dir"} of everything below ``folder``."""
    out: dict = {}
    stack = [folder]
    while stack:
        d = stack.pop()
        for e in sorted(os.scandir(d), key=lambda e: e.name):
            rel = os.path.relpath(e.path, folder)
            if e.is_symlink():
                out[rel] = "->" + os.readlink(e.path)
            elif e.is_dir():
                out[rel] = "/dir"
                stack.append(Path(e.path))
            elif e.is_file():
                out[rel] = Path(e.path).read_bytes()
            else:
                out[rel] = "special"
    return out


def _examples(work: Path, docs: int, sides=("ref", "sys", "src")) -> None:
    from fuzz_hostile import EXAMPLES

    for side in sides:
        (work / side).mkdir(parents=True, exist_ok=True)
        for p in sorted((EXAMPLES / side).iterdir())[:docs]:
            shutil.copy(p, work / side / p.name)


def _outside(work: Path) -> Path:
    """A folder outside every output of the case, with a file: must stay as it is."""
    out = work / "outside"
    out.mkdir()
    (out / "keep.txt").write_text("not acescore's to change\n")
    return out


def make_trust_case(number: int, seed: int, work: Path, kind: str):
    from fuzz_hostile import Case

    rng = random.Random(f"{seed}:{number}:trust2")
    case = Case(number, kind, "", "score", [])
    globals()[f"_{kind}"](rng, work, case)
    return case


def _pipe_path(rng: random.Random, work: Path, case) -> None:
    _examples(work, 1, ("ref", "sys"))
    outside = _outside(work)
    marker = outside / "MARKER"
    name = rng.choice(["x.apf.xml|", "|x.apf.xml", "<x.apf.xml", " x.apf.xml", "x.apf.xml "])
    name = rng.choice([name, "-", "+<x.apf.xml", ">x.apf.xml", "x.apf.xml\t"])
    cmd = work / "ref" / name.strip("|<>+ \t")
    trap = work / "ref" / name
    src = next((work / "ref").iterdir())
    if name.endswith("|") or name.startswith("|"):
        # the command a two-argument open would run: creates the marker
        shutil.copy(src, trap)
        cmd = work / "ref" / name.strip("|")
        if cmd != src:
            cmd.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
            cmd.chmod(cmd.stat().st_mode | stat.S_IXUSR)
    else:
        shutil.copy(src, trap)
    tool = work / "tool.pl"
    tool.write_text(TWO_ARG_OPEN_TOOL)
    how = rng.randrange(3)
    ref = str(trap)
    if how == 1:
        (work / "r.list").write_text(f"{trap}\n")
        ref_args = ["-r", str(work / "r.list")]
    elif how == 2:
        (work / "r.list").write_text(f"{trap}\n")
        ref_args = [str(work / "r.list")]
    else:
        ref_args = [ref]
    sys_args = (
        ["-T", str(next((work / "sys").iterdir()))] if "-r" in ref_args else [str(work / "sys")]
    )
    case.command = "crosscheck"
    case.args = ["crosscheck", *ref_args, *sys_args, "--runs", "1", "-q"]
    case.env = {"ACE_NIST_SCORER": str(tool)}
    case.outside = str(outside)
    case.detail = f"file {name!r} ({['positional', '-r list', 'list file'][how]})"


def _docid_path(rng: random.Random, work: Path, case) -> None:
    from fuzz_hostile import _exports

    outside = _outside(work)
    docid = rng.choice(HOSTILE_DOCIDS).replace("/ABS/outside", str(outside))
    _examples(work, 4, ("src",) if rng.random() < 0.5 else ("ref", "sys", "src"))
    if (work / "ref").exists():  # view of APF with that DOCID (REF and SYS alike)
        for side in ("ref", "sys"):
            p = sorted((work / side).iterdir())[0]
            text = p.read_text("utf-8")
            old = text.split('DOCID="', 1)[1].split('"', 1)[0]
            esc = docid.replace("&", "&amp;").replace("<", "&lt;").replace("\x00", "&#0;")
            p.write_text(text.replace(f'DOCID="{old}"', f'DOCID="{esc}"'), "utf-8")
        case.command = "view"
        case.args = ["view", str(work / "ref"), str(work / "sys"), "--source-dir"]
        case.args += [str(work / "src"), "-O", str(work / "site"), "-q"]
    else:  # import of predictions with that doc_id (and the source's DOCID)
        fmt = rng.choice(["oneie", "dygiepp", "textee"])
        lines = []
        for line in _exports()[fmt].splitlines():
            obj = json.loads(line)
            key = "doc_key" if "doc_key" in obj else "doc_id"
            if obj.get(key) == json.loads(_exports()[fmt].splitlines()[0]).get(key):
                obj[key] = docid
            lines.append(json.dumps(obj))
        (work / "pred.json").write_text("\n".join(lines) + "\n", "utf-8")
        if rng.random() < 0.5:
            sgm = sorted((work / "src").iterdir())[0]
            text = sgm.read_text("utf-8")
            old = text.split("<DOCID>", 1)[1].split("</DOCID>", 1)[0]
            sgm.write_text(text.replace(old, docid.replace("\x00", "")), "utf-8")
        case.command = "import"
        case.args = ["import", "--from", fmt, str(work / "pred.json"), "--source-dir"]
        case.args += [str(work / "src"), "-O", str(work / "out"), "-q"]
    case.outside = str(outside)
    case.detail = f"{case.command} DOCID {docid[:40]!r}"


def _view_link(rng: random.Random, work: Path, case) -> None:
    _examples(work, 2)
    outside = _outside(work)
    site = work / "site"
    site.mkdir()
    where = rng.choice(["index.html", "doc", "assets", "doc/page", "assets/view.css"])
    if where == "doc/page":
        (site / "doc").mkdir()
        page = sorted((work / "ref").iterdir())[0].name.replace(".apf.xml", ".html")
        (site / "doc" / page).symlink_to(outside / "keep.txt")
    elif where == "assets/view.css":
        (site / "assets").mkdir()
        (site / "assets" / "view.css").symlink_to(outside / "keep.txt")
    elif where == "index.html":
        (site / where).symlink_to(outside / rng.choice(["keep.txt", "new.html"]))
    else:
        (site / where).symlink_to(outside, target_is_directory=True)
    case.command = "view"
    case.args = ["view", str(work / "ref"), str(work / "sys"), "--source-dir", str(work / "src")]
    case.args += ["-O", str(site), "-q", "--jobs", rng.choice(["1", "2"])]
    case.outside = str(outside)
    case.detail = f"link at {where}"


def _export_big(rng: random.Random, work: Path, case) -> None:
    from fuzz_hostile import big_apf

    same = rng.random() < 0.4
    n = rng.choice([300, 1000]) if same else rng.choice([2000, 8000])
    (work / "ref").mkdir()
    (work / "src").mkdir()
    (work / "ref" / "BIG.apf.xml").write_text(big_apf("BIG", "ref", n, same_span=same))
    body = "xxxxxxxxx " * (n + 1)
    (work / "src" / "BIG.sgm").write_text(f"<DOC>\n<DOCID>BIG</DOCID>\n{body}\n</DOC>\n")
    case.command = "export"
    fmt = rng.choice(["oneie", "dygiepp", "textee"])
    case.args = ["export", str(work / "ref"), "--to", fmt, "--source-dir", str(work / "src")]
    case.args += ["-q", "-o", str(work / "out.json")]
    case.report = str(work / "out.json")
    case.detail = f"{n} mentions{' on one span' if same else ''} to {fmt}"


def _docs_file(rng: random.Random, work: Path, case) -> None:
    _examples(work, 2, ("ref", "sys"))
    docs = work / "docs.txt"
    what = rng.choice(["fifo", "zero", "folder", "missing", "latin1", "empty", "huge_line"])
    if what == "fifo":
        os.mkfifo(docs)
    elif what == "zero":
        docs.symlink_to("/dev/zero")
    elif what == "folder":
        docs.mkdir()
    elif what == "latin1":
        docs.write_bytes(b"SYNNW_\xe9\n")
    elif what == "empty":
        docs.write_text("")
    elif what == "huge_line":
        docs.write_text("x" * 3_000_000 + "\n")
    case.command = rng.choice(["score", "coref", "view"])
    case.args = [case.command, str(work / "ref"), str(work / "sys"), "--docs", str(docs), "-q"]
    if case.command == "view":
        case.args += ["-O", str(work / "site")]
    case.must_refuse = what in ("fifo", "zero", "folder", "missing", "latin1")
    case.detail = f"--docs {what}"


def _signal(rng: random.Random, work: Path, case) -> None:
    _examples(work, 4)
    command = rng.choice(["score", "score", "view", "coref", "compare"])
    ref, sys_ = str(work / "ref"), str(work / "sys")
    case.command = command
    if command == "view":
        case.args = ["view", ref, sys_, "--source-dir", str(work / "src"), "-O"]
        case.args += [str(work / "site"), "-m"]
    elif command == "compare":
        case.args = ["compare", ref, sys_, sys_, "-o", str(work / "r.txt")]
    else:
        case.args = [command, ref, sys_, "-o", str(work / "r.txt")]
        case.args += ["-m", "-a"] if command == "score" else []
    case.args += ["--jobs", rng.choice(["2", "3"])]
    case.signal = rng.choice([signal.SIGTERM, signal.SIGHUP])
    case.signal_after = rng.uniform(0.05, 1.5)
    case.extra_status = {143 if case.signal == signal.SIGTERM else 129}
    case.detail = f"{signal.Signals(case.signal).name} after {case.signal_after:.2f} s"


def _startup_int(rng: random.Random, work: Path, case) -> None:
    _examples(work, 2)
    case.command = rng.choice(["score", "validate", "coref"])
    case.args = [case.command, str(work / "ref")]
    case.args += [] if case.command == "validate" else [str(work / "sys"), "-q"]
    case.fresh = True
    case.signal = signal.SIGINT
    case.signal_after = rng.uniform(0.0, 0.6)
    # killed by the signal, or Python's traceback, before the interpreter itself reached
    # acescore: in_interpreter_start
    case.extra_status = {130, -signal.SIGINT}
    case.detail = f"SIGINT after {case.signal_after:.2f} s"


def _oom(rng: random.Random, work: Path, case) -> None:
    _examples(work, 4)
    ref, sys_ = str(work / "ref"), str(work / "sys")
    command = rng.choice(["score", "coref", "events", "view", "compare", "export", "validate"])
    case.command = command
    out = ["-o", str(work / "r.txt")]
    if command == "view":
        case.args = ["view", ref, sys_, "-O", str(work / "site"), "-q"]
    elif command == "compare":
        case.args = ["compare", ref, sys_, sys_, "-q", *out]
    elif command == "export":
        case.args = ["export", ref, "--to", "oneie", "--source-dir", str(work / "src"), *out]
    elif command == "validate":
        case.args = ["validate", ref]
    else:
        case.args = [command, ref, sys_, "-q", *out]
        case.args += ["--jobs", "2", "-m"] if command == "score" and rng.random() < 0.5 else []
    if "-o" in case.args:
        case.report = str(work / "r.txt")
    case.fresh = True
    case.limit_mb = rng.choice([20, 40, 60, 80, 100, 120, 160, 200, 250, 300, 400])
    case.detail = f"ulimit -v {case.limit_mb} MB"


def _huge_option(rng: random.Random, work: Path, case) -> None:
    _examples(work, 2, ("ref", "sys"))
    ref, sys_ = str(work / "ref"), str(work / "sys")
    huge = rng.choice(["1e18", str(10**18), str(2**63), str(10**30), "1e12", "999999999999"])
    # (compare's --bootstrap and --ar ranges: issue Trust 9, compare's part, not here yet)
    option = rng.choice(["--jobs", "--max-pairs", "--max-file-size", "--runs", "--show"])
    if option in ("--bootstrap", "--ar"):
        case.command = "compare"
        case.args = ["compare", ref, sys_, sys_, "-q", option, huge]
    elif option in ("--runs", "--show"):
        case.command = "crosscheck"
        case.args = ["crosscheck", ref, sys_, "-q", option, huge]
        tool = work / "tool.pl"
        tool.write_text(TWO_ARG_OPEN_TOOL)
        case.env = {"ACE_NIST_SCORER": str(tool)}
    else:
        case.command = rng.choice(["score", "coref", "view"])
        case.args = [case.command, ref, sys_, "-q", option, huge]
        if case.command == "view":
            case.args += ["-O", str(work / "site")]
    case.detail = f"{case.command} {option} {huge}"


def _bad_path(rng: random.Random, work: Path, case) -> None:
    bad = os.fsdecode(b"x\xff\xfe")
    folder = work / os.fsdecode(b"in\xe9")
    _examples(folder, 2)
    ref, sys_, src = str(folder / "ref"), str(folder / "sys"), str(folder / "src")
    where = rng.choice(["-o", "-O", "inputs", "source", "docs", "list", "missing"])
    case.command = "score"
    if where == "-O":
        case.command = rng.choice(["view", "import"])
    args = {
        "-o": ["score", ref, sys_, "-q", "-o", str(work / f"{bad}.txt")],
        "-O": ["view", ref, sys_, "-q", "-O", str(work / bad)],
        "inputs": ["score", ref, sys_, "-q", "-o", str(work / "r.txt")],
        "source": ["view", ref, sys_, "--source-dir", src, "-q", "-O", str(work / "site")],
        "docs": ["score", ref, sys_, "-q", "--docs", str(work / bad)],
        "list": ["score", str(work / "r.list"), sys_, "-q"],
        "missing": ["coref", str(work / bad), sys_, "-q"],
    }[where]
    if where == "-O" and case.command == "import":
        from fuzz_hostile import _exports

        (work / "pred.json").write_text(_exports()["oneie"], "utf-8")
        args = ["import", "--from", "oneie", str(work / "pred.json"), "--source-dir"]
        args += [src, "-O", str(work / bad), "-q"]
    if where == "docs":
        Path(work / bad).write_text("SYNNW_20030216.0001\n")
    if where == "list":
        Path(work / "r.list").write_bytes(
            b"".join(os.fsencode(p) + b"\n" for p in Path(ref).iterdir())
        )
    case.command = args[0]
    case.args = args
    case.fresh = rng.random() < 0.5
    if case.fresh:
        case.env = {"LC_ALL": rng.choice(["C", "C.UTF-8", "POSIX"])}
    case.detail = f"not UTF-8 in {where}{' ' + case.env['LC_ALL'] if case.fresh else ''}"


def _gates(rng: random.Random, work: Path, case) -> None:
    _examples(work, 2)
    ref, sys_ = str(work / "ref"), str(work / "sys")
    what = rng.choice(["alpha", "worse", "nothing_in_common", "fail_under"])
    case.command = "compare"
    if what == "alpha":
        value = rng.choice(["nan", "NaN", "inf", "-0", "0", "1", "1e-400", "0.05"])
        case.args = ["compare", ref, sys_, sys_, "-q", "--alpha", value]
    elif what == "worse":
        value = rng.choice(["", " ", "edr", "EDR", "nothing", ",", "edr,,val"])
        case.args = ["compare", ref, sys_, sys_, "-q", "--fail-if-worse", value]
    elif what == "nothing_in_common":
        other = work / "other"
        other.mkdir()
        for p in sorted((work / "sys").iterdir()):
            text = p.read_text("utf-8").replace('DOCID="', 'DOCID="ELSEWHERE_')
            (other / p.name).write_text(text, "utf-8")
        case.command = rng.choice(["compare", "score", "coref", "events"])
        case.args = [case.command, ref, str(other), "-q"]
        if case.command == "compare":
            case.args.insert(3, str(other))
    else:
        case.command = "score"
        value = rng.choice(["edr=nan", "edr=", "=50", "edr=50,", "xyz=1", "edr=1e400"])
        case.args = ["score", ref, sys_, "-q", "--fail-under", value]
    case.detail = f"{what}: {case.args[-1]!r}"


#: the first output of each hash_seed command: every later run must give the same bytes
_FIRST: dict = {}


def _hash_seed(rng: random.Random, work: Path, case) -> None:
    _examples(work, 4)
    ref, sys_ = str(work / "ref"), str(work / "sys")
    command = rng.choice(["coref", "compare", "score"])
    case.command = command
    if command == "compare":
        case.args = ["compare", ref, sys_, str(work / "ref"), "-q", "--format", "json"]
    elif command == "score":
        case.args = ["score", ref, sys_, "-q", "--format", "json", "-m"]
    else:
        case.args = ["coref", ref, sys_, "-q", "--format", "json"]
    key = tuple(a.replace(str(work), "WORK") for a in case.args)
    case.args += ["-o", str(work / "r.json")]
    if command != "coref":
        case.args += ["--jobs", rng.choice(["1", "2"])]
    case.report = str(work / "r.json")
    case.fresh = True
    hash_seed = str(rng.randrange(1 << 32))
    case.env = {"PYTHONHASHSEED": hash_seed}
    case.same_as = key
    case.detail = f"PYTHONHASHSEED={hash_seed} {' '.join(case.args[-2:])}"


#: the package's folder: a traceback without a frame in it is the interpreter's own
ACESCORE_DIR = str(Path(__file__).resolve().parent.parent / "acescore")


#: the modules imported before the program's Ctrl-C handler can be set (entry.run sets it
#: first thing; its own module and the package's must be imported to get there)
_FIRST_MODULES = ("__init__.py", "__main__.py", "entry.py", "model/__init__.py", "model/version.py")


def in_interpreter_start(o) -> bool:
    """Ctrl-C while the interpreter itself starts (its ``site`` and ``runpy``) or imports
    the few lines that set the program's handler, before that handler exists: Python's
    own traceback or death by the signal, which no code of acescore can change."""
    err = o.err.rstrip()
    if o.case.kind != "startup_int":
        return False
    if o.status == -signal.SIGINT and not err:
        return True
    frames = re.findall(r'File "' + re.escape(ACESCORE_DIR) + r'/([^"]+)", line \d+, in (\S+)', err)
    return err.endswith("KeyboardInterrupt") and all(
        f in _FIRST_MODULES and where == "<module>" for f, where in frames
    )


def check_trust(o) -> None:
    """What a Trust case must hold besides the harness's checks."""
    c = o.case
    if in_interpreter_start(o):
        o.problems.clear()
        c.detail += " (in the interpreter's own start-up)"
        return
    if c.outside_before is not None and snapshot(Path(c.outside)) != c.outside_before:
        o.problems.append("wrote outside the output folder")
    if c.kind == "startup_int" and o.status == 130 and o.err != "acescore: interrupted\n":
        o.problems.append(f"interrupted with {o.err!r}")
    # died by SIGINT after its one line: CPython ends so (re-raising the signal, which a shell
    # reports as 130) when a KeyboardInterrupt went through code it ran for the start-up
    if o.status == -signal.SIGINT and o.err != "acescore: interrupted\n":
        o.problems.append(f"killed by SIGINT after writing {o.err[-200:]!r}")
    oom = c.kind == "oom" and o.status == 2 and OUT_OF_MEMORY in o.err
    if oom and c.report and Path(c.report).exists():
        o.problems.append("report written although out of memory")
    if c.same_as is not None and o.status == 0:
        data = Path(c.report).read_bytes()
        data = data.replace(os.fsencode(str(Path(c.report).parent)), b"WORK")
        first = _FIRST.setdefault(c.same_as, data)
        if data != first:
            o.problems.append("output differs from the first run of the same command")
