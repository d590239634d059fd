// What each thread of one command did, 50 ms a character, on one clock (issue 39: who waits on whom):
//   node --cpu-prof --cpu-prof-dir=DIR --cpu-prof-interval 500 dist/node/bin.js ... QRELS RUN
//   node bench/thread-timeline.mjs DIR/*.cpuprofile
// Node writes one profile per thread; their times share V8's monotonic clock.
import fs from "node:fs";
const files = process.argv.slice(2);
const ps = files.map((f) => JSON.parse(fs.readFileSync(f)));
const t0 = Math.min(...ps.map((p) => p.startTime));
const W = 50000;
const cat = (n, parentOf, byId) => {
  const f = n.callFrame.functionName;
  if (f === "(idle)") return ".";
  if (f === "(garbage collector)") return "g";
  for (let x = n.id; x !== undefined; x = parentOf.get(x)) {
    const c = byId.get(x).callFrame,
      u = c.url,
      fn = c.functionName;
    if (/readJudgments|QrelsParser|qrels/i.test(fn)) return "Q";
    if (/^(evaluate|evaluateBlock|measure|compute)/i.test(fn)) return "E";
    if (/join/i.test(fn)) return "J";
    if (/format|write|output|report/i.test(fn) && !/node:/.test(u)) return "O";
  }
  const u = n.callFrame.url;
  if (u.startsWith("wasm")) return "w";
  if (u.startsWith("node:") || u === "") return "n";
  return "j";
};
for (const [i, p] of ps.entries()) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parentOf = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  let t = p.startTime;
  const b = new Map();
  for (let k = 0; k < p.samples.length; k++) {
    t += p.timeDeltas[k];
    const n = byId.get(p.samples[k]);
    const c = cat(n, parentOf, byId);
    const slot = Math.floor((t - t0) / W);
    const m = b.get(slot) ?? new Map();
    m.set(c, (m.get(c) ?? 0) + p.timeDeltas[k]);
    b.set(slot, m);
  }
  const last = Math.floor((p.endTime - t0) / W);
  let line = "";
  for (let s = 0; s <= last; s++) {
    const m = b.get(s);
    if (!m) {
      line += s < Math.floor((p.startTime - t0) / W) ? " " : ".";
      continue;
    }
    line += [...m].sort((a, c) => c[1] - a[1])[0][0];
  }
  const idle = [...b.values()].reduce((a, m) => a + (m.get(".") ?? 0), 0) / 1000;
  console.log(
    `thread ${i} start +${((p.startTime - t0) / 1000).toFixed(0)} ms end +${((p.endTime - t0) / 1000).toFixed(0)} ms idle ${idle.toFixed(0)} ms`,
  );
  console.log("  " + line);
}
console.log(
  "  (one char = 50 ms; Q qrels, J join, E evaluate, O output, w wasm, j js, n node internals, g gc, . idle)",
);
