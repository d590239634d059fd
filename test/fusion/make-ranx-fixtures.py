# Writes test/fixtures/fusion/ranx.json: ranx 0.3.20's normalize and fuse on small runs made here, for
# test/fusion.test.ts. Run it from the repository's root with ranx importable:
#     ../shared/tools/ranx-python.sh test/fusion/make-ranx-fixtures.py
# Deterministic: the runs come from a seeded generator, and ranx's one source of chance is pinned. ranx
# collects a query's candidate documents in a Python set (borda norm, bordafuse, condorcet), whose order
# changes with PYTHONHASHSEED; scores do not depend on it, but the order of tied documents does, and so do
# the ranks a rank-based method reads after the borda norm and condorcet's order of tied candidates. This
# script pins them to the order rankeval uses: first appearance, run by run (_ranx_candidates.py).
import json
import random
import sys
from functools import cmp_to_key

import ranx  # noqa: F401 (its modules loaded, for pin() to patch)
from ranx import Run, fuse
from ranx.normalization import norm_switch

from _ranx_candidates import pin

pin()

rng = random.Random(27)


def scores(docs, levels):
    """`docs` with scores drawn from `levels` (few levels: many ties), in a shuffled insertion order."""
    docs = list(docs)
    rng.shuffle(docs)
    return {d: rng.choice(levels) for d in docs}


def pool(n):
    return [f"d{i:02d}" for i in range(n)]


# q1: ties and documents missing from some runs; q2: one document in A; q3: all scores equal in B;
# q4: 24 documents a run, ties past numba's 16-item insertion sort; q5: negative scores in C.
runs = {
    "A": {
        "q1": scores(pool(8), [3.0, 2.5, 2.5, 1.0, 0.5]),
        "q2": {"d07": 4.2},
        "q3": scores(pool(6), [1.0, 2.0, 3.0]),
        "q4": scores(pool(24), [0.1, 0.2, 0.3, 0.4, 0.5]),
        "q5": scores(pool(7), [10.0, 12.5, 7.25]),
    },
    "B": {
        "q1": scores(pool(12)[4:], [1.5, 1.5, 0.7, 2.0]),
        "q2": scores(pool(5), [0.9, 0.3]),
        "q3": {d: 5.0 for d in pool(9)[3:]},
        "q4": scores(pool(30)[6:], [1.0, 2.0, 3.0]),
        "q5": scores(pool(9)[2:], [0.25, 0.5, 0.75, 1.0]),
    },
    "C": {
        "q1": scores(pool(10)[2:], [7.0, 6.0, 6.0, 5.5]),
        "q2": scores(pool(3), [2.0, 1.0]),
        "q3": scores(pool(4), [0.5]),
        "q4": scores(pool(28)[4:], [9.0, 8.0, 8.0, 7.0]),
        "q5": scores(pool(9), [-3.0, -1.5, -1.5, -0.25]),
    },
}


def ranked(run):
    """A ranx Run as {qid: [[docid, score], ...]} in ranx's order."""
    return {q: [[d, float(s)] for d, s in run.run[q].items()] for q in run.run.keys()}


NORMS = ["min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda"]
normalize = []
for name, run in runs.items():
    for norm in NORMS:
        r = Run(run)
        out = norm_switch(norm)([r])[0] if norm == "borda" else norm_switch(norm)(r)
        normalize.append({"run": name, "norm": norm, "out": ranked(out)})

SETTINGS = {
    "rrf": [{}, {"k": 10}, {"k": 0}],
    "isr": [{}],
    "log_isr": [{}],
    "logn_isr": [{}, {"sigma": 0.5}],
    "bordafuse": [{}],
    "w_bordafuse": ["weights"],
    "condorcet": [{}],
    "w_condorcet": ["weights", "equal"],
    "max": [{}],
    "min": [{}],
    "med": [{}],
    "sum": [{}],
    "anz": [{}],
    "mnz": [{}],
    "gmnz": [{"gamma": 0.5}, {"gamma": 2}],
    "wsum": ["weights"],
    "wmnz": ["weights"],
    "mixed": ["weights"],
    "rbc": [{"phi": 0.8}, {"phi": 0.5}],
}
WEIGHTS = {2: [0.3, 0.7], 3: [0.5, 0.2, 0.3]}

fused = []
for names in (["A", "B"], ["A", "B", "C"]):
    for method, settings in SETTINGS.items():
        for setting in settings:
            if setting == "weights":
                params = {"weights": WEIGHTS[len(names)]}
            elif setting == "equal":
                params = {"weights": [1.0] * len(names)}
            else:
                params = setting
            for norm in [None] + NORMS:
                out = fuse([Run(runs[n]) for n in names], norm=norm, method=method, params=dict(params))
                fused.append({"runs": names, "method": method, "norm": norm, "params": params, "out": ranked(out)})

# Condorcet over 100-odd candidates: CPython's sort merges runs there (from 64 items), galloping.
big = {
    "D": {"q6": scores(pool(110), [1.0, 2.0, 3.0, 4.0])},
    "E": {"q6": scores(pool(140)[30:], [5.0, 6.0, 7.0])},
    "F": {"q6": scores(pool(120)[10:], [0.5, 0.25, 0.125, 0.0625, 0.03125])},
}
runs.update(big)
for names in (["D", "E"], ["D", "E", "F"]):
    for method, params in (
        ("condorcet", {}),
        ("w_condorcet", {"weights": WEIGHTS[len(names)]}),
        ("w_condorcet", {"weights": [1.0] * len(names)}),
    ):
        out = fuse([Run(runs[n]) for n in names], norm=None, method=method, params=dict(params))
        fused.append({"runs": names, "method": method, "norm": None, "params": params, "out": ranked(out)})

# CPython 3.11's sorted() with comparisons that are no order (as Condorcet's), for order.ts's pythonSorted:
# each family is a formula over two integers that test/fusion.test.ts computes alike.
FAMILIES = {
    "random": lambda s: lambda x, y: ((x * 7919 + y * 104729 + s * 31) % 13) < 6,
    "noisy": lambda s: lambda x, y: (((x * 37 + s) % 101) < ((y * 37 + s) % 101))
    != (((x * 7919 + y * 104729 + s) % 50) == 0),
    "blocks": lambda s: lambda x, y: ((x // 10 + s) % 7) < ((y // 10 + s) % 7),
    "reversed": lambda s: lambda x, y: (x > y) != (((x * 7919 + y * 104729 + s) % 29) == 0),
    "ties": lambda s: lambda x, y: (x % (s + 3)) >= (y % (s + 3)),
}
sorts = []
for n in [2, 5, 17, 64, 65, 130, 257, 600]:
    for seed in range(3):
        for family, make in FAMILIES.items():
            less = make(seed)
            order = sorted(range(n), key=cmp_to_key(lambda x, y, less=less: -1 if less(x, y) else 1))
            sorts.append({"n": n, "seed": seed, "family": family, "order": order})

with open("test/fixtures/fusion/ranx.json", "w") as f:
    json.dump(
        {"ranx": "0.3.20", "python": sys.version.split()[0], "runs": runs, "normalize": normalize, "fuse": fused,
         "sorted": sorts},
        f,
        separators=(",", ":"),
    )
    f.write("\n")
print(f"{len(normalize)} normalize, {len(fused)} fuse and {len(sorts)} sort cases")
