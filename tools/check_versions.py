#!/usr/bin/env python3
"""check_versions -- every expected output of the older NIST scorers, against acescore.

Runs ``acescore score --nist VERSION`` for each expected output under tests/data/versions
(tests/data/versions/README.md): reports (from line 2 on) and ``--verbose`` warnings
compared byte for byte, refusals compared with the NIST fatal error, as the golden tests do
(tests/e2e/test_versions_golden.py, whose helpers this uses).  The suite runs all of the
tiny, small and global cases but 4 of the 17 medium ones; this runs them all.

    python tools/check_versions.py                      # every case, --jobs 1
    python tools/check_versions.py --corpus medium --jobs 1,2,4 --version ace05

Prints a line per case and a total; exit status 1 when any case differs.  The ``medium``
corpus is made by tools/acesynth.py in a temporary folder (a few seconds) unless
``--scratch DIR`` holds it from an earlier run.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests"), str(ROOT)]

from test_versions_golden import (  # noqa: E402
    VERSIONS,
    case_name,
    corpus_folder,
    refusal_difference,
    report_difference,
)


def expected_files(corpora: list, versions: list) -> list:
    """(version, corpus, path, is_refusal) of every expected report and refusal."""
    out = []
    for path in sorted(VERSIONS.glob("*/*/*__*")):
        version, corpus = path.parent.parent.name, path.parent.name
        if (corpora and corpus not in corpora) or (versions and version not in versions):
            continue
        if ".stderr." in path.name or not path.name.endswith((".txt", ".txt.xz")):
            continue
        out.append((version, corpus, path, ".fatal." in path.name))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="check_versions.py",
        description="Compare acescore --nist ace05/ace07 with every expected output of"
        " tests/data/versions.",
    )
    ap.add_argument("--corpus", action="append", default=[], help="only this corpus (repeatable)")
    ap.add_argument("--version", action="append", default=[], help="only ace05 or ace07")
    ap.add_argument("--jobs", default="1", help="comma-separated --jobs values (default 1)")
    ap.add_argument("--scratch", type=Path, help="folder for the generated corpora (kept)")
    args = ap.parse_args(argv)
    jobs = [int(j) for j in args.jobs.split(",")]
    files = expected_files(args.corpus, args.version)
    if not files:
        ap.error("no expected output matches")
    with tempfile.TemporaryDirectory(prefix="check-versions-") as tmp:
        scratch = args.scratch or Path(tmp)
        scratch.mkdir(parents=True, exist_ok=True)
        folders: dict = {}
        ran = differ = 0
        start = time.perf_counter()
        for version, corpus, path, refusal in files:
            if corpus not in folders:
                folders[corpus] = corpus_folder(corpus, scratch)
            for j in [jobs[0]] if refusal else jobs:
                t0 = time.perf_counter()
                if refusal:
                    difference = refusal_difference(path, folders[corpus])
                else:
                    difference = report_difference(path, folders[corpus], j)
                ran += 1
                differ += difference is not None
                what = "refusal" if refusal else f"--jobs {j}"
                verdict = "identical" if difference is None else f"DIFFERS: {difference}"
                took = time.perf_counter() - t0
                name = f"{version}/{corpus}/{case_name(path)}"
                print(f"{name} {what}: {verdict} ({took:.1f} s)", flush=True)
        total = time.perf_counter() - start
    print(f"{ran} cases, {ran - differ} identical, {differ} differ ({total:.0f} s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
