#!/usr/bin/python3
# Makes test/tools/fixtures.json: other tools' own numbers on one seeded set of queries with many
# tied scores, for test/presets.test.ts. Run with Debian's python3, where the tools are installed:
#
#   apt-get install python3-sklearn python3-xgboost
#   /usr/bin/python3 test/tools/make-tool-fixtures.py > test/tools/fixtures.json
#
# The output is committed with the versions that made it (in "made_by"); the tests read the file and
# never run this script.
import json
import random
import sys

import numpy as np
import sklearn
from sklearn.metrics import dcg_score, ndcg_score

try:
    import xgboost as xgb
except ImportError:  # the scikit-learn fixtures alone
    xgb = None

random.seed(20261124)

queries = []
# The scikit-learn documentation's example, and CONVENTIONS.md's worked values.
queries.append({"labels": [10, 0, 0, 1, 5], "scores": [0.1, 0.2, 0.3, 4, 70]})
queries.append({"labels": [10, 0, 0, 1, 5], "scores": [1, 1, 1, 1, 1]})
queries.append({"labels": [10, 0, 0, 1, 5], "scores": [1, 1, 1, 0.5, 0.5]})
queries.append({"labels": [10, 0, 0, 1, 5], "scores": [1, 0, 0, 0, 1]})
for q in range(40):
    n = random.randint(2, 14)
    # Scores from a few values that float32 holds exactly (XGBoost's predictions are float32): ties.
    values = [random.choice([0, 0.25, 0.5, 0.75, 1, 1.5, 2]) for _ in range(n)]
    if q % 7 == 0:
        labels = [0] * n  # no relevant document
    else:
        labels = [random.choice([0, 0, 0, 1, 1, 2, 3, 4]) for _ in range(n)]
    queries.append({"labels": labels, "scores": values})

CUTOFFS = [1, 3, 5, 10, 20]

out = {
    "made_by": {
        "script": "test/tools/make-tool-fixtures.py",
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "sklearn": sklearn.__version__,
        "xgboost": xgb.__version__ if xgb else None,
    },
    "queries": queries,
    "sklearn": [],
    "xgboost": [],
}

# scikit-learn: ndcg_score and dcg_score with their defaults (ignore_ties=False: tied scores averaged),
# one query at a time (their mean over queries is the mean of these).
for q in queries:
    y = np.asarray([q["labels"]], dtype=float)
    s = np.asarray([q["scores"]], dtype=float)
    row = {"ndcg": ndcg_score(y, s), "dcg": dcg_score(y, s)}
    for k in CUTOFFS:
        row[f"ndcg@{k}"] = ndcg_score(y, s, k=k)
        row[f"dcg@{k}"] = dcg_score(y, s, k=k)
    out["sklearn"].append(row)

# XGBoost: its evaluation metrics on predictions given as base_margin (one boosting round with
# eta = 0 adds nothing to them), one query at a time.
if xgb:
    metrics = []
    for k in CUTOFFS:
        metrics += [f"ndcg@{k}", f"ndcg@{k}-", f"map@{k}", f"map@{k}-", f"pre@{k}"]
    metrics += ["ndcg", "ndcg-", "map", "map-"]
    for q in queries:
        n = len(q["labels"])
        d = xgb.DMatrix(np.zeros((n, 1)), label=np.asarray(q["labels"], dtype=float))
        d.set_group([n])
        d.set_base_margin(np.asarray(q["scores"], dtype=np.float32))
        params = {"objective": "rank:pairwise", "eta": 0, "base_score": 0, "eval_metric": metrics, "verbosity": 0}
        result = {}
        xgb.train(params, d, num_boost_round=1, evals=[(d, "eval")], evals_result=result, verbose_eval=False)
        out["xgboost"].append({m: result["eval"][m][0] for m in metrics})

json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")
