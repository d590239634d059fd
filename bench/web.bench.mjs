// npm run bench:web: the static page (web/) in headless Chromium on a generated ~1 GB run, as a user
// gives it the files: builds the page with Vite, serves it on 127.0.0.1, drives Debian's chromium
// (/usr/bin/chromium) with playwright-core, sets the qrels (the page reads them at once), waits until
// they are read (body[data-judgments]), sets the run, and times until the page says done
// (body[data-state]): from setting the qrels, and from setting the run. Then the generator's LETOR file
// and its scores, set together. A new browser for each. Prints a Markdown table with the
// throughput and the tab's peak memory, then each row's timeline: the worker's messages as the page
// receives them, how long the page takes over each, and the renderer's memory then.
//
//   node bench/web.bench.mjs [QUERIES] [DOCS_PER_QUERY]      (default 300000 100, seed 2: run.txt 1.06 GB)
//
// Environment:
//   RANKEVAL_WEB_BENCH_DIR      the generated set (default: os.tmpdir()/rankeval-web-bench-QUERIES-DOCS-2),
//                               generated once with ../shared/tools/gen-trec.mjs (a few minutes), then reused
//   RANKEVAL_WEB_BENCH_ONLY     "trec" or "letor": one row only
//   RANKEVAL_WEB_BENCH_TIMEOUT  seconds to wait for each run of a row (default 600)
//   RANKEVAL_WEB_BENCH_RUNS     runs of each row (default 3; the median time, the largest memory)
//   RANKEVAL_WEB_BENCH_QUERY    the page's URL query, as "?workers=1" (one worker, no partition workers)
//   RANKEVAL_WEB_BENCH_PROFILE  a directory: also writes CPU profiles of the page's main thread and of its
//                               worker (.cpuprofile, for DevTools; the page built unminified), prints their
//                               top functions, and samples both V8 heaps (JS heap, ArrayBuffers) every 500 ms
//
// Memory is read from /proc for every process of the chromium this script launches (the descendants of
// this Node process whose executable is chromium's): VmRSS and RssAnon from /proc/PID/status every
// 100 ms, Pss from /proc/PID/smaps_rollup every 2 s (a page-table walk: 150 ms of kernel time on a
// 7 GiB process). "Tab memory" is the peak RSS of the page's renderer process, which also holds its
// dedicated worker (both V8 heaps, the ArrayBuffers, the WebAssembly memory, Blink's own heap, the DOM):
// the kernel's own high-water mark, VmHWM, read as the row ends (no sampling gap), shared libraries
// included. Beside it: the renderer's sampled peak private anonymous memory (RssAnon, what Chrome's task
// manager calls its memory footprint on Linux) and the peak, at one sample, of Pss summed over all of
// that chromium's processes (browser, zygotes, GPU and utility processes, renderers).
//
// Measured on this project's machine (AMD EPYC, 2 cores, 24 GiB; Node v20.20.2, Chromium 156), 2026-11-21,
// three runs each on a quiet machine: qrels 491 MB then run 1064 MB in 5.4 s (5.4, 5.4, 5.5), the run
// alone 4.0 s, 269 MB/s (287 MB/s of both files over all the time), tab memory 1.16 GiB (1.25 GB);
// LETOR 1782 MB + scores 177 MB in 9.2 s, 195 MB/s, 2.11 GiB. At 0104e48 (one worker; the qrels read
// only once the run was set): 10.5 s, 101 MB/s of run, 1.27 GiB. The issue's targets, 200 MB/s for a
// 1 GB run and a tab under 1.5 GB, are met.
//
// Partition workers (web/partitions.ts), measured 2026-11-27 on the same machine (Chromium 156.0.8078.108),
// single runs interleaved, load 2.2-2.9 (uptime): before them (0d739ff) the run in 2.4-2.6 s (412-438
// MB/s), tab 1.22-1.25 GiB; with them, by default the same (one worker on two cores: MIN_CORES), 2.4-2.6 s
// (411-443 MB/s); with ?workers=2 (RANKEVAL_WEB_BENCH_QUERY), two partition workers, 3.4 s (311-316 MB/s),
// tab 1.52-1.60 GiB. Under a load of 4-5: one worker 3.3-4.0 s, two partition workers 5.2-5.6 s. On two
// cores the partition workers do more in all (the split, the buckets' copies, the slices read: each
// worker, over qrels and run, 0.35 s in the split, 0.18 s taking bucket buffers) for the same kernel work
// (per worker: parse 0.37 s run + 0.4 s qrels, join 0.26 s, measures about 0.3 s), and wait 40% of the
// time on the other threads (the browser's reads of the slices, the coordinating worker, the page): both
// cores are busy, so no split of the work is faster than the one worker's reader and evaluator. The 500
// MB/s target needs a third core, or less work per row. Tab memory with ?workers=3: 1.61 GiB, with
// ?workers=4: 1.85 GiB (4.5 s and 4.8 s on these two cores, load 6-9).
import { execFileSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";

const queries = process.argv[2] ?? "300000";
const docs = process.argv[3] ?? "100";
const SEED = "2";
const root = new URL("..", import.meta.url).pathname;
const TIMEOUT = Number(process.env.RANKEVAL_WEB_BENCH_TIMEOUT ?? 600) * 1000;
const ONLY = process.env.RANKEVAL_WEB_BENCH_ONLY;
const PROFILE = process.env.RANKEVAL_WEB_BENCH_PROFILE;
if (PROFILE) mkdirSync(PROFILE, { recursive: true });
const RUNS = Number(process.env.RANKEVAL_WEB_BENCH_RUNS ?? 3);
const QUERY = process.env.RANKEVAL_WEB_BENCH_QUERY ?? "";
const fail = (message) => {
  console.error(`bench/web.bench.mjs: ${message}`);
  process.exit(1);
};

if (!existsSync(CHROMIUM))
  fail(`${CHROMIUM} is missing: the browser benchmark needs Debian's chromium (apt-get install chromium)`);

// 1. The generated set: once, into a temporary name renamed when complete, so that a generation cut
//    short is never taken for a set.
const generator = join(root, "../shared/tools/gen-trec.mjs");
const data = process.env.RANKEVAL_WEB_BENCH_DIR ?? join(os.tmpdir(), `rankeval-web-bench-${queries}-${docs}-${SEED}`);
const FILES = ["qrels.txt", "run.txt", "letor.txt", "letor.scores"];
if (!FILES.every((f) => existsSync(join(data, f)))) {
  if (!existsSync(generator))
    fail(
      `${generator} is missing: the generator lives in ../shared/tools (or set RANKEVAL_WEB_BENCH_DIR to a generated set)`,
    );
  const partial = `${data}.partial-${process.pid}`;
  console.log(`generating ${data} (${queries} queries x ${docs} documents, seed ${SEED}; a few minutes) ...`);
  execFileSync("node", [generator, partial, queries, docs, SEED], { stdio: "inherit" });
  rmSync(data, { recursive: true, force: true });
  renameSync(partial, data);
}
const path = (f) => join(data, f);
const bytes = (f) => statSync(path(f)).size;
const MB = (n) => n / 1e6;
// The default set must be the issue's: a run of about 1 GB (other sizes: not empty).
const [low, high] = process.argv[2] === undefined && process.argv[3] === undefined ? [0.9e9, 1.2e9] : [1, Infinity];
if (!(bytes("run.txt") >= low && bytes("run.txt") <= high)) {
  fail(
    `${path("run.txt")} has ${bytes("run.txt")} bytes, not the ${low}..${high} expected: delete ${data} to generate it again`,
  );
}
// The files in the page cache, so that the disk is not what is measured (a file just written or
// downloaded is there too).
function warm(file) {
  const fd = openSync(file, "r");
  const buf = Buffer.allocUnsafe(16 << 20);
  while (readSync(fd, buf, 0, buf.length, null) > 0);
  closeSync(fd);
}

// 2. The page, built and served as the browser tests have it (scripts/page.mjs); unminified when
//    profiling, so that the profiles name the functions.
const site = mkdtempSync(join(os.tmpdir(), "rankeval-web-bench-site-"));
const server = await servePage(site, PROFILE ? { minify: false } : {});
const base = server.url;

// 3. Memory from /proc.
function processes() {
  const parent = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "latin1");
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {} // gone meanwhile
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) if (!mine.has(pid) && mine.has(ppid)) mine.add(pid), (grew = true);
  }
  const out = [];
  for (const pid of mine) {
    try {
      // Chromium rewrites its children's argv into one blank-separated string.
      const argv = readFileSync(`/proc/${pid}/cmdline`, "latin1").split(/[\0 ]/);
      if (!/chromium/.test(argv[0])) continue;
      const type = /^--type=(.*)$/.exec(argv.find((a) => a.startsWith("--type=")) ?? "")?.[1] ?? "browser";
      out.push({
        pid,
        type: type === "utility" ? `utility ${/--utility-sub-type=([\w.]+)/.exec(argv.join(" "))?.[1] ?? ""}` : type,
      });
    } catch {}
  }
  return out;
}
function kB(text, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
  return m ? Number(m[1]) * 1024 : 0;
}
function memory(pid, withPss) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "latin1");
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const [utime, stime] = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .slice(11, 13)
      .map(Number);
    let pss = 0;
    // smaps_rollup walks the page tables under the process's mmap lock: costly on a process of
    // gigabytes (150 ms at 7 GiB: a core, and a slower page, at every 100 ms), so every 2 seconds.
    if (withPss) pss = kB(readFileSync(`/proc/${pid}/smaps_rollup`, "latin1"), "Pss");
    return {
      rss: kB(status, "VmRSS"),
      hwm: kB(status, "VmHWM"),
      anon: kB(status, "RssAnon"),
      pss,
      cpu: (utime + stime) / 100,
    };
  } catch {
    return null; // gone meanwhile
  }
}
/** CPU seconds of a process's threads, by thread name (the renderer's main thread is "chromium"). */
function threads(pid) {
  const out = {};
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, "latin1");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const [utime, stime] = stat
        .slice(stat.lastIndexOf(")") + 2)
        .split(" ")
        .slice(11, 13)
        .map(Number);
      out[name] = (out[name] ?? 0) + (utime + stime) / 100;
    }
  } catch {}
  return out;
}
/**
 * Samples every 100 ms until stop() (Pss and the list of processes every 2 seconds): per process the
 * peaks, over all processes the peak sum of Pss; now() the renderers' current RSS, for a progress line.
 */
function sampler() {
  const peaks = new Map(); // pid -> { pid, type, rss, hwm, anon, pss, cpu }
  let sumPss = 0;
  let list = [];
  let n = 0;
  let current = 0;
  let peakRss = 0;
  let peakAt = 0;
  const cpu0 = process.cpuUsage();
  const sample = (all = n % 20 === 0) => {
    if (all) list = processes();
    n++;
    let pss = 0;
    let renderers = 0;
    for (const { pid, type } of list) {
      const m = memory(pid, all);
      if (!m) continue;
      pss += m.pss;
      if (type === "renderer") renderers = Math.max(renderers, m.rss);
      if (type === "renderer" && m.rss > peakRss) [peakRss, peakAt] = [m.rss, Date.now()];
      const p = peaks.get(pid) ?? { pid, type, rss: 0, hwm: 0, anon: 0, pss: 0, cpu: 0 };
      for (const k of ["rss", "hwm", "anon", "pss", "cpu"]) p[k] = Math.max(p[k], m[k]);
      peaks.set(pid, p);
    }
    current = renderers;
    if (all) sumPss = Math.max(sumPss, pss);
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    now: () => current,
    stop() {
      clearInterval(timer);
      sample(true); // the last, with VmHWM: the kernel's exact peak RSS, sampled or not
      const { user, system } = process.cpuUsage(cpu0);
      for (const p of peaks.values()) if (p.type === "renderer") p.threads = threads(p.pid);
      return { peaks: [...peaks.values()], sumPss, samplerCpu: (user + system) / 1e6, peakAt };
    },
  };
}

// 4. In the page, before its own script: a Worker that notes every message the page receives (when,
//    how long its data takes to deserialize, how long the page's handler takes) and the state changes.
function instrument() {
  // To the benchmark as it happens (a binding): still there when the page hangs or crashes.
  const log = { push: (e) => window.__benchLog(e) };
  const now = () => performance.timeOrigin + performance.now();
  const Native = window.Worker;
  window.Worker = class extends Native {
    set onmessage(handler) {
      super.onmessage = (e) => {
        const t0 = now();
        const d = e.data; // deserialized here, on first access
        const t1 = now();
        const note = { type: d?.type, file: d?.file, read: d?.read, size: d?.size, name: d?.name, message: d?.message };
        // On receipt (the page may then be busy for minutes) and once handled; progress once.
        if (note.type !== "progress") log.push({ t: t0, ...note, received: true, data: t1 - t0 });
        handler.call(this, e);
        const t2 = now();
        log.push({ t: t2, ...note, handled: true, data: t1 - t0, handler: t2 - t1 });
      };
    }
    get onmessage() {
      return super.onmessage;
    }
  };
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.attributeName === "data-state") log.push({ t: now(), state: document.body.dataset.state });
      else if (document.body.dataset.judgments) log.push({ t: now(), judgments: document.body.dataset.judgments });
    }
  }).observe(document, {
    subtree: true,
    attributes: true,
    attributeFilter: ["data-state", "data-judgments"],
  });
}

/** Top functions by self time of a CDP profile. */
function topFunctions(profile, n = 12) {
  const self = new Map();
  const dt = new Map();
  profile.nodes.forEach((node) => dt.set(node.id, 0));
  const times = profile.timeDeltas ?? [];
  profile.samples?.forEach((id, i) => dt.set(id, dt.get(id) + (times[i] ?? 0)));
  let total = 0;
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const key =
      `${f.functionName || "(anonymous)"} ${f.url ? `${f.url.split("/").pop()}:${f.lineNumber + 1}` : ""}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt.get(node.id));
    total += dt.get(node.id);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${(us / 1e6).toFixed(2).padStart(7)} s ${((100 * us) / total).toFixed(0).padStart(3)}%  ${k}`);
}

/**
 * One row: a new browser, the page, the inputs set in order, until done or error (or the timeout, or
 * a crash). The clock starts as the first is set; an input marked `then: "judgments"` (the qrels) is
 * followed by a wait until the page has read it (body[data-judgments]), as a user picking the run
 * after it would; `mainSeconds` counts from setting the last input (the run alone).
 */
async function measure(label, inputs) {
  for (const [, f] of inputs) warm(path(f));
  const browser = await launchChromium({ timeout: 60_000 });
  const version = browser.version();
  let result;
  let mem;
  const profiles = [];
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    let crashed = false;
    page.on("crash", () => (crashed = true));
    const live = [];
    let sampling = null;
    // Each note with the renderer's RSS as it arrives.
    await page.exposeFunction("__benchLog", (e) => void live.push({ ...e, rss: sampling?.now() ?? 0 }));
    await page.addInitScript(instrument);
    await page.goto(base + QUERY);
    let session;
    let workerSession;
    if (PROFILE) {
      // The main thread through the page's session; the worker through the same session, auto-attached.
      session = await page.context().newCDPSession(page);
      await session.send("Profiler.enable");
      await session.send("Profiler.setSamplingInterval", { interval: 1000 });
      await session.send("Profiler.start");
      workerSession = attachWorkers(session);
    }
    sampling = sampler();
    // Profiling: the V8 heaps of the worker and of the main thread, every 500 ms (Runtime.getHeapUsage:
    // the JS heap, and the ArrayBuffers' backing stores), their peaks with the time.
    const heaps = { worker: { used: 0, backing: 0 }, main: { used: 0, backing: 0 } };
    const series = [];
    let heapTimer = null;
    if (PROFILE) {
      const note = (which, r, now) => {
        if (!r) return;
        const h = heaps[which];
        if (r.usedSize > h.used) [h.used, h.usedAt] = [r.usedSize, now];
        if ((r.backingStorageSize ?? 0) > h.backing) [h.backing, h.backingAt] = [r.backingStorageSize, now];
      };
      let busy = false;
      heapTimer = setInterval(async () => {
        if (busy) return;
        busy = true;
        const now = Date.now();
        const [w, m] = await Promise.all([
          workerSession.heap(),
          session.send("Runtime.getHeapUsage").catch(() => null),
        ]);
        note("worker", w, now);
        note("main", m, now);
        series.push({ now, rss: sampling.now(), w, m });
        busy = false;
      }, 500);
    }
    const start = Date.now();
    let mainStart = start;
    for (const [i, [name, f, then]] of inputs.entries()) {
      if (i === inputs.length - 1) mainStart = Date.now();
      await page.setInputFiles(`input[name="${name}"]`, path(f));
      if (then !== "judgments") continue;
      while (!live.some((e) => e.judgments || e.state === "error") && !crashed && Date.now() - start < TIMEOUT)
        await new Promise((r) => setTimeout(r, 20));
    }
    let state;
    let timedOut = false;
    let lastNote = Date.now();
    for (;;) {
      if (crashed) break;
      // From the page's own notes, not page.evaluate(), which waits while the page is busy.
      state = live.findLast((e) => e.state)?.state;
      if (state === "done" || state === "error" || state === "cancelled") break;
      if (Date.now() - lastNote > 30_000) {
        lastNote = Date.now();
        const e = live.findLast((x) => x.type);
        console.log(
          `  ${((Date.now() - start) / 1000).toFixed(0)} s: largest renderer RSS ${(sampling.now() / 2 ** 30).toFixed(2)} GiB; last message: ${e?.type ?? "none"}${e?.type === "progress" ? ` ${e.file} ${(e.read / 1e6).toFixed(0)} MB` : ""}`,
        );
      }
      if (Date.now() - start > TIMEOUT) {
        timedOut = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const waited = Date.now() - start;
    mem = sampling.stop();
    clearInterval(heapTimer);
    const log = live;
    const end = log.find((e) => e.state === "done" || e.state === "error")?.t;
    const error =
      crashed || timedOut ? "" : ((await page.textContent("#error", { timeout: 30_000 }).catch(() => "")) ?? "");
    // How many partition workers evaluated the run (web/partitions.ts; 1: the page's worker alone).
    const workers = crashed || timedOut ? "" : await page.evaluate(() => document.body.dataset.workers ?? "");
    if (PROFILE && !crashed) {
      // The worker first: a page that timed out may be busy for long on its main thread.
      const within = (p) => Promise.race([p.catch(() => null), new Promise((r) => setTimeout(() => r(null), 30_000))]);
      const w = await within(workerSession.stop());
      if (w) profiles.push(["worker", w]);
      const main = await within(session.send("Profiler.stop"));
      if (main) profiles.push(["main thread", main.profile]);
    }
    result = {
      label,
      version,
      state: crashed ? "crashed" : timedOut ? "timeout" : state,
      error: crashed
        ? "the renderer crashed (out of memory?)"
        : timedOut
          ? `no result after ${TIMEOUT / 1000} s`
          : error,
      pageErrors: errors,
      workers,
      seconds: ((end ?? start + waited) - start) / 1000,
      mainSeconds: ((end ?? start + waited) - mainStart) / 1000,
      start,
      heaps: PROFILE ? heaps : null,
      series: PROFILE ? series : null,
      log: log.map((e) => ({ ...e, t: (e.t - start) / 1000 })),
      mem,
    };
  } finally {
    await browser.close();
  }
  for (const [which, profile] of profiles) {
    const file = join(PROFILE, `${label.replace(/\W+/g, "-")}-${which.replace(/\W+/g, "-")}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    result.profiles = [...(result.profiles ?? []), { which, file, top: topFunctions(profile) }];
  }
  return result;
}

/**
 * Auto-attaches to the page's dedicated worker through the page's CDP session (not flattened: its
 * messages go through Target.sendMessageToTarget) and starts its profiler; stop() returns the profile.
 */
function attachWorkers(session) {
  let id = 0;
  const pending = new Map();
  let worker = null;
  session.on("Target.receivedMessageFromTarget", ({ message }) => {
    const m = JSON.parse(message);
    if (m.id && pending.has(m.id)) pending.get(m.id)(m);
  });
  const send = (sessionId, method, params = {}) =>
    new Promise((resolve) => {
      const i = ++id;
      pending.set(i, resolve);
      session
        .send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: i, method, params }) })
        .catch(() => resolve({}));
    });
  session.on("Target.attachedToTarget", async ({ sessionId, targetInfo, waitingForDebugger }) => {
    if (targetInfo.type !== "worker") return;
    worker = sessionId;
    await send(sessionId, "Profiler.enable");
    await send(sessionId, "Profiler.setSamplingInterval", { interval: 1000 });
    await send(sessionId, "Profiler.start");
    if (waitingForDebugger) await send(sessionId, "Runtime.runIfWaitingForDebugger");
  });
  session
    .send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: true, flatten: false })
    .catch((e) => console.error(`no worker profile: ${e.message}`));
  return {
    async heap() {
      return worker ? ((await send(worker, "Runtime.getHeapUsage")).result ?? null) : null;
    },
    async stop() {
      if (!worker) return null;
      const r = await send(worker, "Profiler.stop");
      return r.result?.profile ?? null;
    },
  };
}

/**
 * A row RUNS times (a row that does not finish, once): the run of median time, with the largest tab
 * memory and Pss of all runs.
 */
async function row(label, inputs, extra) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await measure(label, inputs);
    runs.push(r);
    if (r.state !== "done") break;
  }
  const byTime = [...runs].sort((a, b) => a.seconds - b.seconds);
  const median = byTime[Math.floor((byTime.length - 1) / 2)];
  const top = (r) => Math.max(0, ...r.mem.peaks.filter((p) => p.type === "renderer").map((p) => p.hwm));
  const worst = runs.reduce((a, b) => (top(b) > top(a) ? b : a));
  return {
    ...median,
    ...extra,
    runs: runs.length,
    times: runs.map((r) => r.seconds),
    tab: top(worst),
    tabAnon: Math.max(
      ...runs.map((r) => Math.max(0, ...r.mem.peaks.filter((p) => p.type === "renderer").map((p) => p.anon))),
    ),
    sumPss: Math.max(...runs.map((r) => r.mem.sumPss)),
  };
}

const rows = [];
const set = {
  qrels: bytes("qrels.txt"),
  run: bytes("run.txt"),
  letor: bytes("letor.txt"),
  scores: bytes("letor.scores"),
};
try {
  if (ONLY !== "letor") {
    console.log(`TREC: qrels ${MB(set.qrels).toFixed(0)} MB, run ${MB(set.run).toFixed(0)} MB ...`);
    rows.push(
      await row(
        "TREC",
        [
          ["qrels", "qrels.txt", "judgments"],
          ["run", "run.txt"],
        ],
        {
          main: set.run,
          total: set.run + set.qrels,
          what: `qrels ${MB(set.qrels).toFixed(0)} MB + run ${MB(set.run).toFixed(0)} MB`,
        },
      ),
    );
  }
  if (ONLY !== "trec") {
    console.log(`LETOR: ${MB(set.letor).toFixed(0)} MB, scores ${MB(set.scores).toFixed(0)} MB ...`);
    rows.push(
      await row(
        "LETOR",
        [
          ["letor", "letor.txt"],
          ["scores", "letor.scores"],
        ],
        {
          main: set.letor,
          total: set.letor + set.scores,
          what: `LETOR ${MB(set.letor).toFixed(0)} MB + scores ${MB(set.scores).toFixed(0)} MB`,
        },
      ),
    );
  }
} finally {
  await server.close();
  rmSync(site, { recursive: true, force: true });
}

// 5. The report.
const gb = (n) => `${(n / 2 ** 30).toFixed(2)} GiB`;
console.log(
  `\n${os.cpus()[0]?.model ?? "CPU"}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; Chromium ${rows[0]?.version ?? "?"} (headless, ${CHROMIUM}); ${new Date().toISOString().slice(0, 10)}`,
);
console.log(
  `${queries} queries x ${docs} documents (seed ${SEED}), ${data}; the page's default measures (trec_eval's defaults; the CLI's --letor defaults)${QUERY ? `; the page opened with ${QUERY}` : ""}; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} (uptime) at the end\n`,
);
console.log(
  "| input | result | time, all files (median) | of which the run or LETOR file | MB/s of run or LETOR file, in its time | MB/s of all bytes, in all the time | tab memory (renderer peak RSS) | renderer peak RssAnon | all chromium processes, peak Pss |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  const result =
    r.state === "done" ? `done, ${r.workers} worker${r.workers === "1" ? "" : "s"}` : `**${r.state}**: ${r.error}`;
  const times = r.runs > 1 ? ` (${r.times.map((t) => t.toFixed(2)).join(", ")})` : "";
  console.log(
    `| ${r.what} | ${result} | ${r.seconds.toFixed(2)} s${times} | ${r.mainSeconds.toFixed(1)} s | ${(MB(r.main) / r.mainSeconds).toFixed(0)} | ${(MB(r.total) / r.seconds).toFixed(0)} | ${gb(r.tab)} (${(r.tab / 1e9).toFixed(2)} GB) | ${gb(r.tabAnon)} | ${gb(r.sumPss)} |`,
  );
}
console.log(
  "\nThe qrels are read first (the page reads a qrels file as soon as it is chosen), then the run is set: its time runs from then to the results. A LETOR file and its scores are set together.",
);
console.log(
  "\nTab memory: VmHWM (peak resident set, all of it: main thread, worker, wasm memory, shared libraries) of the page's renderer (the largest renderer process), from /proc; RssAnon sampled every 100 ms, Pss every 2 s. The issue's target: 200 MB/s of run or more, tab memory under 1.5 GB.",
);

for (const r of rows) {
  console.log(
    `\n### ${r.label}: timeline${r.runs > 1 ? " of the median run" : ""} (seconds from setting the first input; page: deserializing the message's data + the page's handler)\n`,
  );
  console.log(
    `renderer's sampled peak RSS ${gb(Math.max(...r.mem.peaks.map((p) => p.rss)))} at ${r.mem.peakAt ? (r.mem.peakAt - r.start) / 1000 : "?"} s\n`,
  );
  console.log("| at | message | page | renderer RSS |\n|---:|---|---:|---:|");
  let lastProgress = null;
  for (const e of r.log) {
    if (e.state || e.judgments) {
      console.log(
        `| ${e.t.toFixed(2)} | ${e.state ? `state ${e.state}` : `judgments ${e.judgments}`} | | ${gb(e.rss)} |`,
      );
      continue;
    }
    if (e.type === "progress") {
      // Each file's first, one a quarter, and the last.
      const quarter = Math.floor((4 * e.read) / e.size);
      if (
        lastProgress?.file !== e.file ||
        quarter > Math.floor((4 * lastProgress.read) / lastProgress.size) ||
        e.read === e.size
      )
        console.log(
          `| ${e.t.toFixed(2)} | progress ${e.file} ${MB(e.read).toFixed(0)} of ${MB(e.size).toFixed(0)} MB | ${(e.data + e.handler).toFixed(0)} ms | ${gb(e.rss)} |`,
        );
      lastProgress = e;
      continue;
    }
    const what = `${e.type}${e.name ? ` ${e.name}` : ""}${e.message ? `: ${e.message}` : ""}`;
    if (e.received)
      console.log(`| ${e.t.toFixed(2)} | ${what}: received | ${e.data.toFixed(0)} ms to deserialize | ${gb(e.rss)} |`);
    else if (e.handler >= 1)
      console.log(
        `| ${e.t.toFixed(2)} | ${what}: handled | ${e.handler.toFixed(0)} ms in the page's handler | ${gb(e.rss)} |`,
      );
  }
  if (r.heaps) {
    const at = (t) => (t ? ` at ${((t - r.start) / 1000).toFixed(1)} s` : "");
    for (const [which, h] of Object.entries(r.heaps))
      console.log(
        `\nV8, ${which}: peak JS heap used ${gb(h.used)}${at(h.usedAt)}, peak ArrayBuffer backing stores ${gb(h.backing)}${at(h.backingAt)} (sampled every 500 ms)`,
      );
    const g = (n) => (n / 2 ** 30).toFixed(2);
    console.log(
      "\nseconds: renderer RSS | worker: JS heap used, JS heap committed, ArrayBuffers (allocated, not all touched) | main thread: the same (GiB)",
    );
    const step = Math.ceil(r.series.length / 60);
    for (const x of r.series.filter((_, i) => i % step === 0))
      console.log(
        `  ${((x.now - r.start) / 1000).toFixed(1)}: ${g(x.rss)} | ${g(x.w?.usedSize ?? 0)}, ${g(x.w?.totalSize ?? 0)}, ${g(x.w?.backingStorageSize ?? 0)} | ${g(x.m?.usedSize ?? 0)}, ${g(x.m?.totalSize ?? 0)}, ${g(x.m?.backingStorageSize ?? 0)}`,
      );
  }
  if (r.pageErrors.length) console.log(`\npage errors: ${r.pageErrors.join("; ")}`);
  for (const p of r.mem.peaks.filter((p) => p.threads && p.cpu > 1)) {
    const named = Object.entries(p.threads)
      .filter(([, s]) => s >= 0.1)
      .sort((a, b) => b[1] - a[1]);
    console.log(
      `\nrenderer ${p.pid}, CPU by thread: ${named.map(([n, s]) => `${n === "chromium" ? "main thread" : n} ${s.toFixed(1)} s`).join(", ")}`,
    );
  }
  console.log(`\nsampling /proc cost this script ${r.mem.samplerCpu.toFixed(1)} s of CPU in ${r.seconds.toFixed(0)} s`);
  console.log(
    "processes (peaks): " +
      r.mem.peaks
        .map((p) => `${p.type} ${p.pid}: RSS ${gb(p.hwm)}, Pss ${gb(p.pss)}, CPU ${p.cpu.toFixed(1)} s`)
        .join("; "),
  );
  for (const p of r.profiles ?? [])
    console.log(`\nCPU profile, ${p.which} (${p.file}), self time:\n${p.top.map((l) => `    ${l}`).join("\n")}`);
}
if (rows.some((r) => r.state !== "done")) process.exitCode = 1;
