"""Fuzz harness for hostile input and output faults (issue 15).

Each input is the bundled example corpus (examples/: four REF and four SYS documents and
their sources) with one fault, run through one command as a real process (forked from this
one, which has imported acescore already, so a run costs no interpreter start-up):

* ``flip``: bytes of one APF file changed at random;
* ``trunc``: one APF file cut at a random byte;
* ``attr``: an attribute of one APF file deleted, repeated in another case, or given a
  hostile value (empty, huge, negative, full-width digits, ``6_1``, ``+61``, NaN, control
  characters, 10,000 characters ...);
* ``elem``: an element deleted, duplicated, renamed, moved into another one, or given text;
* ``decl``: another XML declaration / DOCTYPE (encodings spelled every way, blanks, padding,
  BOMs, entity declarations inside and outside comments and CDATA ...);
* ``special``: a FIFO, a link to /dev/zero, a dangling link, a link loop, a folder named
  ``x.apf.xml``, a FIFO as list file or as source document, a deep folder tree;
* ``output``: ``-o`` into a missing or read-only folder, /dev/full, /proc, a folder, over a
  previous report; standard output on /dev/full, closed, or a pipe closed by its reader;
  standard error closed, on /dev/full, or a closed pipe.

Classes of issue "Trust" (``--classes import``; tests/test_trust_import.py runs a share):

* ``json_type``: a prediction of acescore's own export (OneIE, DyGIE++, TextEE; OneIE also
  with a ``graph``) with one value replaced by one of another JSON type;
* ``json_nest``: one value replaced by arrays or objects nested 50 to 100,000 deep;
* ``json_dup``: a line repeated (the same document or window twice: must be refused);
* ``json_empty``: an empty prediction file, or blank lines only (must be refused);
* ``metrics_huge``: huge-but-cheap APF (:func:`big_apf`: thousands of one-mention entities
  and event mentions, or all on one span) through ``coref``, ``events`` and ``score``.

Classes 1-12 of issue "Trust" (``--classes trust``): :data:`fuzz_trust.TRUST_CLASSES`
(tests/fuzz_trust.py: links, DOCIDs that name paths, pipes in paths, signals, Ctrl-C at
start-up, memory limits, huge option values, paths not in UTF-8, gates, hash seeds).  Every
input is also checked for temporary files left (``.part``, the view's staging folder,
anything in the run's TMPDIR) and processes of the run left running.

Commands: ``score`` (random options: -m -d -a -e -s --lenient --format -P --jobs),
``coref``, ``events``, ``validate`` and ``view``.  Every run must end within the time limit
(20 s), never print a traceback or an internal error, exit with a status of the README's
table for that command (score 0/2/3, validate 0/1/2, the others 0/2; 141 for a closed
standard output pipe), write exactly one line when the status is 2 (``validate``: one line
per unusable path and its summary line), and leave a report
that is whole (or the previous one) where ``-o`` pointed.

Usage::

    python tests/fuzz_hostile.py [-n 5000] [--seed 1] [--timeout 20] [--json out.json]
        [--classes files|import|trust|all]

``tests/test_hostile_fuzz.py`` runs a smaller number of inputs in the suite.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_trust import TRUST_CLASSES, check_trust, make_trust_case, snapshot

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CLASSES = ("flip", "trunc", "attr", "elem", "decl", "special", "output")
# issue "Trust": hostile import predictions and huge-but-cheap inputs of the metrics
IMPORT_CLASSES = ("json_type", "json_nest", "json_dup", "json_empty", "metrics_huge")
MUST_REFUSE = ("json_dup", "json_empty")  # exit 2 required, not only allowed
ALLOWED = {
    "score": {0, 2, 3},
    "validate": {0, 1, 2},
    "coref": {0, 2},
    "events": {0, 2},
    "view": {0, 2},
    "import": {0, 2},
    "export": {0, 2},
    "compare": {0, 2, 3},
    "crosscheck": {0, 1, 2},
}
EXIT_CLOSED_PIPE = 141
PREVIOUS = "a complete previous report\n"
DOCS = 2  # documents a side taken from examples/ (a run takes < 1 s)

HOSTILE_VALUES = [
    "",
    " ",
    "-1",
    "0",
    "1e309",
    "nan",
    "NaN",
    "inf",
    "9" * 40,
    "-0",
    "\uff16\uff11",
    "6_1",
    "+61",
    " 61 ",
    "0x10",
    "\u0661\u0662",
    "1.5",
    "\x01",
    "x" * 10000,
    "PER",
    "ORG",
    "NAM",
    "Arg-1",
    "TRUE",
    "FALSE",
    "&amp;",
    "&lt;&gt;",
    "\u202e",
    "\ud7ff",
    "E1",
    "Q-E1",
]
DECLS = [
    '<?xml version="1.0"?>',
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<?xml version="1.0" encoding=""?>',
    '<?xml version="1.0" encoding=?>',
    '<?xml version="1.0" encoding = "UTF-8"?>',
    '<?xml version="1.0" encoding = "latin1"?>',
    '<?xml version="1.0" encoding="ISO-8859-1"?>',
    "<?xml version='1.0' encoding='utf8'?>",
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<?xml version="1.0" encoding="bogus"?>',
    '<?xml version="1.0" encoding="US-ASCII"?>',
    '<?xml version="1.1" encoding="UTF-8"?>',
    '<?xml version="1.0" standalone="yes"?>',
    '<?xml version="1.0" encoding="UTF-8" ?>',
    '<?xml  version="1.0"' + " " * 300 + 'encoding="latin1"?>',
    '<?xml version="1.0"' + " " * 300 + 'encoding="UTF-8"?>',
    '<?xml version="1.0" encoding="utf-8"?',
    '<?xml encoding="UTF-8"?>',
    "<?xml?>",
    '<?xml version="1.0" encoding="UTF-8"?><?xml version="1.0"?>',
    "",
]
PREFIXES = [b"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\n\n", b" ", b"\x00"]
DOCTYPES = [
    "",
    '<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">',
    '<!DOCTYPE source_file SYSTEM "apf.v5.2.0.dtd">',
    '<!DOCTYPE source_file SYSTEM "http://example.invalid/apf.dtd">',
    '<!DOCTYPE source_file [<!ENTITY x "y">]>',
    '<!DOCTYPE source_file [<!-- <!ENTITY x "y"> -->]>',
    '<!-- <!ENTITY lol "lol"> &nbsp; --><!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">',
    '<!DOCTYPE source_file [<!ENTITY a "&b;&b;"><!ENTITY b "&a;&a;">]>',
    '<!DOCTYPE source_file SYSTEM "file:///etc/passwd">',
]


@dataclass
class Case:
    number: int
    kind: str
    detail: str
    command: str
    args: list
    stdout: str = "file"  # file | full | closed | pipe
    stderr: str = "file"  # file | full | closed | pipe
    report: str = ""  # the -o target whose integrity is checked
    previous: bool = False  # a previous report stands at ``report``
    env: dict = field(default_factory=dict)  # set in the run's environment
    fresh: bool = False  # run in a new interpreter (exec), not in the forked harness
    limit_mb: int = 0  # ulimit -v of the run (fresh), MB
    signal: int = 0  # sent to the run ``signal_after`` seconds after it starts
    signal_after: float = 0.0
    extra_status: set = field(default_factory=set)  # allowed besides the command's
    must_refuse: bool = False  # exit 2 required
    outside: str = ""  # a folder no run may change (snapshot before and after)
    outside_before: dict | None = None
    same_as: tuple | None = None  # hash_seed: the key of the runs whose output must agree


@dataclass
class Outcome:
    case: Case
    status: int
    seconds: float
    out: str
    err: str
    problems: list = field(default_factory=list)


# ---- building inputs ------------------------------------------------------------------------


def big_apf(docid: str, side: str, n: int, events: bool = True, same_span: bool = False) -> str:
    """Huge-but-cheap APF (the metrics' class): ``n`` entities of one mention each, heads
    10 characters apart (``same_span``: all on one span), and as many event mentions on
    the same spans, each with its mention as argument; sides ``ref`` and ``sys`` differ in
    their IDs only.  20,000: a 16 MB file."""
    p = "R" if side == "ref" else "S"
    out = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE source_file SYSTEM "apf.v5.1.1.dtd">',
        f'<source_file URI="{docid}.sgm" SOURCE="newswire" TYPE="text" AUTHOR="LDC"'
        ' ENCODING="UTF-8">',
        f'<document DOCID="{docid}">',
    ]
    for i in range(n):
        s = 0 if same_span else 10 * i
        cs = f'<charseq START="{s}" END="{s + 4}">xxxxx</charseq>'
        out.append(
            f'<entity ID="{p}-E{i}" TYPE="PER" SUBTYPE="Individual" CLASS="SPC">'
            f'<entity_mention ID="{p}-E{i}-1" TYPE="NAM" LDCTYPE="NAM">'
            f"<extent>{cs}</extent><head>{cs}</head></entity_mention></entity>"
        )
    for i in range(n if events else 0):
        s = 0 if same_span else 10 * i
        cs = f'<charseq START="{s}" END="{s + 4}">xxxxx</charseq>'
        out.append(
            f'<event ID="{p}-EV{i}" TYPE="Life" SUBTYPE="Die" MODALITY="Asserted"'
            ' POLARITY="Positive" GENERICITY="Specific" TENSE="Past">'
            f'<event_argument REFID="{p}-E{i}" ROLE="Victim"/>'
            f'<event_mention ID="{p}-EV{i}-1"><extent>{cs}</extent>'
            f'<anchor>{cs}</anchor><event_mention_argument REFID="{p}-E{i}-1"'
            f' ROLE="Victim"><extent>{cs}</extent></event_mention_argument>'
            "</event_mention></event>"
        )
    out += ["</document>", "</source_file>", ""]
    return "\n".join(out)


def _apf_files(work: Path) -> list:
    return sorted(
        p for side in ("ref", "sys") for p in (work / side).iterdir() if p.name.endswith(".apf.xml")
    )


def _mutate_attr(text: str, rng: random.Random) -> tuple:
    attrs = list(re.finditer(r'(\s)([A-Za-z_]+)="([^"]*)"', text))
    m = rng.choice(attrs)
    op = rng.randrange(4)
    if op == 0:
        return text[: m.start()] + text[m.end() :], f"delete {m.group(2)}"
    if op == 1:
        dup = f' {m.group(2).lower()}="{m.group(3)}x"'
        return text[: m.end()] + dup + text[m.end() :], f"repeat {m.group(2)} in lower case"
    v = rng.choice(HOSTILE_VALUES)
    v_xml = v.replace("&", "&amp;") if "&" in v and rng.random() < 0.5 else v
    v_xml = v_xml.replace('"', "&quot;")
    return (text[: m.start(3)] + v_xml + text[m.end(3) :], f"{m.group(2)}={v[:20]!r}")


def _mutate_elem(data: bytes, rng: random.Random) -> tuple:
    from lxml import etree

    root = etree.fromstring(
        data, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    )
    nodes = [n for n in root.iter() if isinstance(n.tag, str) and n is not root]
    n = rng.choice(nodes)
    parent = n.getparent()
    op = rng.randrange(6)
    if op == 0:
        parent.remove(n)
        what = "delete"
    elif op == 1:
        parent.insert(parent.index(n), etree.fromstring(etree.tostring(n)))
        what = "duplicate"
    elif op == 2:
        n.tag = rng.choice(
            [
                "entity",
                "relation",
                "event",
                "value",
                "timex2",
                "charseq",
                "head",
                "extent",
                "document",
                "source_file",
                "bogus",
                "Entity",
            ]
        )
        what = f"rename to {n.tag}"
    elif op == 3:
        other = rng.choice(nodes)
        if other is n or n in other.iterancestors() or other in n.iter():
            parent.remove(n)
            what = "delete"
        else:
            parent.remove(n)
            other.append(n)
            what = f"move into {other.tag}"
    elif op == 4:
        n.text = rng.choice(["", "x" * 5000, "\u0000".replace("\u0000", "?"), "12", "<>&"])
        what = "text"
    else:
        for c in list(n):
            n.remove(c)
        what = "empty"
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8"), f"{n.tag}: {what}"


def _options(rng: random.Random) -> list:
    opts = []
    for flag in ("-m", "-d", "-a", "-e", "-s"):
        if rng.random() < 0.3:
            opts.append(flag)
    if rng.random() < 0.3:
        opts.append("--lenient")
    if rng.random() < 0.3:
        opts += ["--format", rng.choice(["json", "csv"])]
    if rng.random() < 0.3:
        opts += ["-P", rng.choice(["local_2007", "global_2008", "global_2008_with_mentions"])]
    if rng.random() < 0.3:
        opts += ["--jobs", rng.choice(["1", "2", "3"])]
    if rng.random() < 0.1:
        opts += ["--fail-under", rng.choice(["edr=50", "rdr=99", "emd=1e3", "edr=nan"])]
    if rng.random() < 0.05:
        opts += ["--max-file-size", rng.choice(["-1", "0", "100", "99999999"])]
    return opts


def _command(rng: random.Random, work: Path) -> tuple:
    r = rng.random()
    ref, sys_ = str(work / "ref"), str(work / "sys")
    if r < 0.65:
        return "score", ["score", ref, sys_, "-q"] + _options(rng)
    if r < 0.77:
        return "validate", ["validate", rng.choice([ref, sys_]), "--source-dir", str(work / "src")]
    if r < 0.87:
        return "coref", ["coref", ref, sys_, "-q"] + (
            ["--format", "json"] if rng.random() < 0.5 else []
        )
    if r < 0.97:
        return "events", ["events", ref, sys_, "-q"]
    return "view", [
        "view",
        ref,
        sys_,
        "--source-dir",
        str(work / "src"),
        "-O",
        str(work / "site"),
        "-q",
    ] + (["-m"] if rng.random() < 0.5 else [])


def make_case(number: int, seed: int, work: Path, classes: tuple = CLASSES) -> Case:
    """Write input ``number`` (of class ``classes[number % len(classes)]``) into ``work``
    (a fresh folder) and return how to run it."""
    rng = random.Random(f"{seed}:{number}")
    if classes[number % len(classes)] in TRUST_CLASSES:
        return make_trust_case(number, seed, work, classes[number % len(classes)])
    if classes[number % len(classes)] in IMPORT_CLASSES:
        return make_import_case(number, seed, work, classes[number % len(classes)])
    for side in ("ref", "sys", "src"):
        (work / side).mkdir()
        for p in sorted((EXAMPLES / side).iterdir())[:DOCS]:
            shutil.copy(p, work / side / p.name)
    kind = classes[number % len(classes)]
    command, args = _command(rng, work)
    case = Case(number, kind, "", command, args)
    files = _apf_files(work)
    target = rng.choice(files)
    data = target.read_bytes()
    if kind == "flip":
        b = bytearray(data)
        k = rng.choice([1, 1, 2, 5, 50])
        for _ in range(k):
            i = rng.randrange(len(b))
            b[i] = rng.randrange(256) if rng.random() < 0.5 else b[i] ^ (1 << rng.randrange(8))
        target.write_bytes(bytes(b))
        case.detail = f"{target.name}: {k} bytes changed"
    elif kind == "trunc":
        cut = rng.randrange(len(data))
        target.write_bytes(data[:cut])
        case.detail = f"{target.name}: cut at {cut}"
    elif kind == "attr":
        text, what = _mutate_attr(data.decode("utf-8"), rng)
        target.write_bytes(text.encode("utf-8", "surrogatepass"))
        case.detail = f"{target.name}: {what}"
    elif kind == "elem":
        out, what = _mutate_elem(data, rng)
        target.write_bytes(out)
        case.detail = f"{target.name}: {what}"
    elif kind == "decl":
        text = data.decode("utf-8")
        body = re.sub(r"\A<\?xml[^>]*\?>\s*(<!DOCTYPE[^>]*>)?\s*", "", text)
        decl, doctype = rng.choice(DECLS), rng.choice(DOCTYPES)
        pre = rng.choice(PREFIXES) if rng.random() < 0.3 else b""
        if rng.random() < 0.5:  # a character that Latin-1 would read differently
            body = body.replace("</charseq>", "\u00e9</charseq>", 1)
        target.write_bytes(pre + (decl + "\n" + doctype + "\n" + body).encode("utf-8"))
        case.detail = f"{target.name}: {pre!r} {decl[:60]!r} {doctype[:50]!r}"
    elif kind == "special":
        case.detail = _special(rng, work, case)
    else:
        case.detail = _output_fault(rng, work, case)
    return case


_EXPORTS: dict = {}
TYPE_VALUES = [
    [],
    {},
    3,
    -1,
    0,
    "x",
    "",
    None,
    True,
    1.5,
    [[[]]],
    {"a": 1},
    "9" * 30,
    10**30,
    [1, 2],
    ["a", "b", "c"],
    [None],
    {"start": 0},
]


def _exports() -> dict:
    """{format: JSON Lines text} of the examples' REF documents (made once)."""
    if not _EXPORTS:
        from acescore.formats import export_apf

        for fmt in ("oneie", "dygiepp", "textee"):
            _EXPORTS[fmt] = export_apf(str(EXAMPLES / "ref"), str(EXAMPLES / "src"), fmt)
    return _EXPORTS


def _paths(x, prefix=()):
    """Every (path, value) inside a JSON value."""
    out = [(prefix, x)]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(x, list):
        for k, v in enumerate(x):
            out += _paths(v, prefix + (k,))
    return out


def _replace(x, path, value):
    if not path:
        return value
    x[path[0]] = _replace(x[path[0]], path[1:], value)
    return x


def _with_graph(obj: dict) -> dict:
    """A OneIE line as its predict.py writes it: the annotation as a ``graph``."""
    ents = obj.get("entity_mentions", [])
    ids = {m["id"]: k for k, m in enumerate(ents)}
    evs = obj.get("event_mentions", [])
    return {
        "doc_id": obj["doc_id"],
        "sent_id": obj["sent_id"],
        "tokens": obj["tokens"],
        "graph": {
            "entities": [
                [m["start"], m["end"], m["entity_type"], m["mention_type"], 1.0] for m in ents
            ],
            "triggers": [
                [e["trigger"]["start"], e["trigger"]["end"], e["event_type"], 1.0] for e in evs
            ],
            "roles": [
                [t, ids[a["entity_id"]], a["role"], 1.0]
                for t, e in enumerate(evs)
                for a in e["arguments"]
                if a["entity_id"] in ids
            ],
            "relations": [
                [
                    ids.get(r["arguments"][0]["entity_id"], 0),
                    ids.get(r["arguments"][1]["entity_id"], 0),
                    r["relation_type"],
                    1.0,
                    r["relation_subtype"],
                ]
                for r in obj.get("relation_mentions", [])
            ],
        },
    }


def _nested(rng: random.Random):
    d = rng.choice([50, 99, 100, 101, 1000, 100_000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    return opener * d + "1" + closer * d


def make_import_case(number: int, seed: int, work: Path, kind: str) -> Case:
    """Input ``number`` of an IMPORT_CLASSES class ``kind``, written into ``work``."""
    rng = random.Random(f"{seed}:{number}:trust")
    if kind == "metrics_huge":
        return _huge_case(number, rng, work, kind)
    (work / "src").mkdir()
    for p in sorted((EXAMPLES / "src").iterdir()):
        shutil.copy(p, work / "src" / p.name)
    fmt = rng.choice(["oneie", "dygiepp", "textee"])
    lines = _exports()[fmt].splitlines()
    detail = fmt
    if kind == "json_empty":
        text = rng.choice(["", "\n", "\n\n  \n", " "])
        detail += f": {text!r}"
    elif kind == "json_dup":
        k = rng.randrange(len(lines))
        lines.insert(rng.randrange(k + 1, len(lines) + 1), lines[k])
        text = "\n".join(lines) + "\n"
        detail += f": line {k + 1} repeated"
    else:
        k = rng.randrange(len(lines))
        obj = json.loads(lines[k])
        if fmt == "oneie" and rng.random() < 0.3:
            obj = _with_graph(obj)
            detail += " graph"
        path, _ = rng.choice(_paths(obj)[1:])
        if kind == "json_nest":
            marker = "\u0000NEST\u0000"
            line = json.dumps(_replace(obj, path, marker)).replace(json.dumps(marker), _nested(rng))
            detail += f": line {k + 1} {'.'.join(map(str, path))[:60]} nested"
        else:
            value = rng.choice(TYPE_VALUES)
            line = json.dumps(_replace(obj, path, value))
            detail += f": line {k + 1} {'.'.join(map(str, path))[:60]} = {value!r}"[:120]
        lines[k] = line
        text = "\n".join(lines) + "\n"
    (work / "pred.json").write_text(text, encoding="utf-8")
    args = [
        "import",
        "--from",
        fmt,
        str(work / "pred.json"),
        "--source-dir",
        str(work / "src"),
        "-O",
        str(work / "out"),
    ]
    if rng.random() < 0.5:
        args.append("-q")
    return Case(number, kind, detail, "import", args)


def _huge_case(number: int, rng: random.Random, work: Path, kind: str) -> Case:
    n = rng.choice([2000, 5000, 8000])
    same = rng.random() < 0.3
    if same:
        n = rng.choice([400, 1000])  # one span: n x n pairs, over --max-pairs
    for side in ("ref", "sys"):
        (work / side).mkdir()
        (work / side / "BIG.apf.xml").write_text(big_apf("BIG", side, n, same_span=same))
    ref, sys_ = str(work / "ref"), str(work / "sys")
    command = rng.choice(["coref", "events", "events", "score"])
    if command == "coref":
        args = ["coref", ref, sys_, "-q", "--format", "json"]
    elif command == "events":
        args = [
            "events",
            ref,
            sys_,
            "-q",
            "--trigger-match",
            rng.choice(["exact", "overlap"]),
            "--arg-scope",
            rng.choice(["subtype", "trigger"]),
        ]
    else:
        n = min(n, 1000)
        for side in ("ref", "sys"):
            (work / side / "BIG.apf.xml").write_text(big_apf("BIG", side, n, same_span=same))
        args = ["score", ref, sys_, "-q", "--format", "json"]
    return Case(number, kind, f"{n} mentions{' on one span' if same else ''}", command, args)


def _special(rng: random.Random, work: Path, case: Case) -> str:
    side = work / rng.choice(["ref", "sys"])
    op = rng.randrange(9)
    if op == 0:
        os.mkfifo(side / "zz_fifo.apf.xml")
        return "FIFO in a folder"
    if op == 1:
        os.symlink("/dev/zero", side / "zz_zero.apf.xml")
        return "link to /dev/zero"
    if op == 2:
        os.symlink(side / "nowhere.apf.xml", side / "zz_dangling.apf.xml")
        return "dangling link"
    if op == 3:
        os.symlink(side, side / "loop")
        os.symlink(side / "loop", side / "loop2")
        return "link loops"
    if op == 4:
        os.mkdir(side / "zz_dir.apf.xml")
        return "folder named like an APF file"
    if op == 5:
        os.mkfifo(work / "ref.list")
        case.args = [a if a != str(work / "ref") else str(work / "ref.list") for a in case.args]
        return "FIFO as list file"
    if op == 6:
        src = rng.choice(sorted((work / "src").iterdir()))
        os.unlink(src)
        os.mkfifo(src)
        if case.command not in ("validate", "view"):
            case.command, case.args = (
                "view",
                [
                    "view",
                    str(work / "ref"),
                    str(work / "sys"),
                    "--source-dir",
                    str(work / "src"),
                    "-O",
                    str(work / "site"),
                    "-q",
                ],
            )
        return f"FIFO as source document {src.name}"
    if op == 7:
        d = side
        for _ in range(1200):
            d = d / "d"
            os.mkdir(d)
        shutil.copy(next(iter(sorted(side.glob("*.apf.xml")))), d / "deep.apf.xml")
        return "1,200 nested folders"
    lst = work / "ref.list"
    lines = ["# REF", ""] + [f"ref/{p.name}" for p in sorted((work / "ref").iterdir())]
    if rng.random() < 0.5:
        lines.insert(
            rng.randrange(len(lines)),
            rng.choice(["ref/missing.apf.xml", "/nowhere", "ref", "ref.list", "\x00"]),
        )
    lst.write_text("\n".join(lines).replace("\x00", "\\0") + "\n")
    case.args = [a if a != str(work / "ref") else str(lst) for a in case.args]
    return "list file: " + "|".join(lines)[:80]


def _output_fault(rng: random.Random, work: Path, case: Case) -> str:
    if case.command == "validate" or (case.command == "view" and rng.random() < 0.5):
        case.command, case.args = "score", ["score", str(work / "ref"), str(work / "sys")]
    op = rng.randrange(13)
    if case.command == "view":
        case.args = (
            case.args[: case.args.index("-O") + 1]
            + [
                rng.choice(
                    [
                        "/proc/site",
                        str(work / "missing" / "x" / "site"),
                        "/sys/site",
                        str(work / "ref" / "SYNNW_20030216.0001.apf.xml"),
                        "/dev/full",
                    ]
                )
            ]
            + case.args[case.args.index("-O") + 2 :]
        )
        return f"view -O {case.args[case.args.index('-O') + 1]}"
    quiet = [a for a in case.args if a != "-q"]
    if op < 6:
        dest = [
            str(work / "missing" / "r.txt"),
            "/sys/r.txt",
            "/dev/full",
            "/proc/r.txt",
            str(work),
            str(work / "r.txt"),
        ][op]
        case.args = quiet + ["-q", "-o", dest]
        if op == 5:
            (work / "r.txt").write_text(PREVIOUS)
            case.report, case.previous = dest, True
        return f"-o {dest}"
    if op < 9:
        case.stdout = ["full", "closed", "pipe"][op - 6]
        case.args = quiet + ["-q"]
        return f"standard output {case.stdout}"
    case.stderr = ["full", "closed", "pipe", "pipe"][op - 9]
    case.args = quiet + ["-m", "-o", str(work / "r.txt")]  # -m: warnings to write
    case.report = str(work / "r.txt")
    return f"standard error {case.stderr}"


# ---- running one input --------------------------------------------------------------------------


def _child(case: Case, work: Path) -> None:
    os.setpgid(0, 0)
    os.chdir(work)
    os.environ["TMPDIR"] = str(work / "_tmp")  # where the run's spool goes: checked after
    os.environ.update(case.env)
    tempfile.tempdir = None
    for fd, how, name in ((1, case.stdout, "out"), (2, case.stderr, "err")):
        if how == "file":
            f = os.open(work / f"_{name}.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        elif how == "full":
            f = os.open("/dev/full", os.O_WRONLY)
        elif how == "pipe":
            r, f = os.pipe()
            os.close(r)  # nobody will ever read it
        else:
            os.close(fd)
            continue
        os.dup2(f, fd)
        os.close(f)
    # fresh standard streams on the new descriptors, as a new interpreter has them (the
    # parent's may be a test runner's capture objects); None where the descriptor is closed
    sys.stdout = (
        None
        if case.stdout == "closed"
        else io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    )
    sys.stderr = (
        None
        if case.stderr == "closed"
        else io.TextIOWrapper(
            io.FileIO(2, "w", closefd=False),
            encoding="utf-8",
            errors="backslashreplace",
            line_buffering=True,
        )
    )
    if case.fresh:  # a new interpreter: start-up, imports and limits as a user's run has them
        if case.limit_mb:
            limit = case.limit_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execve(sys.executable, [sys.executable, "-m", "acescore", *case.args], env)
    if case.stdout == "pipe" or case.stderr == "pipe":
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python sets it up
    sys.argv = ["acescore"] + case.args
    code = 0
    try:
        from acescore.cli import main

        main(case.args, prog_name="acescore")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:  # reported as such
        import traceback

        with contextlib.suppress(OSError):
            os.write(2, ("Traceback (harness)\n" + traceback.format_exc()).encode())
        code = 99
    try:
        atexit._run_exitfuncs()  # what the interpreter does at exit
        sys.stdout.flush()
    except Exception:
        pass
    os._exit(code)


def _wait(pid: int, timeout: float, case: Case | None = None):
    """(status or None on timeout, seconds, whether processes of the run were left)."""
    t0 = time.monotonic()
    if case is not None and case.signal:
        time.sleep(case.signal_after)
        with contextlib.suppress(OSError):
            os.kill(pid, case.signal)
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    while True:
        left = timeout - (time.monotonic() - t0)
        if fd is not None:
            ready, _, _ = select.select([fd], [], [], max(left, 0))
            done = bool(ready)
        else:
            time.sleep(0.01)
            done = os.waitpid(pid, os.WNOHANG)[0] != 0
            if done:
                os.close(os.open(os.devnull, os.O_RDONLY))
        if done or left <= 0:
            break
    if not done:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        if fd is not None:
            os.close(fd)
        return None, time.monotonic() - t0, False
    _, status = os.waitpid(pid, 0)
    secs = time.monotonic() - t0
    if fd is not None:
        os.close(fd)
    left = _group_alive(pid)
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)  # workers left behind, if any
    return os.waitstatus_to_exitcode(status), secs, left


def _group_alive(pgid: int, grace: float = 5.0) -> bool:
    """Whether processes of the run's group are still running ``grace`` seconds after it
    ended (workers die with their parent: a moment)."""
    end = time.monotonic() + grace
    while True:
        try:
            os.killpg(pgid, 0)
        except OSError:
            return False
        if time.monotonic() > end:
            return True
        time.sleep(0.05)


def run_case(case: Case, work: Path, timeout: float) -> Outcome:
    sys.stdout.flush()
    sys.stderr.flush()
    (work / "_tmp").mkdir(exist_ok=True)
    if case.outside:
        case.outside_before = snapshot(Path(case.outside))
    pid = os.fork()
    if pid == 0:
        _child(case, work)
    status, secs, left = _wait(pid, timeout, case)

    def text(name):
        p = work / f"_{name}.txt"
        return p.read_text("utf-8", "replace") if p.exists() else ""

    o = Outcome(case, status if status is not None else -1, secs, text("out"), text("err"))
    check(o)
    if left:
        o.problems.append("processes of the run left running")
    if status is not None:
        o.problems.extend(leftovers(work))
        check_trust(o)
    return o


def leftovers(work: Path) -> list:
    """Temporary files of a run left in its folder: ``.part`` files, staging folders of
    the view, anything in its TMPDIR."""
    found = []
    stack = [str(work)]
    while stack:
        d = stack.pop()
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            if e.name.endswith(".part") or e.name.startswith((".acescore-view.", ".acescore-")):
                found.append(os.path.relpath(e.path, work))
            if e.is_dir(follow_symlinks=False) and e.name != "outside":
                stack.append(e.path)
    tmp = work / "_tmp"
    if tmp.exists():
        found += [f"$TMPDIR/{n}" for n in os.listdir(tmp)]
    return [f"temporary files left: {found[:5]}"] if found else []


def check(o: Outcome) -> None:
    c = o.case
    both = o.out + o.err
    if o.status == -1:
        o.problems.append("hang")
        return
    if "Traceback" in both:
        o.problems.append("traceback")
    if "internal error" in o.err:
        o.problems.append("internal error")
    if (c.kind in MUST_REFUSE or c.must_refuse) and o.status != 2:
        o.problems.append(f"exit status {o.status}: {c.kind} accepted")
    allowed = set(ALLOWED[c.command]) | c.extra_status
    if c.stdout == "pipe":
        allowed.add(EXIT_CLOSED_PIPE)
    if o.status not in allowed:
        o.problems.append(f"exit status {o.status} not in {sorted(allowed)}")
    ending = {129: "acescore: hangup (the terminal closed)", 130: "acescore: interrupted"}
    ending[143] = "acescore: terminated"
    if (
        o.status in ending
        and c.stderr == "file"
        and o.err.rstrip("\n").split("\n")[-1] != ending[o.status]
    ):  # (warnings written before the signal came may precede the line)
        o.problems.append(f"exit {o.status} without its line")
    if o.status == 2 and c.stderr == "file":
        on_stdout = c.command == "validate" and o.status == 2 and o.out
        shown = [ln for ln in (o.out if on_stdout else o.err).split("\n") if ln]
        if c.command == "validate" and len(shown) > 1 and shown[-1].startswith("validate: "):
            # validate lists every unusable path (one line each), then its summary line
            shown = shown[-1:] if "unusable path" in shown[-1] else shown
        if len(shown) != 1 or (
            c.command != "validate" and o.out not in ("",) and c.stdout == "file"
        ):
            o.problems.append(f"exit 2 with {len(shown)} lines")
    if c.report:
        try:
            got = Path(c.report).read_text("utf-8")
        except OSError:
            got = None
        if o.status in (0, 3):
            if got is None or not _whole(got, c.command, c.args):
                o.problems.append("report missing or not whole")
        elif c.previous and got != PREVIOUS:
            o.problems.append("previous report lost")
    parts = (
        [p.name for p in Path(c.report).parent.iterdir() if p.name.endswith(".part")]
        if c.report
        else []
    )
    if parts:
        o.problems.append(f"temporary files left: {parts}")


def _whole(text: str, command: str, args: list) -> bool:
    if "--format" in args:
        fmt = args[args.index("--format") + 1]
        if fmt == "json":
            try:
                json.loads(text)
                return True
            except ValueError:
                return False
        return text.endswith("\n") and text.count("\n") > 1
    if command == "score":
        return text.startswith("command line") and text.endswith("\n")
    if command == "export":  # JSON Lines
        try:
            return text.endswith("\n") and all(json.loads(ln) for ln in text.splitlines())
        except ValueError:
            return False
    return text.endswith("\n") and text.count("\n") > 1


# ---- the run ------------------------------------------------------------------------------------


def preload() -> None:
    """Import what the commands use once, before the forks (a run then costs no imports)."""
    import importlib

    for name in (
        "acescore.cli",
        "acescore.api",
        "acescore.rules.robust",
        "acescore.rules.validate",
        "acescore.run.parallel",
        "acescore.metrics",
        "acescore.metrics.coref",
        "acescore.metrics.events",
        "acescore.report.data.json_report",
        "acescore.report.nist.nist_report",
        "acescore.view.site",
        "acescore.report.nist.diagnostics",
        "scipy.optimize",
        "tabulate",
        "acescore.formats",
        "acescore.formats.convert",
        "acescore.cli.formats",
        "scipy.sparse.csgraph",
    ):
        importlib.import_module(name)


def fuzz(
    n: int, seed: int = 1, timeout: float = 20.0, start: int = 0, log=None, classes: tuple = CLASSES
) -> dict:
    preload()
    if set(classes) & set(IMPORT_CLASSES):
        _exports()
    summary = {
        "inputs": 0,
        "by_class": {k: 0 for k in classes},
        "by_command": {},
        "exit_status": {},
        "hangs": 0,
        "tracebacks": 0,
        "bad_exit": 0,
        "exit2_not_one_line": 0,
        "report_problems": 0,
        "leftovers": 0,
        "outside_writes": 0,
        "ctrl_c_before_acescore": 0,  # startup_int: in the interpreter's start-up (allowed)
        "max_seconds": 0.0,
        "total_seconds": 0.0,
        "failures": [],
    }
    base = Path(tempfile.mkdtemp(prefix="acescore-fuzz-"))
    try:
        for number in range(start, start + n):
            work = base / str(number)
            work.mkdir()
            case = make_case(number, seed, work, classes)
            o = run_case(case, work, timeout)
            summary["inputs"] += 1
            summary["by_class"][case.kind] += 1
            if case.detail.endswith("(in the interpreter's own start-up)"):
                summary["ctrl_c_before_acescore"] += 1
            summary["by_command"][case.command] = summary["by_command"].get(case.command, 0) + 1
            key = str(o.status)
            summary["exit_status"][key] = summary["exit_status"].get(key, 0) + 1
            summary["max_seconds"] = max(summary["max_seconds"], round(o.seconds, 2))
            summary["total_seconds"] += o.seconds
            for p in o.problems:
                if p == "hang":
                    summary["hangs"] += 1
                elif p in ("traceback", "internal error"):
                    summary["tracebacks"] += 1
                elif p.startswith("exit status"):
                    summary["bad_exit"] += 1
                elif p.startswith("exit "):
                    summary["exit2_not_one_line"] += 1
                elif p.startswith(("temporary files", "processes of the run")):
                    summary["leftovers"] += 1
                elif p.startswith("wrote outside"):
                    summary["outside_writes"] += 1
                else:
                    summary["report_problems"] += 1
            if o.problems:
                failure = {
                    "input": number,
                    "class": case.kind,
                    "detail": case.detail,
                    "args": case.args,
                    "stdout": case.stdout,
                    "stderr": case.stderr,
                    "status": o.status,
                    "problems": o.problems,
                    "err": o.err[-600:],
                    "out": o.out[-300:],
                }
                summary["failures"].append(failure)
                if log is not None:  # at once: a long run's failures can be looked at early
                    log.write(json.dumps(failure) + "\n")
            if log is not None and (number + 1) % 100 == 0:
                log.write(
                    f"{number + 1} inputs, {len(summary['failures'])} failing,"
                    f" {summary['total_seconds']:.0f} s\n"
                )
                log.flush()
            _rmtree(work)
    finally:
        _rmtree(base)
    summary["total_seconds"] = round(summary["total_seconds"], 1)
    return summary


def _rmtree(path: Path) -> None:
    """Remove a folder iteratively (shutil.rmtree recurses: the deep-tree inputs)."""
    stack = [str(path)]
    dirs = []
    while stack:
        d = stack.pop()
        dirs.append(d)
        try:
            entries = list(os.scandir(d))
        except OSError:
            continue
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                stack.append(e.path)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(e.path)
    for d in reversed(dirs):
        with contextlib.suppress(OSError):
            os.rmdir(d)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=5000, help="number of inputs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="number of the first input")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per input")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument(
        "--classes",
        choices=["files", "import", "trust", "all"],
        default="all",
        help="files: the APF and output classes (CLASSES); import: the JSON and metrics"
        " classes of issue Trust (IMPORT_CLASSES); trust: its classes 1-12"
        " (tests/fuzz_trust.py); all: every class",
    )
    a = ap.parse_args()
    classes = {
        "files": CLASSES,
        "import": IMPORT_CLASSES,
        "trust": IMPORT_CLASSES + TRUST_CLASSES,
        "all": CLASSES + IMPORT_CLASSES + TRUST_CLASSES,
    }[a.classes]
    s = fuzz(a.n, a.seed, a.timeout, a.start, log=sys.stderr, classes=classes)
    text = json.dumps(s, indent=1)
    if a.json:
        Path(a.json).write_text(text + "\n")
    print(json.dumps({k: v for k, v in s.items() if k != "failures"}, indent=1))
    for f in s["failures"][:20]:
        print(json.dumps(f))
    bad = (
        s["hangs"]
        + s["tracebacks"]
        + s["bad_exit"]
        + s["exit2_not_one_line"]
        + s["report_problems"]
        + s["leftovers"]
        + s["outside_writes"]
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
