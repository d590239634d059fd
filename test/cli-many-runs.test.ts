// Many runs in one command (src/node/runs.ts, src/node/pool.ts): a directory or a glob of runs, 1,000
// runs, output in the order given and written run by run, a bad line in run 57 of 200, progress on a
// terminal; in process (from the sources: every run in this thread) and through the built binary
// (large runs, or every run with RANKEVAL_THREAD_MIN_BYTES=0, parsed by the pool's worker threads).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../src/node/cli.js";
import { Progress } from "../src/node/progress.js";
import { expandRuns, globRegExp } from "../src/node/runs.js";

const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "rankeval-many-"));

function file(path: string, text: string): string {
  const full = join(dir, path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, text);
  return full;
}

async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

function binary(argv: string[], env: Record<string, string> = {}): { status: number | null; out: string; err: string } {
  const r = spawnSync("node", [bin, ...argv], {
    encoding: "utf8",
    timeout: 120_000,
    maxBuffer: 1 << 28,
    env: { ...process.env, ...env },
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

// Three queries judged; run i ranks them with scores that differ from run to run.
const qrels = file(
  "qrels.txt",
  ["q1 0 d1 1", "q1 0 d2 0", "q1 0 d3 2", "q2 0 d1 1", "q2 0 d4 1", "q3 0 d2 1"].join("\n") + "\n",
);
function runText(i: number, queries = 3): string {
  const lines: string[] = [];
  for (let q = 1; q <= queries; q++) {
    for (let d = 1; d <= 4; d++)
      lines.push(`q${q} Q0 d${d} ${d} ${(((i * 7 + q * 3 + d * 5) % 11) / 4).toFixed(2)} run${i}`);
  }
  return lines.join("\n") + "\n";
}

/** What the command prints for each run alone, as several runs print it: `==> FILE <==`, a blank line between. */
async function expectedTrec(files: readonly string[], ...options: string[]): Promise<string> {
  const parts: string[] = [];
  for (const f of files) parts.push((await run(...options, qrels, f)).out);
  return parts.map((text, i) => `${i ? "\n" : ""}==> ${files[i]} <==\n${text}`).join("");
}

describe("a directory of runs", () => {
  const runs = join(dir, "runs");
  // Names in byte order: upper case before lower, "r10" before "r2"; hidden files and subdirectories skipped.
  const names = ["r2.run", "r10.run", "B.run", "a.run"];
  names.forEach((n, i) => file(`runs/${n}`, runText(i)));
  file("runs/.hidden.run", runText(9));
  file("runs/old/r1.run", runText(8));
  const sorted = ["B.run", "a.run", "r10.run", "r2.run"].map((n) => join(runs, n));

  it("evaluates every file in it, sorted by name in byte order, as if each were given", async () => {
    const r = await run(qrels, runs);
    expect(r.status).toBe(0);
    expect(r.out).toBe((await run(qrels, ...sorted)).out);
    expect(r.out).toBe(await expectedTrec(sorted));
    // Skipped entries are named, once, on stderr.
    expect(r.err).toBe(
      `rankeval: ${runs}: skipped .hidden.run, old/ (runs are the files directly in it, hidden ones left out)\n`,
    );
  });

  it("puts them side by side in a table, JSON and CSV, as the files given one by one", async () => {
    for (const format of ["table", "json", "csv"]) {
      const a = await run("--format", format, "-q", qrels, runs);
      const b = await run("--format", format, "-q", qrels, ...sorted);
      expect(a.status).toBe(0);
      expect(a.out).toBe(b.out);
    }
    const table = (await run("--format", "table", qrels, runs)).out;
    expect(table.split("\n")[0].split(/\s+/).slice(1)).toEqual(sorted);
  });

  it("keeps the directory as written in the files' names (a trailing slash or not)", () => {
    expect(expandRuns([runs]).files).toEqual(sorted);
    expect(expandRuns([`${runs}/`]).files).toEqual(sorted);
    expect(expandRuns(["-", runs]).files).toEqual(["-", ...sorted]);
  });

  it("is bad input when it has no run file", async () => {
    mkdirSync(join(dir, "empty/sub"), { recursive: true });
    file("empty/.DS_Store", "x");
    const r = await run(qrels, join(dir, "empty"));
    expect(r.status).toBe(2);
    expect(r.err).toBe(`rankeval: ${join(dir, "empty")}: no run files in it (skipped .DS_Store, sub/)\n`);
    expect(r.out).toBe("");
  });

  it("reads a quoted glob in the last component as a shell would (a leading dot only by a dot)", async () => {
    expect((await run(qrels, join(runs, "r*.run"))).out).toBe(
      (await run(qrels, join(runs, "r10.run"), join(runs, "r2.run"))).out,
    );
    expect(expandRuns([join(runs, "[aB].run")]).files).toEqual([join(runs, "B.run"), join(runs, "a.run")]);
    expect(expandRuns([join(runs, "*")]).files).toEqual(sorted);
    expect(expandRuns([join(runs, ".*.run")]).files).toEqual([join(runs, ".hidden.run")]);
    const none = await run(qrels, join(runs, "*.txt"));
    expect([none.status, none.err]).toEqual([
      2,
      `rankeval: ${join(runs, "*.txt")}: no such file, and no file matches it as a pattern\n`,
    ]);
    expect(globRegExp("r?.run").test("r1.run")).toBe(true);
    expect(globRegExp("r[!0-4].run").test("r5.run")).toBe(true);
    expect(globRegExp("r[!0-4].run").test("r3.run")).toBe(false);
    expect(globRegExp("a.b").test("axb")).toBe(false);
  });
});

describe("1,000 runs in one command", () => {
  const files = Array.from({ length: 1000 }, (_, i) =>
    file(`thousand/r${String(i).padStart(4, "0")}.run`, runText(i, 2)),
  );

  it("prints every run's text, whole, in the order given (in process, and through the binary)", async () => {
    // Given in an order that is not the files' names: the output follows the arguments.
    const order = [...files.slice(500), ...files.slice(0, 500)];
    const r = await run("-m", "map", "-m", "P.1", qrels, ...order);
    expect(r.status).toBe(0);
    const headers = [...r.out.matchAll(/^==> (.*) <==$/gm)].map((m) => m[1]);
    expect(headers).toEqual(order);
    expect(r.out).toBe(await expectedTrec(order, "-m", "map", "-m", "P.1"));
    const b = binary(["-m", "map", "-m", "P.1", qrels, ...order]);
    expect({ status: b.status, out: b.out, err: b.err }).toEqual(r);
  });

  it("puts them side by side in a table, JSON and CSV, as in process", async () => {
    for (const format of ["table", "json", "csv"]) {
      const r = await run("-m", "map", "--format", format, qrels, join(dir, "thousand"));
      const b = binary(["-m", "map", "--format", format, qrels, join(dir, "thousand")]);
      expect(r.status).toBe(0);
      expect(b).toEqual(r);
    }
    const json = JSON.parse((await run("-m", "map", "--format", "json", qrels, join(dir, "thousand"))).out) as {
      runs: { run: string }[];
    };
    expect(json.runs.map((r) => r.run)).toEqual(files);
  });

  it("gives the same bytes with every run parsed by the pool's threads", () => {
    const some = files.slice(0, 60);
    const inThread = binary(["-m", "map", "-q", qrels, ...some]);
    const threads = binary(["-m", "map", "-q", qrels, ...some], { RANKEVAL_THREAD_MIN_BYTES: "0" });
    expect(inThread.status).toBe(0);
    expect(threads).toEqual(inThread);
  });
});

describe("a bad line in run 57 of 200", () => {
  const files = Array.from({ length: 200 }, (_, i) => file(`bad/r${String(i + 1).padStart(3, "0")}.run`, runText(i)));
  // Line 5 of run 57: a score that is not a number.
  file("bad/r057.run", runText(56).replace(/^(q2 Q0 d1 1 )\S+/m, "$10.1x"));
  const bad = files[56];
  const message = `rankeval: ${bad}:5:12: score "0.1x" is not a number\n`;

  it("exits 2 naming that file and line; trec text has every run before it, whole, and nothing after", async () => {
    const before = await run("-m", "map", "-m", "P.2", qrels, ...files.slice(0, 56));
    for (const [what, r] of [
      ["in process", await run("-m", "map", "-m", "P.2", qrels, ...files)],
      ["the binary", binary(["-m", "map", "-m", "P.2", qrels, ...files])],
      // Runs read several at a time by the threads: the ones after run 57 are abandoned.
      ["the binary's threads", binary(["-m", "map", "-m", "P.2", qrels, ...files], { RANKEVAL_THREAD_MIN_BYTES: "0" })],
    ] as const) {
      expect([what, r.status, r.err]).toEqual([what, 2, message]);
      // Runs 1 to 56 as they print alone, blank line and all: a block is written whole or not at all.
      expect(r.out, what).toBe(before.out);
      expect(r.out.endsWith("\n")).toBe(true);
    }
  });

  it("prints no table, JSON or CSV: each is one document of every run", async () => {
    for (const format of ["table", "json", "csv"]) {
      const r = await run("-m", "map", "--format", format, qrels, ...files);
      expect([r.status, r.out, r.err]).toEqual([2, "", message]);
    }
  });
});

describe("progress of many runs on a terminal", () => {
  function terminal(isTTY: boolean) {
    const written: string[] = [];
    let now = 0;
    const p = new Progress({ write: (s: string) => written.push(s), isTTY }, 64 * 1024 ** 2, () => now);
    return { p, written, at: (ms: number) => (now = ms) };
  }

  it("says the runs done of the runs given and the time left, and clears its line at the end", () => {
    const { p, written, at } = terminal(true);
    p.runsGiven(200);
    at(100);
    p.runs(10, 200);
    // Nothing in the first half second: a quick command never flashes a line.
    expect(written).toEqual([]);
    at(1000);
    p.runs(50, 200);
    // 50 runs in 1 s: 150 left take 3 s.
    expect(written).toEqual(["\r\x1b[K50 of 200 runs, 3 s left"]);
    at(1100);
    p.runs(57, 200);
    expect(written.length).toBe(1); // at most four times a second
    at(1300);
    p.clear();
    p.runs(60, 200);
    expect(written.slice(1)).toEqual(["\r\x1b[K", "\r\x1b[K60 of 200 runs, 3 s left"]);
    p.runs(200, 200);
    expect(written.at(-1)).toBe("\r\x1b[K");
  });

  it("shows a large file being read beside the runs", () => {
    const { p, written, at } = terminal(true);
    p.runsGiven(3);
    p.start("big.run", 200 * 1024 ** 2);
    at(1000);
    p.update(100 * 1024 ** 2, "big.run");
    expect(written).toEqual(["\r\x1b[K0 of 3 runs; big.run: 100 MB of 200 MB, 100 MB/s, 1 s left"]);
  });

  it("says nothing when stderr is not a terminal, or for one small run", () => {
    const pipe = terminal(false);
    pipe.p.runsGiven(200);
    pipe.at(5000);
    pipe.p.runs(100, 200);
    expect(pipe.written).toEqual([]);
    const one = terminal(true);
    one.p.runsGiven(1);
    one.p.start("a.run", 1000);
    one.at(5000);
    one.p.update(500);
    one.p.runs(1, 1);
    expect(one.written).toEqual([]);
  });
});
