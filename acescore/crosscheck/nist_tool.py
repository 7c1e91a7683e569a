"""Cross-check acescore against a local copy of the NIST tool on the same input.

The NIST tool is named by the environment variable ``ACE_NIST_SCORER`` (a path to
``ace08-eval-v08.pl`` or a copy of it).  Both reports are split into sections at their banner
lines (``======== X scoring ========``) and compared line by line and numeric cell by numeric
cell; the first line (command line and date) is ignored.

An unmodified NIST tool iterates Perl hashes in random order, so where mappings tie its
numbers change from run to run (docs/rules/determinism.md); only a copy that iterates in the
canonical order matches acescore byte for byte.  See the README for how to tell tie
differences from real ones.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import field

from acescore.model.records import dataclass

BANNER = re.compile(r"^======== (.+) ========$")
NUMBER = re.compile(r"^-?\d+(\.\d+)?%?$")


def split_sections(text: str) -> tuple[list, dict]:
    lines = text.splitlines()
    if lines and lines[0].startswith("command line"):
        lines = lines[1:]
    order = ["header"]
    sections = {"header": []}
    name = "header"
    for line in lines:
        m = BANNER.match(line.strip())
        if m:
            name = m.group(1)
            while name in sections:
                name += "'"
            sections[name] = []
            order.append(name)
        sections[name].append(line)
    return order, sections


def _cells(line):
    return [t for t in (line or "").split() if NUMBER.match(t)]


@dataclass
class SectionDiff:
    name: str
    lines: int
    differing_lines: int = 0
    cells: int = 0
    differing_cells: int = 0
    examples: list = field(default_factory=list)


def compare_reports(expected: str, actual: str, show: int = 3) -> list[SectionDiff]:
    eo, es = split_sections(expected)
    ao, as_ = split_sections(actual)
    out = []
    for name in eo + [n for n in ao if n not in es]:
        e, a = es.get(name, []), as_.get(name, [])
        sd = SectionDiff(name, max(len(e), len(a)), cells=sum(len(_cells(x)) for x in e))
        if len(e) == len(a):  # same shape: line by line (moved lines count where they are)
            ops = [("replace", i, i + 1, i, i + 1) for i, (x, y) in enumerate(zip(e, a)) if x != y]
        else:
            ops = difflib.SequenceMatcher(a=e, b=a, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in ops:
            if tag == "equal":
                continue
            eb, ab = e[i1:i2], a[j1:j2]
            for k in range(max(len(eb), len(ab))):
                x = eb[k] if k < len(eb) else None
                y = ab[k] if k < len(ab) else None
                sd.differing_lines += 1
                cx, cy = _cells(x), _cells(y)
                sd.differing_cells += sum(
                    1
                    for n in range(max(len(cx), len(cy)))
                    if n >= len(cx) or n >= len(cy) or cx[n] != cy[n]
                )
                if len(sd.examples) < show:
                    sd.examples.append((i1 + k + 1, x, y))
        out.append(sd)
    return out


def nist_flags(
    params: str,
    mentions: bool,
    doc_scores: bool,
    all_mappings: bool,
    error_mappings: bool,
    summary: bool,
) -> list[str]:
    flags = ["-P", params] if params != "local_2008" else []
    for on, f in (
        (mentions, "-m"),
        (doc_scores, "-d"),
        (all_mappings, "-a"),
        (error_mappings, "-e"),
        (summary, "-s"),
    ):
        if on:
            flags.append(f)
    return flags


def comparison_json(diffs: list, signature: str, inputs) -> dict:
    """``crosscheck --format json``: every section with its line and cell counts."""
    return {
        "signature": signature,
        "inputs": inputs,
        "identical": not any(d.differing_lines for d in diffs),
        "lines": sum(d.lines for d in diffs),
        "differing_lines": sum(d.differing_lines for d in diffs),
        "sections": [
            {
                "name": d.name,
                "lines": d.lines,
                "differing_lines": d.differing_lines,
                "cells": d.cells,
                "differing_cells": d.differing_cells,
                "examples": [{"line": ln, "nist": x, "acescore": y} for ln, x, y in d.examples],
            }
            for d in diffs
        ],
    }


EXIT_NIST_FAILED = 4  # crosscheck: the NIST tool itself failed (no report to compare)


@dataclass
class NistRun:
    """What the NIST tool did: its report (standard output), standard error, exit status."""

    stdout: str
    stderr: str
    status: int
    raw: bytes = b""  # standard output as the tool wrote it
    seed: int | None = None  # PERL_HASH_SEED of the run, when acescore set one

    def failure(self) -> str | None:
        """Why there is no report to compare with, or None: the tool's exit status and its
        last error (the last line of standard error with ``ERROR`` in it and the lines
        that continue it, in one line; else the last line)."""
        if self.status == 0 and "scoring mode parameter set" in self.stdout.lower():
            return None
        lines = [ln.strip() for ln in self.stderr.splitlines()]
        lines = [ln for ln in lines if ln]
        err = [i for i, ln in enumerate(lines) if "ERROR" in ln]
        # the last ERROR line with the lines that continue it (Perl's die message ends it)
        last = (
            " ".join(" ".join(lines[err[-1] :]).split())
            if err
            else (lines[-1] if lines else "no message on standard error")
        )
        if self.status < 0:
            what = f"killed by signal {-self.status}"
        elif self.status:
            what = f"exit status {self.status}"
        else:
            what = "exit status 0 but no report on standard output"
        return f"the NIST tool failed ({what}): {last}"


# What the tool is handed must never read as anything but a plain file name to Perl's
# two-argument open(): no leading or trailing '|', '<', '>', '+', '-', '&', whitespace.
SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]*[A-Za-z0-9]$")


class Staging:
    """A private temporary folder (mode 0700, removed on exit, also on error) in which the
    NIST tool runs.  The input files are given to it under safe numbered names (symbolic
    links, or copies where links cannot be made) listed in list files of its own, so that
    no path the user chose -- a file named ``x|`` for instance -- reaches the tool's
    two-argument ``open()``, which would run it as a command.  The tool runs with this
    folder as its working directory, and every name it is handed is relative and checked
    against ``SAFE_NAME``."""

    def __init__(self):
        self.dir: str | None = None
        self.names: dict = {}  # safe name -> the user's path

    def __enter__(self) -> Staging:
        self.dir = tempfile.mkdtemp(prefix="acescore-nist-")
        os.chmod(self.dir, 0o700)
        return self

    def __exit__(self, *exc):
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
        return False

    def path(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def stage(self, side: str, paths: list) -> str:
        """Give ``paths`` safe names under ``side/``; write ``side.list``; return its name."""
        os.mkdir(self.path(side), 0o700)
        lines = []
        for i, p in enumerate(paths, 1):
            name = f"{side}/{i:05d}.apf.xml"
            target = os.path.abspath(p)
            try:
                os.symlink(target, self.path(name))
            except (OSError, NotImplementedError):
                shutil.copyfile(target, self.path(name))
            self.names[name] = p
            lines.append(_safe(name) + "\n")
        list_name = _safe(f"{side}.list")
        with open(self.path(list_name), "w", encoding="utf-8") as fh:
            fh.write("".join(lines))
        self.names[list_name] = f"the {side.upper()} list"
        return list_name

    def unstage(self, text: str) -> str:
        """The user's paths in place of the safe names in the tool's messages."""
        for name in sorted(self.names, key=len, reverse=True):
            text = text.replace(name, self.names[name])
        return text

    def run(
        self, tool: str, args: list, timeout: float | None = None, seed: int | None = None
    ) -> NistRun:
        env = dict(os.environ)
        if seed is not None:
            env["PERL_HASH_SEED"] = str(seed)
            env.pop("PERL_PERTURB_KEYS", None)
        for a in args:
            if not a.startswith("-"):
                _safe(a)
        cmd = ["perl", os.path.abspath(tool), *args]
        try:
            proc = subprocess.run(
                cmd,
                capture_output=True,
                timeout=timeout,
                cwd=self.dir,
                env=env,
                stdin=subprocess.DEVNULL,
            )
        except OSError as e:
            return NistRun("", f"cannot run perl: {e.strerror}", 127, seed=seed)
        return NistRun(
            proc.stdout.decode("utf-8", "replace"),
            self.unstage(proc.stderr.decode("utf-8", "replace")),
            proc.returncode,
            proc.stdout,
            seed,
        )


def _safe(name: str) -> str:
    if not SAFE_NAME.match(name) or ".." in name:
        raise ValueError(f"refusing to hand the NIST tool the name {name!r}")
    return name


def run_nist(
    nist: str,
    ref_paths: list[str],
    sys_paths: list[str],
    flags: list[str],
    timeout: float | None = None,
) -> NistRun:
    """Run the NIST tool on the given files (staged under safe names, see :class:`Staging`)."""
    with Staging() as st:
        rl = st.stage("ref", ref_paths)
        sl = st.stage("sys", sys_paths)
        return st.run(nist, ["-r", rl, "-t", sl, *flags], timeout)
