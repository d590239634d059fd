// rankeval --fuse: runs read by the command line's reader, fused by fuse() and written as TREC text, or
// evaluated beside their inputs (--compare: compared with each); the errors. The fused scores are
// fuse()'s (test/fusion*.test.ts checks them against ranx): here, that the command line writes and
// evaluates what fuse() returns.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { METHOD_NAMES } from "../src/fusion/fuse.js";
import { readRun } from "../src/node/index.js";
import { cli } from "./_cli.js";
import { arrowTable, duckParquet, trecRows, writeArrow } from "./columnar/_data.js";
import { fuse } from "../src/fusion/fuse.js";
import { sortQids } from "../src/c/strings.js";
import type { ScoredRun } from "../src/fusion/run-shapes.js";
import { type DocBytes, RunTextWriter } from "../src/output/run-text.js";

const encoder = new TextEncoder();

/** `ids` as DocBytes. */
function docBytesOf(ids: readonly string[]): DocBytes {
  const encoded = ids.map((id) => encoder.encode(id));
  const offsets = new Int32Array(ids.length + 1);
  for (let i = 0; i < ids.length; i++) offsets[i + 1] = offsets[i] + encoded[i].length;
  const bytes = new Uint8Array(offsets[ids.length]);
  for (let i = 0; i < ids.length; i++) bytes.set(encoded[i], offsets[i]);
  return { bytes, offsets };
}

/** `run` (fuse()'s) as TREC text by RunTextWriter, its queries in trec_eval's order (byte order of their ids). */
function writeRun(run: ScoredRun, tag: string, write: (bytes: Uint8Array<ArrayBuffer>) => void): void {
  const w = new RunTextWriter(tag, write);
  for (const qid of sortQids(Object.keys(run))) {
    const docs = run[qid];
    const ids = Object.keys(docs);
    w.query(
      qid,
      docBytesOf(ids),
      ids.map((d) => docs[d]),
    );
  }
  w.end();
}

/** writeRun writes UTF-8 bytes (never a line split between two writes). */
const utf8 = new TextDecoder();

const dir = mkdtempSync(join(tmpdir(), "rankeval-fuse-test-"));
const file = (name: string, text: string | Buffer) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const runA = { q1: { d1: 3, d2: 2, d3: 1 }, q2: { d4: 0.5, d5: 0.25 }, "10": { d6: 1 } };
const runB = { q1: { d3: 9, d1: 8, d4: 7 }, q2: { d5: 2, d4: 1 }, "10": { d7: 4, d6: 3 } };
const trec = (run: Record<string, Record<string, number>>, tag: string) =>
  Object.entries(run)
    .flatMap(([q, docs]) => Object.entries(docs).map(([d, s], i) => `${q} Q0 ${d} ${i + 1} ${s} ${tag}\n`))
    .join("");
const a = file("a.run", trec(runA, "a"));
const b = file("b.run.gz", gzipSync(trec(runB, "b")));
const qrels = file("qrels.txt", "q1 0 d1 1\nq1 0 d3 2\nq2 0 d5 1\n10 0 d7 1\n");

/** What the command line must write: fuse()'s run, as writeRun writes it. */
function expected(method: string, tag = method, params = {}): string {
  let text = "";
  writeRun(fuse([runA, runB], { method, params }), tag, (b) => (text += utf8.decode(b)));
  return text;
}

describe("rankeval --fuse RUN RUN", () => {
  it("writes fuse()'s run as TREC text on standard output, the runs read gzipped or not", async () => {
    const r = await cli(["--fuse", "rrf", a, b]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expected("rrf"));
    // Queries in byte order, ranks from 1 by score, the method as the tag.
    expect(r.stdout.split("\n")[0]).toMatch(/^10 Q0 d6 1 0\.0\d+ rrf$/);
    expect(r.stdout).toContain("q1 Q0 d1 1 ");
    expect(r.stdout).toContain("q1 Q0 d3 2 ");
  });

  it("passes --fuse-param to the method and --tag to the lines, and writes --output", async () => {
    const out = join(dir, "fused.txt");
    const r = await cli(["--fuse", "rrf", "--fuse-param", "k=10", "--tag", "hybrid", "--output", out, a, b]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    const text = readFileSync(out, "utf8");
    expect(text).toBe(expected("rrf", "hybrid", { k: 10 }));
    expect(text).not.toBe(expected("rrf", "hybrid"));
    // What it wrote reads back as the same run.
    expect(text.split("\n")[1]).toMatch(/^10 Q0 d7 2 [\d.]+ hybrid$/);
  });
});

describe("rankeval --fuse wsum --norm ... --weights", () => {
  it("gives fuse() the norm and a weight a run", async () => {
    for (const norm of ["min-max", "zmuv", "none"]) {
      const r = await cli(["--fuse", "wsum", "--norm", norm, "--weights", "0.3,0.7", a, b]);
      expect(r.stderr).toBe("");
      let text = "";
      const options = {
        method: "wsum",
        norm: norm === "none" ? null : (norm as "min-max"),
        params: { weights: [0.3, 0.7] },
      };
      writeRun(fuse([runA, runB], options), "wsum", (b) => (text += utf8.decode(b)));
      expect(r.stdout).toBe(text);
    }
    const one = await cli(["--fuse", "wsum", "--weights", "1,0", a, b]);
    const other = await cli(["--fuse", "wsum", "--weights", "0,1", a, b]);
    expect(one.stdout).not.toBe(other.stdout);
  });
});

describe("rankeval --fuse METHOD QRELS RUN RUN", () => {
  it("evaluates the fused run first, beside its inputs, as evaluating the written file would", async () => {
    const r = await cli(["--fuse", "rrf", "-m", "map", "-m", "ndcg@10", "--format", "json", qrels, a, b]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = join(dir, "fused-eval.txt");
    await cli(["--fuse", "rrf", "--output", out, a, b]);
    const alone = await cli(["-m", "map", "-m", "ndcg@10", "--format", "json", qrels, out, a, b]);
    expect(r.stdout).toBe(alone.stdout.split(JSON.stringify(out).slice(1, -1)).join("fused(rrf)"));
    expect(r.stdout).toContain('"fused(rrf)"');
  });

  it("names the fused run fused(METHOD) in its warnings too, not by the temporary file it is written to", async () => {
    // Query 20 judged, in neither run: each run's warning names it, the fused run's too.
    const more = file("more-qrels.txt", `${readFileSync(qrels, "utf8")}20 0 d1 1\n`);
    const saved = { threads: process.env.RANKEVAL_THREADS, least: process.env.RANKEVAL_THREAD_MIN_BYTES };
    // One worker, and two (the fused run's name goes to the workers: src/node/partitioned.ts).
    for (const threads of ["1", "2"]) {
      process.env.RANKEVAL_THREADS = threads;
      process.env.RANKEVAL_THREAD_MIN_BYTES = "0";
      try {
        const r = await cli(["--fuse", "rrf", "-m", "map", more, a, b]);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stderr, `${threads} threads`).toBe(
          [
            "rankeval: fused(rrf): 1 judged query is not in the run and is left out (20); -c counts it as 0",
            `rankeval: ${a}: 1 judged query is not in the run and is left out (20); -c counts it as 0`,
            `rankeval: ${b}: 1 judged query is not in the run and is left out (20); -c counts it as 0`,
            "",
          ].join("\n"),
        );
      } finally {
        for (const [k, v] of [
          ["RANKEVAL_THREADS", saved.threads],
          ["RANKEVAL_THREAD_MIN_BYTES", saved.least],
        ] as const)
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
      }
    }
  });

  it("knows QRELS by its first line past 200 KB of comments (a file's first MiB is looked at)", async () => {
    const commented = file(
      "commented-qrels.txt",
      `${"# a comment line of the judgments' provenance\n".repeat(4500)}${readFileSync(qrels, "utf8")}`,
    );
    const r = await cli(["--fuse", "rrf", commented, a, b]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe((await cli(["--fuse", "rrf", qrels, a, b])).stdout);
    expect(r.stdout).toContain("fused(rrf)");
  });

  it("names the fused run by --output, and trec_eval's text has a block for each run", async () => {
    const out = join(dir, "named.txt");
    const r = await cli(["--fuse", "rrf", "--output", out, qrels, a, b]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`==> ${out} <==`);
    expect(r.stdout).toContain(`==> ${a} <==`);
    expect(r.stdout.indexOf(out)).toBeLessThan(r.stdout.indexOf(a));
    expect(readFileSync(out, "utf8")).toBe(expected("rrf"));
  });

  it("--compare compares the fused run (the baseline) with each input", async () => {
    const r = await cli(["--fuse", "rrf", "--compare", "-m", "ndcg@10", qrels, a, b]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`measure  fused(rrf) (baseline)  ${a}  ${b}`);
    expect(r.stdout).toMatch(new RegExp(`ndcg@10  fused\\(rrf\\)  ${a} `));
    expect(r.stdout).toMatch(new RegExp(`ndcg@10  fused\\(rrf\\)  ${b} `));
  });
});

describe("rankeval --fuse: errors", () => {
  it("says a method the library does not know as a usage error, before reading the runs", async () => {
    const r = await cli(["--fuse", "nosuch", a, join(dir, "absent.run")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("nosuch");
  });

  it("says a norm the library does not know, with its names", async () => {
    const r = await cli(["--fuse", "rrf", "--norm", "minmax", a, b]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("minmax");
    expect(r.stderr).toContain("min-max");
  });

  it("says runs without the same queries as the library does (ranx requires them)", async () => {
    const other = file("other.run", "q1 Q0 d1 1 3 x\n");
    const r = await cli(["--fuse", "rrf", a, other]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("same queries");
  });

  it("needs two runs, and a readable one", async () => {
    expect((await cli(["--fuse", "rrf", a])).stderr).toContain("--fuse needs at least two runs");
    expect((await cli(["--fuse", "rrf", qrels, a])).stderr).toContain("--fuse needs at least two runs");
    const missing = await cli(["--fuse", "rrf", a, join(dir, "absent.run")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("absent.run");
  });

  it("names a bad run line by file and line", async () => {
    const bad = file("bad.run", "q1 Q0 d1 1 3 x\nq1 Q0 d2 2 zz x\n");
    const r = await cli(["--fuse", "rrf", a, bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${bad}:2`);
  });

  it("fuses Arrow and Parquet runs as their TREC text, and names a document twice by the columnar file's row", async () => {
    const text = trec(runA, "a");
    const arrow = writeArrow(arrowTable(trecRows(text, "run"), "run"), join(dir, "a.arrow"), "file");
    const parquet = join(dir, "b.parquet");
    await duckParquet(trecRows(trec(runB, "b"), "run"), parquet, { kind: "run" });
    const r = await cli(["--fuse", "rrf", arrow, parquet]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(expected("rrf"));
    const twice = `${text}q2 Q0 d4 9 0.1 a\n`;
    const bad = writeArrow(arrowTable(trecRows(twice, "run"), "run"), join(dir, "twice.arrow"), "file");
    const e = await cli(["--fuse", "rrf", b, bad]);
    let want = "";
    try {
      await readRun(bad);
    } catch (error) {
      want = (error as Error).message;
    }
    expect(want).toContain("twice.arrow");
    expect(e.stderr).toBe(`rankeval: ${want}\n`);
  });

  it("reads a parameter's JSON: a learned method's trained parameters", async () => {
    const probs = [
      [0.5, 0.25, 0.125],
      [0.4, 0.2, 0.1],
    ];
    const r = await cli(["--fuse", "posfuse", "--fuse-param", `probs=${JSON.stringify(probs)}`, a, b]);
    expect(r.stderr).toBe("");
    let want = "";
    writeRun(fuse([runA, runB], { method: "posfuse", params: { probs } }), "posfuse", (b) => (want += utf8.decode(b)));
    expect(r.stdout).toBe(want);
    const bad = await cli(["--fuse", "posfuse", "--fuse-param", "probs=[[0.5,", a, b]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("--fuse-param probs=[[0.5,: not JSON");
  });

  it("refuses fusion's options without --fuse, weights not one a run, a tag of two words", async () => {
    for (const argv of [
      ["--norm", "max"],
      ["--weights", "1,2"],
      ["--output", "x"],
      ["--tag", "t"],
    ]) {
      const r = await cli([...argv, qrels, a]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`${argv[0]} needs --fuse METHOD`);
    }
    const w = await cli(["--fuse", "rrf", "--weights", "1,2,3", a, b]);
    expect(w.status).toBe(1);
    expect(w.stderr).toContain("3 weights for 2 runs");
    expect((await cli(["--fuse", "rrf", "--weights", "1,x", a, b])).stderr).toContain('"x" is not a finite number');
    expect((await cli(["--fuse", "rrf", "--tag", "a b", a, b])).stderr).toContain("one word");
    expect((await cli(["--fuse", "rrf", "--fuse-param", "k", a, b])).stderr).toContain("NAME=VALUE");
    expect((await cli(["--fuse", "rrf", "--output", a, a, b])).stderr).toContain("would be written over");
  });
});

describe("rankeval --fuse on random runs", () => {
  /** A method's parameters where it needs some: a weight a run, gamma, phi. */
  const paramsOf = (method: string, runs: number): [string[], Record<string, unknown>] =>
    /^(wsum|wmnz|mixed|w_|weighted_)/.test(method)
      ? [
          ["--weights", Array.from({ length: runs }, (_, i) => 0.5 + i).join(",")],
          { weights: Array.from({ length: runs }, (_, i) => 0.5 + i) },
        ]
      : method === "gmnz"
        ? [["--fuse-param", "gamma=0.5"], { gamma: 0.5 }]
        : method === "rbc"
          ? [["--fuse-param", "phi=0.8"], { phi: 0.8 }]
          : [[], {}];
  // Few queries and documents, so that runs share documents; scores of few values, so that they tie;
  // a query's lines apart. Ids that an object lists as written (integer-like ids, which it lists first,
  // are the next test's): a leading zero ("07") and others.
  const docid = fc.oneof(
    fc.integer({ min: 0, max: 12 }).map((n) => `0${n}`),
    fc.constantFrom("d1", "d2", "x", "D-3", "é", "0x1"),
  );
  const line = fc.record({ qid: fc.constantFrom("q1", "2", "10"), doc: docid, score: fc.integer({ min: -2, max: 3 }) });
  // A document twice in a query now and then (an error both ways say alike).
  const runText = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.uniqueArray(line, { minLength: 1, maxLength: 25, selector: (l) => `${l.qid} ${l.doc}` }),
    },
    { weight: 1, arbitrary: fc.array(line, { minLength: 1, maxLength: 25 }) },
  );
  // Every query in every run mostly (fuse() refuses runs whose queries differ), sometimes not.
  const text = (lines: { qid: string; doc: string; score: number }[], all: boolean) =>
    (all ? ["q1 Q0 a 0 1 t\n", "2 Q0 400 0 1 t\n", "10 Q0 b 0 1 t\n"].join("") : "") +
    lines.map((l, i) => `${l.qid} Q0 ${l.doc} ${i + 1} ${l.score / 2} t\n`).join("");

  it("writes what fuse() of the runs as rankeval/node reads them gives, or fails as it does", async () => {
    let n = 0;
    let fused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(runText, { minLength: 2, maxLength: 3 }),
        fc.boolean(),
        fc.constantFrom(...METHOD_NAMES),
        fc.constantFrom("min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda", "none"),
        async (runs, all, method, norm) => {
          const files = runs.map((r) => file(`random-${n++}.run`, text(r, all || runs.length > 2)));
          const [flags, params] = paramsOf(method, runs.length);
          const r = await cli(["--fuse", method, "--norm", norm, ...flags, ...files]);
          let want: string | Error = "";
          try {
            const objects = [];
            for (const f of files) objects.push(await readRun(f));
            const fused = fuse(objects, { method, norm: norm === "none" ? null : (norm as "max"), params });
            writeRun(fused, method, (b) => (want += utf8.decode(b)));
          } catch (e) {
            want = e as Error;
          }
          if (typeof want === "string") {
            fused++;
            expect(r.stderr).toBe("");
            expect(r.stdout).toBe(want);
          } else {
            expect(r.stdout).toBe("");
            expect(r.stderr).toBe(`rankeval: ${want.message}\n`);
          }
        },
      ),
      { numRuns: 150 },
    );
    // Most cases fused (not refused alike by both ways).
    expect(fused).toBeGreaterThan(75);
  }, 120_000);

  it("reads integer-like document ids in file order, as any other id", async () => {
    // The same runs with every id written "x" + id: an object would list "7" before "3" whatever the
    // file says (and ties would then rank otherwise); the files are read in their order, so the fused
    // run is the same, "x" aside (which keeps the ids' byte order, the order ties are written in).
    const integer = fc.record({
      qid: fc.constantFrom("q1", "2"),
      doc: fc.integer({ min: 0, max: 12 }).map(String),
      score: fc.integer({ min: 0, max: 2 }),
    });
    const lines = fc.uniqueArray(integer, { minLength: 1, maxLength: 25, selector: (l) => `${l.qid} ${l.doc}` });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(lines, { minLength: 2, maxLength: 3 }),
        fc.constantFrom(...METHOD_NAMES),
        fc.constantFrom("min-max", "rank", "borda", "none"),
        async (runs, method, norm) => {
          const all = [
            { qid: "q1", doc: "a", score: 1 },
            { qid: "2", doc: "b", score: 1 },
          ];
          const write = (prefix: string) =>
            runs.map((r) =>
              file(
                `integers-${n++}.run`,
                [...all, ...r].map((l, i) => `${l.qid} Q0 ${prefix}${l.doc} ${i + 1} ${l.score} t\n`).join(""),
              ),
            );
          const [flags] = paramsOf(method, runs.length);
          const plain = await cli(["--fuse", method, "--norm", norm, ...flags, ...write("")]);
          const prefixed = await cli(["--fuse", method, "--norm", norm, ...flags, ...write("x")]);
          expect(plain.stderr).toBe("");
          expect(prefixed.stdout.replace(/^(\S+ Q0 )x/gm, "$1")).toBe(plain.stdout);
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});

describe("rankeval --fuse on ranx's files", () => {
  // ranx's Run.from_file and fuse on two TREC runs of integer ids and tied scores
  // (test/fusion/make-ranx-file-fixtures.py).
  const fixtures: {
    runs: Record<string, string>;
    fuse: {
      method: string;
      norm: string | null;
      params: Record<string, unknown>;
      out: Record<string, Record<string, number>>;
    }[];
  } = JSON.parse(readFileSync(join(__dirname, "fixtures/fusion/ranx-files.json"), "utf8"));
  const files = Object.entries(fixtures.runs).map(([name, text]) => file(`ranx-${name}.txt`, text));
  const fusedOf = (text: string) => {
    const out: Record<string, Record<string, number>> = {};
    for (const line of text.trimEnd().split("\n")) {
      const [q, , d, , score] = line.split(" ");
      out[q] ??= {};
      out[q][d] = Number(score);
    }
    return out;
  };
  const close = (a: Record<string, Record<string, number>>, b: Record<string, Record<string, number>>) =>
    Object.keys(a).length === Object.keys(b).length &&
    Object.entries(a).every(
      ([q, docs]) =>
        Object.keys(docs).length === Object.keys(b[q] ?? {}).length &&
        Object.entries(docs).every(([d, s]) => Math.abs(s - (b[q]?.[d] ?? Number.NaN)) <= 1e-9),
    );

  it.each(fixtures.fuse.map((c) => [c.method, c.norm, c] as const))("%s, norm %s: ranx's scores", async (_m, _n, c) => {
    const flags = Object.entries(c.params).flatMap(([k, v]) =>
      k === "weights" ? ["--weights", (v as number[]).join(",")] : ["--fuse-param", `${k}=${v}`],
    );
    const r = await cli(["--fuse", c.method, "--norm", c.norm ?? "none", ...flags, ...files]);
    expect(r.stderr).toBe("");
    expect(close(fusedOf(r.stdout), c.out)).toBe(true);
  });

  it("differs from fuse() of the runs as objects, which list integer-like ids first (the files test something)", async () => {
    const objects = [];
    for (const f of files) objects.push(await readRun(f));
    const differing = fixtures.fuse.filter(
      (c) => !close(fuse(objects, { method: c.method, norm: c.norm as "rank" | null, params: c.params }), c.out),
    );
    expect(differing.length).toBeGreaterThan(3);
  });
});

describe("writeRun", () => {
  it("ranks by descending score, ties by document id descending (byte order), queries in byte order", () => {
    let text = "";
    writeRun({ "9": { b: 1, a: 1, c: 2, é: 1 }, "10": { x: -0.5 } }, "t", (b) => (text += utf8.decode(b)));
    expect(text).toBe(
      ["10 Q0 x 1 -0.5 t", "9 Q0 c 1 2 t", "9 Q0 é 2 1 t", "9 Q0 b 3 1 t", "9 Q0 a 4 1 t", ""].join("\n"),
    );
  });

  it("writes any query in that order, its scores descending already or not, many tied or few", () => {
    // Scores of few values (runs of ties past the writer's insertion sort), sorted or shuffled; ids of
    // one or several UTF-8 bytes, one a prefix of another; lines past a write's megabyte now and then.
    const id = fc.stringMatching(/^[ab\u00e9\u4e2d]{1,3}$/);
    const docs = fc.uniqueArray(fc.record({ id, score: fc.integer({ min: 0, max: 3 }) }), {
      selector: (d) => d.id,
      minLength: 1,
      maxLength: 60,
    });
    fc.assert(
      fc.property(docs, fc.boolean(), fc.integer({ min: 1, max: 3000 }), (given, sorted, copies) => {
        const list = sorted ? [...given].sort((x, y) => y.score - x.score) : given;
        const bytes = (s: string) => Buffer.from(s, "utf8");
        const want = [...list]
          .sort((x, y) => y.score - x.score || Buffer.compare(bytes(y.id), bytes(x.id)))
          .map((d, i) => `q Q0 ${d.id} ${i + 1} ${d.score} t\n`)
          .join("");
        let text = "";
        const w = new RunTextWriter("t", (b) => (text += utf8.decode(b)));
        const ids = docBytesOf(list.map((d) => d.id));
        const scores = list.map((d) => d.score);
        for (let k = 0; k < copies; k++) w.query("q", ids, scores);
        w.end();
        expect(text).toBe(want.repeat(copies));
      }),
      { numRuns: 200 },
    );
  });
});
