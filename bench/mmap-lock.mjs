// Does a command queue on its process's memory-map lock (mmap_lock)? Per thread: page faults, the lock
// taken for read and for write, time waiting to take it and time holding it, from the kernel's
// tracepoints (Linux 5.10+; root, or perf_event_paranoid -1, and tracefs mounted):
//   node bench/mmap-lock.mjs -- node dist/node/bin.js -m map QRELS RUN > /dev/null
// Since Linux 6.4 most page faults take a per-VMA lock instead, so they are counted but do not take it.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

const at = process.argv.indexOf("--");
const command = at < 0 ? [] : process.argv.slice(at + 1);
if (!command.length) {
  console.error("usage: node bench/mmap-lock.mjs -- COMMAND [ARGS...]");
  process.exit(2);
}
const data = join(mkdtempSync(join(os.tmpdir(), "rankeval-mmap-lock-")), "perf.data");
const events = ["start_locking", "acquire_returned", "released"].map((e) => `mmap_lock:mmap_lock_${e}`);
const record = spawnSync(
  "perf",
  [
    "record",
    "-q",
    "-o",
    data,
    ...[...events, "exceptions:page_fault_user"].flatMap((e) => ["-e", e]),
    "--",
    ...command,
  ],
  { stdio: ["inherit", "inherit", "inherit"] },
);
if (record.status !== 0) process.exit(record.status ?? 1);
const script = spawnSync("perf", ["script", "-i", data], { maxBuffer: 1 << 30 });
const threads = new Map();
const get = (tid) => {
  let t = threads.get(tid);
  if (!t) threads.set(tid, (t = { faults: 0, read: 0, write: 0, wait: 0, held: 0, maxWait: 0, start: {}, taken: {} }));
  return t;
};
for (const line of script.stdout.toString().split("\n")) {
  const m = /^\s*\S+\s+(\d+)\s+\[\d+\]\s+([\d.]+):\s+(\S+):\s.*?(?:write=(\w+))?/.exec(line);
  if (!m) continue;
  const [, tid, ts, event] = m;
  const t = get(tid);
  if (event === "exceptions:page_fault_user") {
    t.faults++;
    continue;
  }
  const write = /write=true/.test(line) ? "w" : "r";
  const time = Number(ts);
  if (event.endsWith("start_locking")) t.start[write] = time;
  else if (event.endsWith("acquire_returned")) {
    // A trylock has no start: no wait.
    const waited = t.start[write] === undefined ? 0 : time - t.start[write];
    t.start[write] = undefined;
    t.wait += waited;
    t.maxWait = Math.max(t.maxWait, waited);
    if (write === "w") t.write++;
    else t.read++;
    t.taken[write] = time;
  } else if (event.endsWith("released") && t.taken[write] !== undefined) {
    t.held += time - t.taken[write];
    t.taken[write] = undefined;
  }
}
const ms = (s) => (s * 1e3).toFixed(1);
console.log("| thread | page faults | lock taken (read / write) | waited ms (longest) | held ms |");
console.log("|---|---|---|---|---|");
const all = { faults: 0, read: 0, write: 0, wait: 0, held: 0, maxWait: 0 };
for (const [tid, t] of [...threads].sort((a, b) => b[1].faults - a[1].faults)) {
  for (const k of ["faults", "read", "write", "wait", "held"]) all[k] += t[k];
  all.maxWait = Math.max(all.maxWait, t.maxWait);
  if (t.faults + t.read + t.write >= 100)
    console.log(`| ${tid} | ${t.faults} | ${t.read} / ${t.write} | ${ms(t.wait)} (${ms(t.maxWait)}) | ${ms(t.held)} |`);
}
console.log(
  `| all | ${all.faults} | ${all.read} / ${all.write} | ${ms(all.wait)} (${ms(all.maxWait)}) | ${ms(all.held)} |`,
);
