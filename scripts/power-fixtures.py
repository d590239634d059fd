#!/usr/bin/env python3
# The power fixtures of test/power.test.ts: the noncentral t distribution's cdf, the two-sided paired
# t-test's power, topic set sizes and minimum detectable differences, from scipy (Debian's python3-scipy),
# written to test/fixtures/power/cases.json. The power is statsmodels' TTestPower's two-sided formula:
# nct.sf(c, n - 1, nc) + nct.cdf(-c, n - 1, nc), c = t.isf(alpha / 2, n - 1), nc = |delta| / sd * sqrt(n).
#   python3 scripts/power-fixtures.py
import json
import math
import os

import scipy
from scipy import optimize, stats


def power(n, sd, delta, alpha):
    df = n - 1
    nc = abs(delta) / sd * math.sqrt(n)
    c = stats.t.isf(alpha / 2, df)
    lower = stats.nct.cdf(-c, df, nc)
    # Far in the lower tail scipy's nct gives NaN where the value is below 1e-300: 0.
    return float(stats.nct.sf(c, df, nc) + (0.0 if math.isnan(lower) else lower))


def topic_set_size(sd, delta, alpha, want):
    n = 2
    while power(n, sd, delta, alpha) < want:
        n += 1
    return n


def minimum_detectable(n, sd, alpha, want):
    # A bracket just past the answer: scipy's nct is NaN far into the tail.
    hi = sd / math.sqrt(n)
    while power(n, sd, hi, alpha) < want:
        hi *= 2
    return float(optimize.brentq(lambda d: power(n, sd, d, alpha) - want, 1e-12, hi, xtol=1e-16, rtol=1e-15))


cdf = []
for t in [-30, -5, -2, -0.5, 0, 0.3, 1, 2, 2.5, 4, 10, 40]:
    for df in [1, 2, 5, 10, 29, 99, 1000]:
        for delta in [-3, -0.5, 0.2, 1, 2.5, 6, 15]:
            value = float(stats.nct.cdf(t, df, delta))
            # scipy gives NaN in a few far tails (t = -30 with df = 1): left out.
            if not math.isnan(value):
                cdf.append({"t": t, "df": df, "delta": delta, "cdf": value})
powers = []
for n in [2, 5, 10, 25, 50, 100, 250, 1000]:
    for sd in [0.05, 0.1, 0.25]:
        for delta in [0.005, 0.01, 0.03, -0.05, 0.1]:
            for alpha in [0.01, 0.05, 0.1]:
                powers.append({"n": n, "sd": sd, "delta": delta, "alpha": alpha, "power": power(n, sd, delta, alpha)})
sizes = []
for sd in [0.05, 0.1, 0.2]:
    for delta in [0.01, 0.02, 0.05, 0.1]:
        for alpha, want in [(0.05, 0.8), (0.01, 0.9), (0.05, 0.5)]:
            sizes.append({"sd": sd, "delta": delta, "alpha": alpha, "power": want, "n": topic_set_size(sd, delta, alpha, want)})
detectable = []
for n in [5, 20, 50, 100, 1000]:
    for sd in [0.05, 0.1, 0.3]:
        for alpha, want in [(0.05, 0.8), (0.01, 0.9)]:
            detectable.append({"n": n, "sd": sd, "alpha": alpha, "power": want, "delta": minimum_detectable(n, sd, alpha, want)})

out = os.path.join(os.path.dirname(__file__), "..", "test", "fixtures", "power", "cases.json")
with open(out, "w") as f:
    json.dump(
        {"scipy": scipy.__version__, "cdf": cdf, "power": powers, "topicSetSize": sizes, "minimumDetectableDifference": detectable},
        f,
        indent=0,
    )
    f.write("\n")
print(f"wrote {out}: {len(cdf)} cdf, {len(powers)} power, {len(sizes)} sizes, {len(detectable)} differences")
