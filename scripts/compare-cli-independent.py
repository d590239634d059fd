"""Writes test/fixtures/compare-cli/independent.json: what test/fixtures/compare-cli/expected/every-test.json
should say, computed without rankeval: per-query map and ndcg_cut_5 from trec_eval's definitions (in
Python, below), scipy's paired tests on them, and the randomization test's exact p-value (every one of
the 2^n sign flips, where rankeval samples them). test/compare-cli-independent.test.ts checks the
fixture against it.

    python3 scripts/compare-cli-independent.py      (scipy and numpy; versions recorded in the file)
"""
import json
import math
import pathlib

import numpy as np
import scipy
from scipy import optimize, stats

DIR = pathlib.Path(__file__).resolve().parent.parent / "test" / "fixtures" / "compare-cli"
RUNS = ["bm25.run", "rerank.run", "weak.run"]
BASELINE = "rerank.run"
MEASURES = ["map", "ndcg_cut_5"]

qrels = {}
for line in (DIR / "qrels.txt").read_text().splitlines():
    q, _, d, rel = line.split()
    qrels.setdefault(q, {})[d] = int(rel)


def ranking(path):
    """Per query, document ids as trec_eval ranks them: score descending, then document id descending."""
    rows = {}
    for line in (DIR / path).read_text().splitlines():
        q, _, d, _, score, _ = line.split()
        rows.setdefault(q, []).append((float(score), d))
    return {q: [d for _, d in sorted(r, key=lambda x: (x[0], x[1].encode()), reverse=True)] for q, r in rows.items()}


def average_precision(q, docs):
    rel = qrels.get(q, {})
    relevant = sum(1 for v in rel.values() if v >= 1)
    found, total = 0, 0.0
    for i, d in enumerate(docs):
        if rel.get(d, 0) >= 1:
            found += 1
            total += found / (i + 1)
    return total / relevant if relevant else 0.0


def ndcg_cut(q, docs, k):
    rel = qrels.get(q, {})
    dcg = sum(max(rel.get(d, 0), 0) / math.log2(i + 2) for i, d in enumerate(docs[:k]))
    ideal = sorted((v for v in rel.values() if v > 0), reverse=True)[:k]
    idcg = sum(v / math.log2(i + 2) for i, v in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def values(path):
    r = ranking(path)
    # trec_eval evaluates the queries both judged and ranked
    qs = [q for q in r if q in qrels]
    return {"map": {q: average_precision(q, r[q]) for q in qs}, "ndcg_cut_5": {q: ndcg_cut(q, r[q], 5) for q in qs}}


def exact_randomization(d):
    """Two-sided: the share of the 2^n sign flips whose mean difference is at least as far from 0."""
    d = np.asarray(d)
    n = len(d)
    observed = abs(d.mean())
    low = min(n, 16)
    bits = (np.arange(1 << low)[:, None] >> np.arange(low)) & 1
    count = 0
    for high in range(1 << (n - low)):
        signs = np.hstack([bits, np.broadcast_to((high >> np.arange(n - low)) & 1, (1 << low, n - low))])
        means = np.abs((1 - 2 * signs) @ d / n)
        count += int(np.sum(means >= observed - 1e-12))
    return count / 2**n


def minimum_detectable(n, sd, alpha=0.05, want=0.8):
    """The difference the two-sided paired t-test at alpha finds significant with probability `want`
    (statsmodels' TTestPower formula: nct.sf(c, n - 1, nc) + nct.cdf(-c, n - 1, nc)), by brentq."""
    df = n - 1
    c = stats.t.isf(alpha / 2, df)

    def power(delta):
        nc = delta / sd * np.sqrt(n)
        lower = stats.nct.cdf(-c, df, nc)  # NaN far in the tail, where it is below 1e-300: 0
        return stats.nct.sf(c, df, nc) + (0.0 if math.isnan(lower) else lower) - want

    return float(optimize.brentq(power, 1e-12, 10 * sd / np.sqrt(n), xtol=1e-15, rtol=1e-14))


per_run = {name: values(name) for name in RUNS}
comparisons = []
for m in MEASURES:
    base = per_run[BASELINE][m]
    for name in RUNS:
        if name == BASELINE:
            continue
        run = per_run[name][m]
        qs = sorted(set(base) & set(run))
        b = np.array([base[q] for q in qs])
        r = np.array([run[q] for q in qs])
        d = r - b
        nonzero = d[d != 0]
        comparisons.append({
            "measure": m,
            "baseline": BASELINE,
            "run": name,
            "n": len(qs),
            "baselineMean": float(b.mean()),
            "runMean": float(r.mean()),
            "t_p": float(stats.ttest_rel(r, b).pvalue),
            "wilcoxon_p": float(stats.wilcoxon(r, b).pvalue),
            "sign_p": float(stats.binomtest(int(np.sum(nonzero > 0)), len(nonzero)).pvalue),
            "randomization_exact_p": exact_randomization(d),
            # every-test.json is made with --alpha 0.1.
            "minimum_detectable": minimum_detectable(len(qs), float(np.std(d, ddof=1)), alpha=0.1),
        })

out = {"made_by": f"scipy {scipy.__version__}, numpy {np.__version__}", "comparisons": comparisons}
(DIR / "independent.json").write_text(json.dumps(out, indent=1) + "\n")
print(f"{len(comparisons)} comparisons: {DIR / 'independent.json'}")
