// rankeval --pool on files (and the page's pool): the runs read as their parsers give them, ids as bytes
// (src/judgments/pools.ts poolOfParsed), never a string each; the pool the same as pool() of the files'
// columns (ids as strings), bad input said the same (a document twice by its file and line).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readColumns } from "../src/app/read-columns.js";
import { poolOfFiles } from "../src/judgments/on-files.js";
import { pool, type PoolOptions } from "../src/judgments/pools.js";
import { fileFormat } from "../src/node/columnar-files.js";
import { stream as random } from "./faces/generate.js";
import { inputOf } from "../src/node/files.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-pool-on-files-"));
const write = (name: string, text: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function read<V extends "rel" | "score">(value: V, path: string) {
  const r = await readColumns(value, inputOf(path, {}), { format: fileFormat(path).format }, path);
  // The columns (a string an id) counted where read: pool on files reads the parser's bytes instead.
  const seen = { columns: 0 };
  return {
    seen,
    file: r.file,
    parsed: r.parsed,
    checkTwice: r.checkTwice,
    get columns() {
      seen.columns++;
      return r.columns;
    },
  };
}

/**
 * Runs of ids that share prefixes of every length (one id the prefix of another), non-ASCII ids,
 * scores with ties, queries in any order: a depth pool's byte order and the ranks' ties are all read.
 */
function runText(seed: number, queries: number): string {
  const next = random(seed);
  const stems = ["d", "doc-0000", "doc-00001", "clueweb-00042-", "é", "éa", "日本", "z"];
  const lines: string[] = [];
  for (let q = 0; q < queries; q++) {
    const docs = new Set<string>();
    const n = 1 + Math.floor(next() * 40);
    while (docs.size < n) {
      const stem = stems[Math.floor(next() * stems.length)];
      docs.add(next() < 0.2 ? stem : stem + Math.floor(next() * 30));
    }
    let rank = 1;
    for (const d of docs) lines.push(`q${(q * 7) % queries} Q0 ${d} ${rank++} ${Math.floor(next() * 8) / 4} tag\n`);
  }
  return lines.join("");
}

describe("pool on files, read as the parser's bytes", () => {
  it("equals pool() of the files' columns, with no column of strings read: depth, rbp, rrf, judgments made", async () => {
    const paths = [1, 2, 3].map((s) => write(`run${s}.txt`, runText(s, 60)));
    const judgedPath = write(
      "judged.qrels",
      runText(9, 40)
        .split("\n")
        .filter(Boolean)
        .map((l) => {
          const [q, , d] = l.split(" ");
          return `${q} 0 ${d} 1\n`;
        })
        .join(""),
    );
    const methods: PoolOptions[] = [
      { method: "depth:5" },
      { method: "depth:1", coverageDepth: 3 },
      { method: "rbp:0.8", budget: 7 },
      { method: "rrf:60", budget: 3, combine: "max" },
    ];
    for (const options of methods)
      for (const withJudged of [false, true]) {
        const runs = await Promise.all(paths.map((p) => read("score", p)));
        const judged = withJudged ? await read("rel", judgedPath) : undefined;
        const p = poolOfFiles(runs, judged, options);
        for (const r of [...runs, ...(judged ? [judged] : [])]) expect(r.seen.columns, options.method).toBe(0);
        const columns = runs.map((r) => r.columns);
        expect(p).toEqual(pool(columns, judged ? { ...options, judged: judged.columns } : options));
        expect(p.size).toBeGreaterThan(0);
      }
  });

  it("reads the columns where an id is not UTF-8 (its strings may be one id), as pool() of them does", async () => {
    // 0xff and 0xfe both read as U+FFFD: one document to the columns, two to the bytes.
    const bad = write(
      "bad-utf8.run",
      Buffer.concat([Buffer.from("q1 Q0 a"), Buffer.from([0xff]), Buffer.from(" 1 2 t\nq1 Q0 b 2 1 t\n")]),
    );
    const other = write(
      "bad-utf8-2.run",
      Buffer.concat([Buffer.from("q1 Q0 a"), Buffer.from([0xfe]), Buffer.from(" 1 2 t\n")]),
    );
    const runs = [await read("score", bad), await read("score", other)];
    const p = poolOfFiles(runs, undefined, { method: "depth:10" });
    expect(runs[0].seen.columns).toBeGreaterThan(0);
    expect(p).toEqual(pool([runs[0].columns, runs[1].columns], { method: "depth:10" }));
    expect(p.size).toBe(2);
  });

  it("says a document twice in a run by its file and line", async () => {
    const twice = write("twice.run", "q1 Q0 a 1 3 t\nq2 Q0 b 1 2 t\nq1 Q0 a 2 1 t\n");
    const once = write("once.run", "q1 Q0 a 1 3 t\n");
    const runs = [await read("score", once), await read("score", twice)];
    expect(() => poolOfFiles(runs, undefined, { method: "depth:10" })).toThrow(
      `${twice}:3: document "a" appears twice in query "q1"`,
    );
  });
});
