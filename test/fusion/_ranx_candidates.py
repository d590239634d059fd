# ranx collects a query's candidate documents in a Python set (borda norm, bordafuse, condorcet), whose
# order changes with PYTHONHASHSEED; scores do not depend on it, but the order of tied documents does, and
# so do the ranks a rank-based method reads after the borda norm and condorcet's order of tied candidates.
# pin() replaces those get_candidates with the order rankeval uses: first appearance, run by run. For
# the fixture scripts beside it.
import sys

from numba.typed import List as TypedList
from numba.types import unicode_type


def first_appearance_candidates(runs):
    candidates = TypedList()
    for q_id in runs[0].keys():
        seen = dict.fromkeys(doc_id for run in runs for doc_id in list(run[q_id].keys()))
        if seen:
            candidates.append(TypedList(list(seen)))
        else:
            candidates.append(TypedList.empty_list(unicode_type))
    return candidates


def pin():
    for module in (
        "ranx.normalization.borda_norm",
        "ranx.fusion.bordafuse",
        "ranx.fusion.weighted_bordafuse",
        "ranx.fusion.condorcet",
        "ranx.fusion.weighted_condorcet",
    ):
        sys.modules[module].get_candidates = first_appearance_candidates
