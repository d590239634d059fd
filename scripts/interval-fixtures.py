#!/usr/bin/env python3
# The interval fixtures of test/interval.test.ts: scipy.stats.t.interval(level, n - 1, mean, sem) of
# per-query values (some NaN, which the interval skips, as a mean over the queries that count does), from
# scipy (Debian's python3-scipy), written to test/fixtures/interval/cases.json.
#   python3 scripts/interval-fixtures.py
import json
import math
import os

import numpy as np
import scipy
from scipy import stats

rng = np.random.default_rng(20261127)
cases = []
for n in [2, 3, 4, 5, 7, 10, 30, 50, 100, 200, 1000]:
    for kind in ["uniform", "binary", "skewed", "with-nan"]:
        if kind == "uniform":
            v = rng.uniform(0, 1, n)
        elif kind == "binary":
            v = rng.integers(0, 2, n).astype(float)
            v[0], v[1] = 0.0, 1.0  # never constant
        elif kind == "skewed":
            v = rng.beta(0.5, 3, n)
        else:
            v = rng.uniform(0, 1, n + 3)
            v[rng.choice(n + 3, 3, replace=False)] = np.nan
        v = np.round(v, 4)  # values as printed: short fixtures
        kept = v[~np.isnan(v)]
        for level in [0.5, 0.8, 0.9, 0.95, 0.99, 0.999] if n <= 100 else [0.95]:
            lo, hi = stats.t.interval(level, len(kept) - 1, loc=np.mean(kept), scale=stats.sem(kept))
            cases.append(
                {
                    "values": [None if math.isnan(x) else float(x) for x in v],
                    "level": level,
                    "interval": [float(lo), float(hi)],
                }
            )

out = os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "interval", "cases.json")
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w") as f:
    json.dump({"scipy": scipy.__version__, "cases": cases}, f)
    f.write("\n")
print(f"{len(cases)} cases -> {os.path.normpath(out)}")
