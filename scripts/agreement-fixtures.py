#!/usr/bin/python3
"""Writes test/fixtures/agreement/*.json: judgment sets and their agreement as made without rankeval.

Cohen's kappa: sklearn.metrics.cohen_kappa_score (weights None, "linear", "quadratic"; the binary kappa
on label >= threshold); Fleiss' kappa: statsmodels.stats.inter_rater.fleiss_kappa (method "fleiss") on
the pairs judged by every set; Krippendorff's alpha: written below from the definitions of Krippendorff,
"Computing Krippendorff's Alpha-Reliability" (2011), through the coincidence matrix, in exact fractions.
Debian's python3-sklearn and python3-statsmodels (hence /usr/bin/python3):

    /usr/bin/python3 scripts/agreement-fixtures.py

The tests read the files written; they do not run Python.
"""

import json
import math
import os
import random
import warnings
from fractions import Fraction

import numpy as np
from sklearn.metrics import cohen_kappa_score, confusion_matrix
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

# 0/0 where a kappa is undefined: numpy warns, and the fixture records null.
warnings.filterwarnings("ignore", category=RuntimeWarning)

OUT = os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "agreement")


def number(x):
    """NaN (sklearn's and statsmodels' 0/0) as null."""
    x = float(x)
    return None if math.isnan(x) else x


def digitize(x, bins):
    return int(np.digitize([x], bins)[0]) if bins else x


def alpha(units, metric):
    """Krippendorff 2011: units are lists of values (missing left out); metric "nominal", "ordinal", "interval".

    o_ck = sum_u (number of c-k pairs in u) / (m_u - 1), over units with m_u >= 2; n_c = sum_k o_ck;
    alpha = 1 - (n - 1) sum_ck o_ck delta_ck / sum_ck n_c n_k delta_ck.
    """
    pairable = [[Fraction(v) for v in u] for u in units if len(u) >= 2]
    values = sorted({v for u in pairable for v in u})
    o = {(c, k): Fraction(0) for c in values for k in values}
    for u in pairable:
        m = len(u)
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[(u[i], u[j])] += Fraction(1, m - 1)
    n_c = {c: sum(o[(c, k)] for k in values) for c in values}
    n = sum(n_c.values())

    def delta(c, k):
        if metric == "nominal":
            return 0 if c == k else 1
        if metric == "interval":
            return (c - k) ** 2
        # ordinal: (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2, values in rank order
        lo, hi = min(c, k), max(c, k)
        between = sum(n_c[g] for g in values if lo <= g <= hi)
        return (between - (n_c[c] + n_c[k]) / 2) ** 2

    observed = sum(o[(c, k)] * delta(c, k) for c in values for k in values)
    expected = sum(n_c[c] * n_c[k] * delta(c, k) for c in values for k in values)
    if n == 0 or expected == 0:
        return None
    return float(1 - (n - 1) * observed / expected)


def expected_of(sets, threshold=1, bins=None):
    """The values rankeval's agreement() should give, each made here without it."""
    m = len(sets)
    qids = []
    for s in sets:
        for q in s:
            if q not in qids and len(s[q]) > 0:
                qids.append(q)
    units = []  # (qid, [label or None per set])
    for q in qids:
        docs = []
        for s in sets:
            for d in s.get(q, {}):
                if d not in docs:
                    docs.append(d)
        for d in docs:
            units.append((q, [s.get(q, {}).get(d) for s in sets]))
    cat = lambda x: digitize(x, bins)
    # sklearn refuses float labels ("continuous"): categories by rank, the same order, the same pairs.
    rank = {v: i for i, v in enumerate(sorted({cat(x) for _, ls in units for x in ls if x is not None}))}
    value = {i: v for v, i in rank.items()}
    skl = lambda x: rank[cat(x)]
    shared = [(q, ls) for q, ls in units if all(x is not None for x in ls)]
    out = {
        "pairs": {
            "shared": len(shared),
            "union": len(units),
            "judged": [sum(1 for _, ls in units if ls[s] is not None) for s in range(m)],
            "only": [
                sum(1 for _, ls in units if ls[s] is not None and sum(x is not None for x in ls) == 1)
                for s in range(m)
            ],
        }
    }

    def observed(rows):
        if not rows:
            return None
        agree = 0
        for ls in rows:
            cs = [cat(x) for x in ls]
            agree += sum(1 for i in range(m) for j in range(m) if i != j and cs[i] == cs[j])
        return agree / (len(rows) * m * (m - 1))

    out["observed_agreement"] = observed([ls for _, ls in shared])

    def kappas(rows, weights=(None, "linear", "quadratic")):
        a = [skl(ls[0]) for ls in rows]
        b = [skl(ls[1]) for ls in rows]
        return [number(cohen_kappa_score(a, b, weights=w)) if rows else None for w in weights]

    def binary(rows):
        if not rows:
            return None
        return number(cohen_kappa_score([int(ls[0] >= threshold) for ls in rows], [int(ls[1] >= threshold) for ls in rows]))

    def fleiss(rows):
        if not rows:
            return None
        table, _ = aggregate_raters(np.array([[cat(x) for x in ls] for ls in rows]))
        return number(fleiss_kappa(table, method="fleiss"))

    rows = [ls for _, ls in shared]
    if m == 2:
        k, kl, kq = kappas(rows)
        out.update(cohen_kappa=k, cohen_kappa_linear=kl, cohen_kappa_quadratic=kq, binary_kappa=binary(rows))
        a = [skl(ls[0]) for ls in rows]
        b = [skl(ls[1]) for ls in rows]
        labels = sorted(set(a) | set(b))
        out["confusion"] = {
            "labels": [value[i] for i in labels],
            "matrix": confusion_matrix(a, b, labels=labels).tolist() if rows else [],
        }
    relevant = [sum(1 for x in ls if x >= threshold) for ls in rows]
    anyrel = sum(1 for r in relevant if r > 0)
    out["jaccard"] = sum(1 for r in relevant if r == m) / anyrel if anyrel else None
    out["fleiss_kappa"] = fleiss(rows)
    present = [[x for x in ls if x is not None] for _, ls in units]
    out["krippendorff_alpha"] = {
        "nominal": alpha([[cat(x) for x in u] for u in present], "nominal"),
        "ordinal": alpha([[cat(x) for x in u] for u in present], "ordinal"),
        "interval": alpha(present, "interval"),
    }
    per_query = []
    for q in qids:
        here = [ls for qq, ls in shared if qq == q]
        entry = {
            "qid": q,
            "pairs": len(here),
            "only": [
                sum(1 for qq, ls in units if qq == q and ls[s] is not None and sum(x is not None for x in ls) == 1)
                for s in range(m)
            ],
            "observed_agreement": observed(here),
        }
        if m == 2:
            entry["cohen_kappa"] = kappas(here, (None,))[0]
            entry["binary_kappa"] = binary(here)
        else:
            entry["fleiss_kappa"] = fleiss(here)
        per_query.append(entry)
    out["per_query"] = per_query
    return out


def correlated(rng, sets, queries, docs, draw, keep=0.9, same=0.6):
    """`sets` judgments of `queries` x up to `docs` documents: each set keeps a document with probability
    `keep`, and copies a shared true label with probability `same`, else draws its own."""
    out = [{} for _ in range(sets)]
    for q in range(queries):
        qid = f"q{q + 1}"
        for d in range(rng.randint(1, docs)):
            truth = draw(rng)
            for s in range(sets):
                if rng.random() < keep:
                    out[s].setdefault(qid, {})[f"d{d + 1}"] = truth if rng.random() < same else draw(rng)
    return out


def write(name, sets, note, threshold=1, bins=None, extra=None):
    options = {}
    if threshold != 1:
        options["threshold"] = threshold
    if bins:
        options["bins"] = bins
    case = {"name": name, "note": note, "options": options, "sets": sets, "expected": expected_of(sets, threshold, bins)}
    if extra:
        case.update(extra)
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump(case, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    # Krippendorff (2011), section C: 4 observers, 12 units, values 1-5, missing data. The paper gives
    # alpha nominal 0.743, ordinal 0.815, interval 0.849 (ratio 0.797).
    grid = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    paper = [{"u": {str(i + 1): v for i, v in enumerate(row) if v is not None}} for row in grid]
    write(
        "krippendorff-2011",
        paper,
        "Krippendorff, Computing Krippendorff's Alpha-Reliability (2011), section C",
        extra={"published": {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849}},
    )

    integers = lambda rng: rng.randint(0, 3)
    write("two-integers", correlated(random.Random(1), 2, 30, 20, integers), "two sets, labels 0-3, missing pairs")
    write(
        "two-gaps",
        correlated(random.Random(2), 2, 25, 15, lambda rng: rng.choice([-2, 0, 1, 4])),
        "labels -2, 0, 1, 4: sklearn's weights by index, not by value",
        threshold=1,
    )
    decimals = lambda rng: round(rng.uniform(0, 3), 2)
    write(
        "two-decimals-binned",
        correlated(random.Random(3), 2, 30, 15, decimals, same=0.5),
        "decimal labels in bins [0.5, 1.5, 2.5]",
        bins=[0.5, 1.5, 2.5],
    )
    write(
        "two-decimals",
        correlated(random.Random(4), 2, 10, 12, lambda rng: rng.choice([0, 0.25, 0.5, 0.75, 1])),
        "decimal labels without bins: each a category; threshold 0.5",
        threshold=0.5,
    )
    write("three-integers", correlated(random.Random(5), 3, 30, 15, integers, keep=0.8), "three sets, missing pairs")
    write(
        "five-decimals-binned",
        correlated(random.Random(6), 5, 20, 12, decimals, keep=0.85),
        "five sets, decimals in bins [1, 2]",
        bins=[1, 2],
    )
    # Undefined values: a query where both sets give one label, one sharing no pair, one all irrelevant.
    write(
        "two-undefined",
        [
            {"same": {"a": 2, "b": 2, "c": 2}, "apart": {"x": 1}, "low": {"a": 0, "b": 1}, "rel": {"a": 1, "b": 2}},
            {"same": {"a": 2, "b": 2, "c": 2}, "apart": {"y": 1}, "low": {"a": 0, "b": 0}, "rel": {"a": 2, "b": 1}},
        ],
        "per-query kappas undefined: one label; no shared pair; all on one side of the threshold",
    )


if __name__ == "__main__":
    main()
