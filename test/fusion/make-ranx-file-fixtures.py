# Writes test/fixtures/fusion/ranx-files.json: ranx 0.3.20's Run.from_file and fuse on TREC run files
# made here, for test/cli-fuse.test.ts (rankeval --fuse reads the same files). Their document ids are
# integers, as MS MARCO's and many BEIR corpora's are, and their scores tie: ranx keeps a query's
# documents in file order, and the order of tied documents decides the ranks a rank-based method reads.
# Run it from the repository's root with ranx importable:
#     ../shared/tools/ranx-python.sh test/fusion/make-ranx-file-fixtures.py
# Deterministic: the runs come from a seeded generator; ranx's candidate sets are pinned to first
# appearance (_ranx_candidates.py).
import json
import os
import random
import sys
import tempfile

import ranx  # noqa: F401 (its modules loaded, for pin() to patch)
from ranx import Run, fuse

from _ranx_candidates import pin

pin()
rng = random.Random(2711)

# Integer ids from 0 to 2^32 - 2 (the largest a JavaScript object lists first), one past it, ids with a
# leading zero and words: file order is ranx's order for all of them.
IDS = [str(i) for i in range(25)] + ["100", "4294967294", "4294967295", "007", "d1", "d2"]


def run_text(tag, levels):
    lines = []
    for q in ["q1", "7", "q3"]:
        docs = rng.sample(IDS, 18)
        for i, d in enumerate(docs):
            lines.append(f"{q} Q0 {d} {i + 1} {rng.choice(levels)} {tag}")
    return "\n".join(lines) + "\n"


texts = {"a": run_text("a", [3.0, 2.0, 2.0, 1.0]), "b": run_text("b", [0.5, 0.25, 0.25, 0.125, 0.0])}
CASES = [
    ("rrf", "min-max", {}),
    ("rrf", None, {"k": 10}),
    ("isr", None, {}),
    ("log_isr", "rank", {}),
    ("bordafuse", None, {}),
    ("condorcet", None, {}),
    ("rbc", None, {"phi": 0.8}),
    ("wsum", "rank", {"weights": [0.3, 0.7]}),
    ("sum", "borda", {}),
    ("mnz", "min-max-inverted", {}),
]

with tempfile.TemporaryDirectory() as tmp:
    paths = []
    for name, text in texts.items():
        paths.append(os.path.join(tmp, f"{name}.txt"))
        with open(paths[-1], "w") as f:
            f.write(text)
    cases = []
    for method, norm, params in CASES:
        runs = [Run.from_file(p, kind="trec") for p in paths]
        out = fuse(runs, norm=norm, method=method, params=dict(params))
        cases.append({"method": method, "norm": norm, "params": params, "out": out.to_dict()})

with open("test/fixtures/fusion/ranx-files.json", "w") as f:
    json.dump({"ranx": "0.3.20", "python": sys.version.split()[0], "runs": texts, "fuse": cases}, f, indent=1)
    f.write("\n")
print(f"{len(cases)} fuse cases on files")
