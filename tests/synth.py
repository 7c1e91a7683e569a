"""Synthetic corpora for the tests, made by the project's generator tools/acesynth.py (a copy of
shared/tools/acesynth.py, which developers also run from the shell)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ACESYNTH = Path(__file__).resolve().parents[1] / "tools" / "acesynth.py"


def make_corpus(out: Path, docs: int, seed: str, profiles: str, *extra: str) -> Path:
    """``acesynth.py --out out --docs N --seed S --profiles P [extra]``: ``out`` holds
    ref/, src/ and one sys-<profile>/ per profile."""
    subprocess.run(
        [
            sys.executable,
            str(ACESYNTH),
            "--out",
            str(out),
            "--docs",
            str(docs),
            "--seed",
            seed,
            "--profiles",
            profiles,
            "--quiet",
            *extra,
        ],
        check=True,
    )
    return out
