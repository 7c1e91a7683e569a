#!/usr/bin/env python3
"""A synthetic corpus of the shape of real ACE annotation, for benchmarks (issue #17).

The project's generator (``tools/acesynth.py``) writes documents 3-4x smaller than
real annotation (12.5 entities, 23 mentions, chains of at most 10 mentions).  This script
drives the same generator with three changes, so that a corpus has, per document, about the
shape measured on 582 real documents (news, broadcast, conversation, web):

* document length drawn from a log-normal distribution (a few very long documents), so
  that the mean is ~31 entities and ~91 entity mentions and the longest documents have
  ~150 entities and ~350 mentions;
* a sentence mix with fewer events (~7) and relations (~13) per document, and so fewer
  timex2 (~9) and values (~2);
* coreference chains with a heavy tail: a specific entity that is already mentioned is
  picked again with a weight growing with its number of mentions (preferential
  attachment), so that the longest chains reach ~100 mentions;

and a system profile ``firstpass``: the error mix of a first-pass annotator against the
adjudicated reference (mostly misses -- relations and events far more than entities --,
some coreference splits, boundary and attribute disagreements, few false alarms).

Usage:
    python bench/realshape.py --docs 600 --out bench/corpora/real-600 [--seed real] [--stats]

The layout is acesynth's (src/, ref/, sys-firstpass/, ref.list, sys-firstpass.list).
Deterministic: the same options give byte-identical files.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SYNTH = HERE.parent / "tools" / "acesynth.py"

# Per-item error probabilities of a first-pass annotator (names as in acesynth's PROFILES).
FIRSTPASS = dict(
    ent_drop=0.08,
    ment_drop=0.10,
    ent_fa=0.04,
    ment_fa=0.04,
    split=0.08,
    merge=0.04,
    head_small=0.05,
    head_big=0.03,
    ext_shift=0.10,
    etype=0.03,
    esub=0.08,
    eclass=0.06,
    mtype=0.06,
    mrole=0.05,
    mstyle=0.03,
    rel_drop=0.30,
    relm_drop=0.15,
    rel_fa=0.15,
    rel_type=0.08,
    rel_sub=0.12,
    rel_mod=0.08,
    rel_tense=0.15,
    rel_swap=0.05,
    rel_wrong=0.08,
    relext_shift=0.10,
    ev_drop=0.25,
    evm_drop=0.15,
    ev_fa=0.12,
    ev_type=0.05,
    ev_sub=0.08,
    ev_mod=0.08,
    ev_pol=0.03,
    ev_gen=0.08,
    ev_tense=0.15,
    ev_role=0.10,
    ev_wrong=0.08,
    evarg_drop=0.20,
    evarg_fa=0.08,
    anchor_shift=0.08,
    evext_shift=0.10,
    val_drop=0.15,
    val_fa=0.08,
    val_type=0.08,
    val_shift=0.08,
    tx_drop=0.10,
    tx_fa=0.05,
    tx_attr=0.20,
    tx_shift=0.08,
    xdoc=0.1,
)

#: sentence kinds of acesynth's plan (its shares: event .42, relation .22, follow-up .16)
#: kept with these probabilities (the rest become fillers): event .10, relation .17,
#: follow-up .05 of the sentences
PLAN_KEEP = {"event": 0.10 / 0.42, "relation": 0.17 / 0.22, "followup": 0.05 / 0.16}
SENT_MEDIAN = 60  # body sentences of the median document
SENT_SIGMA = 0.66  # log-normal spread of the document length
SENT_MAX = 300
TIMEX_KEEP = 0.22  # share of the unreferenced timex2 kept
VALUE_KEEP = 0.08  # ... and of the values
STAR_P = 0.45  # chance that a specific entity slot goes to an entity by its chain length
STAR_ALPHA = 2.3  # weight of an entity: (mentions + 1) ** alpha


def load_acesynth(path: Path):
    spec = importlib.util.spec_from_file_location("acesynth", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def patch(ace, seed: str) -> None:
    """Give acesynth the real-shape document generator and the ``firstpass`` profile."""
    ace.PROFILES["firstpass"] = FIRSTPASS
    if "firstpass" not in ace.PROFILE_ORDER:
        ace.PROFILE_ORDER.append("firstpass")
    base = ace.DocGen

    class RealDocGen(base):
        def __init__(self, corpus, index):
            super().__init__(corpus, index)
            self.shape_rng = random.Random("%s:shape:%d" % (seed, index))

        def plan(self, n):
            # acesynth's plan, with fewer event, relation and follow-up sentences: each
            # is kept with the share that gives the mix of PLAN_SHARE, else a filler
            conv = self.style in ("SYNBC", "syn_tel")
            kinds = super().plan(n)
            for i, k in enumerate(kinds):
                keep = PLAN_KEEP.get(k) if isinstance(k, str) else None
                if keep is not None and self.shape_rng.random() >= keep:
                    kinds[i] = "conv" if conv and self.shape_rng.random() < 0.4 else "filler"
            return kinds

        def pick_entity(self, slot, used, generic):
            opts = slot.opts
            if (
                self.shape_rng.random() < STAR_P
                and not opts & {"gen", "neg", "usp", "new", "meto", "adj"}
                and not generic
            ):
                need_named = bool(opts & {"nam", "upper", "seat"})
                cands = [
                    g
                    for g in self.gents
                    if g not in used
                    and g.prof.cls == "SPC"
                    and g.mentioned
                    and any(ace._match(g.prof, t, s) for t, s in slot.specs)
                    and (g.prof.named or not need_named)
                ]
                if cands:
                    weights = [(len(g.ent.mentions) + 1) ** STAR_ALPHA for g in cands]
                    return self.shape_rng.choices(cands, weights)[0]
            return super().pick_entity(slot, used, generic)

        def generate(self, nsent):
            n = round(SENT_MEDIAN * math.exp(self.shape_rng.gauss(0.0, SENT_SIGMA)))
            doc = super().generate(max(3, min(SENT_MAX, n)))
            # fewer timex2 and values than the templates make: unannotate a share of those
            # that no relation or event takes as an argument (their text stays)
            used = {x for r in doc.relations for _, x in r.args}
            used |= {x for e in doc.events for _, x in e.args}
            doc.timexes = [
                t for t in doc.timexes if t.id in used or self.shape_rng.random() < TIMEX_KEEP
            ]
            doc.values = [
                v for v in doc.values if v.id in used or self.shape_rng.random() < VALUE_KEEP
            ]
            return doc

    ace.DocGen = RealDocGen


def corpus_stats(out: Path) -> str:
    """Per-document counts of the reference (mean, max), as in the issue."""
    rows = []
    for f in sorted((out / "ref").glob("*.apf.xml")):
        t = f.read_text(encoding="utf-8")
        chains = [c.count("<entity_mention ") for c in t.split("</entity>")]
        rows.append(
            {
                "entities": t.count("<entity "),
                "mentions": t.count("<entity_mention "),
                "chain": max(chains),
                "relations": t.count("<relation "),
                "events": t.count("<event "),
                "timex2": t.count("<timex2 "),
                "values": t.count("<value "),
                "KB": len(t.encode("utf-8")) / 1024,
            }
        )
    lines = [f"{len(rows)} documents"]
    for k in rows[0]:
        vals = [r[k] for r in rows]
        lines.append(
            f"  {k:9s} mean {statistics.mean(vals):7.1f}  median {statistics.median(vals):6.1f}"
            f"  max {max(vals):6.0f}"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=600)
    ap.add_argument("--seed", default="real")
    ap.add_argument("--out", required=True)
    ap.add_argument("--synth", default=str(DEFAULT_SYNTH))
    ap.add_argument(
        "--global",
        dest="glob",
        action="store_true",
        help="cross-document corpus (acesynth --global)",
    )
    ap.add_argument("--stats", action="store_true", help="print the reference's shape")
    args = ap.parse_args(argv)
    ace = load_acesynth(Path(args.synth))
    patch(ace, args.seed)
    cmd = [
        "--docs",
        str(args.docs),
        "--seed",
        args.seed,
        "--profiles",
        "firstpass",
        "--out",
        args.out,
        "--force",
        "--quiet",
    ]
    if args.glob:
        cmd.append("--global")
    rc = ace.main(cmd)
    if rc == 0 and args.stats:
        print(corpus_stats(Path(args.out)))
    return rc


if __name__ == "__main__":
    sys.exit(main())
