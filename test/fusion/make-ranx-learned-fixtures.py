"""Fixtures for ranx's learned fusion methods and optimize_fusion: test/fixtures/fusion/ranx-learned.json.

Run with ranx 0.3.20 importable (../shared/tools/ranx-python.sh test/fusion/make-ranx-learned-fixtures.py).
Small deterministic runs and judgments (fixed seeds); scores rounded so that many tie, in lists longer than
numba's insertion-sort threshold (15), where numba's quicksort orders ties its own way. ranx's one source of
chance, the Python set it gathers a query's candidates in (borda norm, bordafuse, condorcet), is pinned to
first appearance, run by run, as test/fusion/make-ranx-fixtures.py pins it (that script runs on import, so
its pin is repeated here).
"""
import json
import os
import random
import sys

import numpy as np
from ranx import Qrels, Run, fuse, optimize_fusion
from ranx.fusion import (
    bayesfuse_train,
    mapfuse_train,
    posfuse_train,
    probfuse_train,
    segfuse_train,
    slidefuse_train,
)
from ranx.normalization import min_max_norm
from numba.typed import List as TypedList
from numba.types import unicode_type


def first_appearance_candidates(runs):
    candidates = TypedList()
    for q_id in runs[0].keys():
        seen = dict.fromkeys(doc_id for run in runs for doc_id in list(run[q_id].keys()))
        candidates.append(TypedList(list(seen)) if seen else TypedList.empty_list(unicode_type))
    return candidates


for module in ("ranx.normalization.borda_norm", "ranx.fusion.bordafuse", "ranx.fusion.weighted_bordafuse",
               "ranx.fusion.condorcet", "ranx.fusion.weighted_condorcet"):
    sys.modules[module].get_candidates = first_appearance_candidates

OUT = os.path.join(os.path.dirname(__file__), "..", "fixtures", "fusion", "ranx-learned.json")


def make_case(seed, n_queries, sizes, n_runs, digits, rel_share):
    rng = random.Random(seed)
    qrels, runs = {}, [dict() for _ in range(n_runs)]
    for q in range(n_queries):
        qid = f"q{q}"
        n_docs = rng.choice(sizes)
        pool = [f"d{q}_{i}" for i in range(int(n_docs * 1.5))]
        qrels[qid] = {d: rng.choice([1, 2, 3]) if rng.random() < rel_share else 0 for d in rng.sample(pool, n_docs)}
        for r in range(n_runs):
            docs = rng.sample(pool, max(1, n_docs - rng.randrange(0, 4)))
            runs[r][qid] = {d: round(rng.uniform(0, 10), digits) for d in docs}
    return qrels, runs


def lists(x):
    return [list(map(float, a)) for a in x]


def scores(run):
    return {q: dict(run.run[q]) for q in run.run}


def learned_case(qrels_d, runs_d):
    qrels = Qrels(qrels_d)
    runs = [Run(r) for r in runs_d]
    out = []

    def add(method, train, params, shown):
        out.append({"method": method, "train": train, "params": shown,
                    "fused": scores(fuse(runs, norm=None, method=method, params=params)),
                    # ranx's default norm, min-max: positions as before (segfuse reads the scores too).
                    "fused_min_max": scores(fuse(runs, method=method, params=params))})

    for n_segments in [1, 3, 7]:
        probs = probfuse_train(qrels, runs, n_segments)
        add("probfuse", {"n_segments": n_segments}, {"probs": probs}, {"probs": lists(probs)})
    probs = segfuse_train(qrels, runs)
    add("segfuse", {}, {"probs": probs}, {"probs": lists(probs)})
    probs = slidefuse_train(qrels, runs)
    for w in [0, 2, 5]:
        add("slidefuse", {}, {"probs": probs, "w": w}, {"probs": lists(probs), "w": w})
    probs = posfuse_train(qrels, runs)
    add("posfuse", {}, {"probs": probs}, {"probs": lists(probs)})
    maps = mapfuse_train(qrels, runs)
    add("mapfuse", {}, {"map_scores": maps}, {"map_scores": [float(m) for m in maps]})
    odds = bayesfuse_train(qrels, runs)
    add("bayesfuse", {}, {"log_odds": odds}, {"log_odds": lists(odds)})
    return out


def jsonable(params):
    out = {}
    for k, v in params.items():
        if isinstance(v, (list, tuple)) and len(v) and isinstance(v[0], np.ndarray):
            out[k] = lists(v)
        elif isinstance(v, (list, tuple)):
            out[k] = [float(x) for x in v]
        elif isinstance(v, np.ndarray) and v.ndim == 2:
            out[k] = lists(v)
        elif isinstance(v, np.ndarray):
            out[k] = list(map(float, v))
        else:
            out[k] = v
    return out


def optimize_case(qrels_d, runs_d, norm, method, metric, **kwargs):
    qrels = Qrels(qrels_d)
    runs = [Run(r) for r in runs_d]
    report = None
    if method in {"wsum", "probfuse", "slidefuse", "rrf", "mixed", "wmnz", "logn_isr", "gmnz", "rbc", "w_bordafuse",
                  "w_condorcet"}:
        best, rep = optimize_fusion(qrels, runs, norm=norm, method=method, metric=metric, show_progress=False,
                                    return_optimization_report=True, **kwargs)
        report = {"configs": [str(c) for c in rep.configs], "results": [float(x) for x in rep.results]}
    else:
        best = optimize_fusion(qrels, runs, norm=norm, method=method, metric=metric, **kwargs)
    return {"norm": norm, "method": method, "metric": metric, "options": kwargs, "best": jsonable(best),
            "report": report}


def main():
    cases = []
    # Lists of 3 to 60 documents, scores on a coarse grid (ties), a third of judged documents relevant.
    qrels, runs = make_case(27, 7, [3, 12, 20, 40, 60], 3, 0, 0.3)
    cases.append({"name": "ties", "qrels": qrels, "runs": runs, "learned": learned_case(qrels, runs)})
    # Finer scores (few ties), two runs, one query with 150 documents (segfuse's and bayesfuse's later segments).
    qrels, runs = make_case(28, 5, [5, 30, 150], 2, 3, 0.4)
    cases.append({"name": "fine", "qrels": qrels, "runs": runs, "learned": learned_case(qrels, runs)})

    optimizations = []
    # Integer scores in lists of up to 60 documents: the fused runs' ties, ordered by numba's quicksort,
    # move the metric without a cutoff.
    ties = {"qrels": cases[0]["qrels"], "runs": cases[0]["runs"]}
    optimizations.append({**ties, **optimize_case(ties["qrels"], ties["runs"], None, "wsum", "ndcg", step=0.25)})
    optimizations.append({**ties, **optimize_case(ties["qrels"], ties["runs"], None, "wsum", "map", step=0.1)})
    qrels, runs = make_case(29, 6, [8, 15, 25], 3, 1, 0.3)
    base = {"qrels": qrels, "runs": runs}
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "wsum", "ndcg@10", step=0.1)})
    optimizations.append({**base, **optimize_case(qrels, runs, None, "wsum", "map@100", step=0.25)})
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "wsum", "mrr", step=0.2)})
    optimizations.append({**base, **optimize_case(qrels, runs, None, "probfuse", "ndcg@10", max_n_segments=20)})
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "probfuse", "map", max_n_segments=12)})
    optimizations.append({**base, **optimize_case(qrels, runs, None, "slidefuse", "ndcg@5", max_w=12)})
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "slidefuse", "precision@5", max_w=8)})
    # The other methods ranx optimises (through fuse()'s methods), small grids.
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "rrf", "ndcg@10", min_k=1, max_k=61, step=5)})
    optimizations.append({**base, **optimize_case(qrels, runs, None, "mixed", "map", step=0.25)})
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "wmnz", "ndcg@5", step=0.2)})
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "logn_isr", "mrr", min_sigma=0.05,
                                                  max_sigma=1.0, step=0.05)})
    optimizations.append({**base, **optimize_case(qrels, runs, "zmuv", "gmnz", "ndcg@10", step=0.05)})
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "rbc", "ndcg@10", step=0.05)})
    optimizations.append({**base, **optimize_case(qrels, runs, "rank", "w_bordafuse", "ndcg@10", step=0.25)})
    optimizations.append({**base, **optimize_case(qrels, runs, "min-max", "w_condorcet", "precision@5", step=0.5)})
    optimizations.append({**base, **optimize_case(qrels, runs, "sum", "wsum", "ndcg", step=0.1)})
    optimizations.append({**base, **optimize_case(qrels, runs, "borda", "probfuse", "ndcg@10", max_n_segments=6)})
    for method in ["segfuse", "posfuse", "mapfuse", "bayesfuse"]:
        optimizations.append({**base, **optimize_case(qrels, runs, "min-max", method, "ndcg")})
    # Ties between parameter sets: two queries, few documents, so that many weights give one ranking; and
    # judgments without a relevant document, where every candidate scores 0 and ranx keeps the last.
    qrels, runs = make_case(30, 2, [4], 3, 0, 0.5)
    optimizations.append({"qrels": qrels, "runs": runs,
                          **optimize_case(qrels, runs, "min-max", "wsum", "ndcg@3", step=0.1)})
    qrels, runs = make_case(31, 2, [5], 3, 1, 0.0)
    optimizations.append({"qrels": qrels, "runs": runs,
                          **optimize_case(qrels, runs, "min-max", "wsum", "ndcg@10", step=0.1)})

    # min-max as ranx normalises (for the optimisation's fixtures' inputs, checked beside them).
    normalized = {q: dict(v) for q, v in min_max_norm(Run(runs[0])).run.items()}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"ranx": "0.3.20", "cases": cases, "optimizations": optimizations,
                   "min_max": {"run": runs[0], "normalized": normalized}}, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
