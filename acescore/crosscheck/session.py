"""One crosscheck: the NIST tool (a deterministic copy of it, or the unmodified tool N times)
beside acescore's report, compared.

* Default (``runs=None``): :mod:`acescore.crosscheck.rewriter` derives a deterministic copy
  of the user's tool in a private temporary folder, which is run once; its report must equal
  acescore's byte for byte (the first line, command line and date, excepted).
* ``runs=N``: the tool, its hash order untouched (a known version gets only its D1 repair),
  runs N times with PERL_HASH_SEED 1 ... N; a known version also runs once in the canonical
  order, one more of the orders the tool can take.  Lines that differ between these runs are
  tie lines (docs/rules/determinism.md: ties are broken in hash order); a line where acescore differs
  from run 1 is a tie if that line is a tie line, else a real difference.
"""

from __future__ import annotations

import difflib
import subprocess
from dataclasses import field

from acescore.crosscheck.nist_tool import BANNER, NistRun, Staging, compare_reports, comparison_json
from acescore.crosscheck.rewriter import Derived, UnknownTool, derive, write_copy
from acescore.model.records import dataclass


@dataclass
class Outcome:
    mode: str  # "deterministic" or "runs"
    tool: str
    runs: list  # NistRun, in order
    diffs: list  # SectionDiff: NIST (copy or run 1) vs acescore
    identical: bool  # byte for byte, first line excepted
    derived: Derived | None = None
    tie_lines: int = 0  # lines of run 1 that vary between the NIST runs
    ties: int = 0  # differing lines that are tie lines
    real: int = 0  # differing lines that are not
    section_split: dict = field(default_factory=dict)  # section -> (ties, real)
    canonical: NistRun | None = None  # --runs: one more run, in the canonical order

    @property
    def failure(self) -> str | None:
        for r in self.runs + ([self.canonical] if self.canonical else []):
            if r.failure():
                return r.failure()
        return None

    def exit_code(self) -> int:
        if self.mode == "deterministic" or len(self.runs) < 2:
            return 0 if self.identical else 1
        return 1 if self.real else 0


def body(text: str) -> list:
    """The report's lines without the first (command line and date)."""
    lines = text.splitlines()
    return lines[1:] if lines and lines[0].startswith("command line") else lines


def _raw_body(raw: bytes) -> bytes:
    return raw.split(b"\n", 1)[1] if raw.startswith(b"command line") and b"\n" in raw else raw


def varying_lines(reports: list) -> set:
    """Indices (into the first report's body) of the lines that differ in some other run."""
    first = body(reports[0])
    out = set()
    for other in reports[1:]:
        other = body(other)
        if len(other) == len(first):  # the usual case: compare line by line
            out.update(i for i, (x, y) in enumerate(zip(first, other)) if x != y)
            continue
        sm = difflib.SequenceMatcher(a=first, b=other, autojunk=False)
        for tag, i1, i2, _j1, _j2 in sm.get_opcodes():
            if tag == "equal":
                continue
            if i1 == i2:  # lines only in the other run: the neighbours vary
                out.update(i for i in (i1 - 1, i1) if 0 <= i < len(first))
            out.update(range(i1, i2))
    return out


def split_ties(nist: str, ours: str, varying: set) -> tuple[int, int, dict]:
    """Lines where ``ours`` differs from the NIST report, split into ties (at a line that
    varies between NIST runs) and real differences; and the same per section."""
    a, b = body(nist), body(ours)
    sections = _section_of_lines(a)
    ties = real = 0
    per: dict = {}
    if len(a) == len(b):
        ops = [("replace", i, i + 1, i, i + 1) for i, (x, y) in enumerate(zip(a, b)) if x != y]
    else:
        ops = difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i = i1 + k if i1 + k < i2 else max(i1, i2 - 1)
            near = {i} if i1 < i2 else {i1 - 1, i1}
            tie = bool(near & varying)
            sec = sections[min(i, len(sections) - 1)] if sections else "header"
            t, r = per.get(sec, (0, 0))
            per[sec] = (t + 1, r) if tie else (t, r + 1)
            if tie:
                ties += 1
            else:
                real += 1
    return ties, real, per


def _section_of_lines(lines: list) -> list:
    name = "header"
    seen: dict = {}
    out = []
    for ln in lines:
        m = BANNER.match(ln.strip())
        if m:
            name = m.group(1)
            seen[name] = seen.get(name, 0) + 1
            name += "'" * (seen[name] - 1)
        out.append(name)
    return out


def check_compiles(copy: str, tool: str) -> None:
    """``perl -c`` on the derived copy: a copy that does not compile is the rewriter's
    fault, not the tool's, and is said so."""
    proc = subprocess.run(
        ["perl", "-c", copy], capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False
    )
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        raise UnknownTool(tool, f"the derived copy does not compile ({last})")


def crosscheck(
    tool: str,
    ref_paths: list,
    sys_paths: list,
    flags: list,
    ours: str,
    runs: int | None = None,
    show: int = 3,
    timeout: float | None = None,
    derived: Derived | None = None,
    versions: dict | None = None,
    args_for=None,
    save_nist: str | None = None,
) -> Outcome:
    """Run the NIST tool beside acescore's report ``ours`` (the report without its first
    line, as :meth:`Results.to_text` gives it).  Raises :class:`rewriter.UnknownTool` in
    the default mode when the tool is not a version the rewriter knows."""
    with Staging() as st:
        rl = st.stage("ref", ref_paths)
        sl = st.stage("sys", sys_paths)
        args = (args_for or (lambda r, s, f: ["-r", r, "-t", s, *f]))(rl, sl, flags)
        if runs is None:
            derived = derived or derive(tool, versions)
            copy = write_copy(derived, st.dir)
            check_compiles(copy, tool)
            results = [st.run(copy, args, timeout)]
        else:
            # hash order untouched; a known version gets its defect repairs (D1), without
            # which it dies on most inputs with symmetric relations
            try:
                derived = derive(tool, versions, repairs_only=True)
                if not derived.applied:
                    derived = None
            except UnknownTool:
                derived = None
            run_tool = write_copy(derived, st.dir) if derived else tool
            results = [st.run(run_tool, args, timeout, seed=s) for s in range(1, runs + 1)]
            # and once in the canonical order: one more of the orders the tool may take,
            # so a line where only the hash order differs is never called real
            canonical = None
            if derived is not None and runs > 1:
                full = derive(tool, versions)
                copy = write_copy(full, st.dir)
                check_compiles(copy, tool)
                canonical = st.run(copy, args, timeout)
    first = results[0]
    if save_nist:
        with open(save_nist, "wb") as fh:
            fh.write(first.raw)
    out = Outcome("deterministic" if runs is None else "runs", tool, results, [], False, derived)
    if runs is not None:
        out.canonical = canonical
    if out.failure:
        return out
    out.diffs = compare_reports(first.stdout, ours, show)
    out.identical = _raw_body(first.raw) == ours.encode("utf-8")
    if runs is not None and runs > 1:
        others = [out.canonical.stdout] if out.canonical else []
        varying = varying_lines([r.stdout for r in results] + others)
        out.tie_lines = len(varying)
        out.ties, out.real, out.section_split = split_ties(first.stdout, ours, varying)
    else:
        out.real = sum(d.differing_lines for d in out.diffs)
    return out


def describe_tool(out: Outcome) -> str:
    if out.mode == "deterministic":
        d = out.derived
        how = (
            "SHA-256 of a known release"
            if d.recognised_by == "sha256"
            else ("its structure (not a known release: SHA-256 " + d.sha256[:16] + "...)")
        )
        return (
            f"NIST tool: {out.tool} ({d.version.name}, recognised by {how}); deterministic"
            f" copy: {len(d.applied)} hash traversals in canonical order; compared byte for byte,"
            " first line excepted"
        )
    seeds = ", ".join(str(r.seed) for r in out.runs)
    d = out.derived
    what = (
        "unmodified"
        if d is None
        else (
            f"{d.version.name}, hash order untouched; only its defect repair applied"
            f" ({len(d.applied)} each() loops of make_doc_relation_symmetric, 05-determinism D1)"
        )
    )
    return f"NIST tool: {out.tool} ({what}), {len(out.runs)} run(s) with PERL_HASH_SEED {seeds}"


#: the versions whose report acescore reproduces (``score --nist``)
REPRODUCED = ("ace08-eval-v08", "ace07-eval-v01", "ace05-eval-v14")


def format_text(out: Outcome) -> str:
    lines = [describe_tool(out)]
    if out.derived and out.derived.version.name not in REPRODUCED:
        lines.append(
            f"note: acescore reproduces {', '.join(REPRODUCED)}; this is"
            f" {out.derived.version.name}, whose report differs by design"
        )
    multi = out.mode == "runs" and len(out.runs) > 1
    if multi:
        also = " (and one more in the canonical order)" if out.canonical else ""
        lines.append(
            f"tie lines: {out.tie_lines} lines differ between the NIST tool's own runs{also}"
        )
    for d in out.diffs:
        if not d.differing_lines:
            state = "identical"
        else:
            state = (
                f"{d.differing_lines} of {d.lines} lines, {d.differing_cells} of {d.cells}"
                " cells differ"
            )
            if multi:
                t, r = out.section_split.get(d.name, (0, 0))
                state += f" ({t} at tie lines, {r} real)"
        lines.append(f"{d.name:32s} {state}")
        for ln, x, y in d.examples:
            lines.append(f"    line {ln}:\n      NIST:     {x}\n      acescore: {y}")
    total = sum(d.lines for d in out.diffs)
    bad = sum(d.differing_lines for d in out.diffs)
    if out.identical:
        lines.append(f"identical: {total} lines")
    elif multi:
        lines.append(
            f"real differences: {out.real} lines; {out.ties} more differ only at tie"
            f" lines (of {total} lines)"
        )
        if out.real:
            lines.append(
                f"(a line is real when all {len(out.runs)} runs agreed on it; more runs"
                " can show more ties)"
            )
    elif bad:
        lines.append(f"differs: {bad} of {total} lines")
    else:
        lines.append(f"differs: byte for byte only (line ends or trailing text), {total} lines")
    return "\n".join(lines) + "\n"


def outcome_json(out: Outcome) -> dict:
    d = out.derived
    info = {
        "mode": out.mode,
        "tool": out.tool,
        "runs": [{"seed": r.seed, "status": r.status} for r in out.runs],
        "byte_identical": out.identical,
    }
    if d is not None:
        info.update(
            version=d.version.name,
            sha256=d.sha256,
            recognised_by=d.recognised_by,
            rewritten_traversals=len(d.applied),
            repairs_only=d.repairs_only,
        )
    if out.mode == "runs" and len(out.runs) > 1:
        info.update(
            tie_lines=out.tie_lines,
            differing_at_tie_lines=out.ties,
            real_differences=out.real,
            canonical_run=out.canonical is not None,
        )
    return info


def to_json(out: Outcome, signature: str, inputs) -> dict:
    """``crosscheck --format json``: the sections (as before) and how the NIST tool ran."""
    data = comparison_json(out.diffs, signature, inputs)
    data["identical"] = out.identical
    data["nist"] = outcome_json(out)
    return data
