"""Synthetic corpora for the tests, made now by the generator in tests/tools (a copy of
shared/tools/acesynth.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ACESYNTH = Path(__file__).resolve().parent / "tools" / "acesynth.py"


def make_corpus(out: Path, docs: int, seed: str, profiles: str, *extra: str) -> Path:
    """``acesynth.py --out out --docs N --seed S --profiles P [extra]``: ``out`` holds
    ref/, src/ and one sys-<profile>/ per profile."""
    subprocess.run([sys.executable, str(ACESYNTH), "--out", str(out), "--docs", str(docs),
                    "--seed", seed, "--profiles", profiles, "--quiet", *extra], check=True)
    return out
