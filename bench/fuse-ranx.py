# ranx's side of bench/fuse.mjs: load two TREC runs, fuse them, save the fused run as TREC text, timed
# apart (load, fuse, save) and in all. Run through ../shared/tools/ranx-python.sh (ranx 0.3.20).
#   fuse-ranx.py RUN1 RUN2 OUT METHOD NORM     (METHOD rrf or wsum; NORM min-max or none)
# Prints one JSON line: {"load": s, "fuse": s, "save": s, "total": s, "cpu": s} (cpu: the process's CPU
# seconds over the three, every thread: numba's parallel loops run on several). numba compiles the functions on
# the first call (cached on disk after): a warm-up on a two-query run does that before the clock starts.
import json
import sys
import time

from ranx import Run, fuse

run1, run2, out, method, norm = sys.argv[1:6]
norm = None if norm == "none" else norm
params = {"weights": [0.5, 0.5]} if method == "wsum" else {}

tiny = [Run({"q1": {"a": 1.0, "b": 0.5}, "q2": {"c": 2.0}}, name=n) for n in ("x", "y")]
fuse(tiny, norm=norm, method=method, params=params)

c0 = time.process_time()
t0 = time.perf_counter()
runs = [Run.from_file(run1, kind="trec"), Run.from_file(run2, kind="trec")]
t1 = time.perf_counter()
fused = fuse(runs, norm=norm, method=method, params=params)
t2 = time.perf_counter()
fused.save(out, kind="trec")
t3 = time.perf_counter()
c3 = time.process_time()
print(json.dumps({"load": t1 - t0, "fuse": t2 - t1, "save": t3 - t2, "total": t3 - t0, "cpu": c3 - c0}))
