"""Determinism: ``acescore score`` gives byte-identical output (the first line, with date and
command, excepted) under different Python hash seeds (PYTHONHASHSEED=0, 1, 2) and with the
input files listed in reverse order -- for a valid corpus (text report with all diagnostics,
JSON) and, in lenient mode, for a broken one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # subprocesses under several hash seeds

HERE = Path(__file__).parent.parent
TINY = HERE / "data" / "golden" / "tiny"
ROBUST = HERE / "data" / "robust"
sys.path.insert(0, str(ROBUST))
import make_robust  # noqa: E402


def lists(folder: Path, tmp: Path, ref: str, sys_: str) -> dict:
    """List files in file order and in reverse order (absolute paths)."""
    out = {}
    for name, spec in (("ref", ref), ("sys", sys_)):
        paths = sorted(str(p) for p in (folder / spec).glob("*.apf.xml"))
        fwd, rev = tmp / f"{name}.list", tmp / f"{name}.rev.list"
        fwd.write_text("".join(p + "\n" for p in paths))
        rev.write_text("".join(p + "\n" for p in reversed(paths)))
        out[name] = (str(fwd), str(rev))
    return out


def run(args, seed: str, cwd=None) -> str:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    p = subprocess.run(
        [sys.executable, "-m", "acescore", "score"] + args,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    return p.stdout


def body(text: str) -> str:
    return text.split("\n", 1)[1]


def without_inputs(text: str) -> str:
    """A JSON report without its ``inputs`` (the list files differ from order to order)."""
    import json

    d = json.loads(text)
    d.pop("inputs")
    return json.dumps(d)


@pytest.mark.parametrize(
    "flags",
    [["-m", "-d", "-a", "-s"], ["-m", "--format", "json"], ["-P", "global_2008", "-e"]],
    ids=["text-m-d-a-s", "json", "global_2008-e"],
)
def test_hash_seeds_and_file_order(flags, tmp_path):
    ls = lists(TINY, tmp_path, "ref", "sys-heavy")
    fwd = [ls["ref"][0], ls["sys"][0]] + flags
    rev = [ls["ref"][1], ls["sys"][1]] + flags
    outputs = {f"seed={s}": run(fwd, s) for s in ("0", "1", "2")}
    outputs["reversed"] = run(rev, "0")
    if "json" not in flags:
        outputs = {k: body(v) for k, v in outputs.items()}
    else:
        outputs = {k: without_inputs(v) for k, v in outputs.items()}
    first = outputs["seed=0"]
    assert len(first) > 1000
    for k, v in outputs.items():
        assert v == first, f"output differs for {k}"


def test_lenient_hash_seeds_and_file_order(tmp_path):
    """A corpus with problems on both sides, in lenient mode (text on stdout, summary on
    standard error): same report and same skip summary under every seed and order."""
    d = tmp_path / "corpus"
    make_robust.write_case("combined", "broken", str(d))
    ls = lists(d, tmp_path, "ref", "sys")
    outs = {}
    for key, (r, s_, seed) in {
        "0": (0, 0, "0"),
        "1": (0, 0, "1"),
        "2": (0, 0, "2"),
        "rev": (1, 1, "0"),
    }.items():
        args = [ls["ref"][r], ls["sys"][s_], "-m", "--lenient", "--format", "json"]
        outs[key] = without_inputs(run(args, seed))
    for k, v in outs.items():
        assert v == outs["0"], f"lenient JSON differs for {k}"
    assert '"skipped"' in outs["0"]


def test_file_order_with_unevaluated_documents():
    """SYS documents without REF document give warnings in file order (standard error, as
    the NIST tool); the JSON report lists them in a canonical order."""
    from acescore import api

    ref = [str(p) for p in sorted((ROBUST / "local" / "ref").glob("*.apf.xml"))][:1]
    sys_ = [str(p) for p in sorted((ROBUST / "local" / "sys").glob("*.apf.xml"))]
    a = api.score(ref, sys_, "local_2008", True)
    b = api.score(ref, sys_[::-1], "local_2008", True)
    assert sum("unevaluated document" in w for w in a.warnings) == 2
    assert a.warnings != b.warnings
    assert a.to_json() == b.to_json()
    assert a.to_text() == b.to_text()
