// Qrels.truncated: the labels trec_eval's atol reads as another number ("1.5" is 1, "-0.5" is 0, "1e1"
// is 1), their rows and atol's values, the first one's line and text; absent where atol reads every
// label as written. The command line reads them so under trec_eval's names, saying so once.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Interner, QrelsParser } from "../../src/io/index.js";
import { cli } from "../_cli.js";
import { bytes } from "./_helpers.js";

// Line 1 a comment; the labels of rows 1, 2, 3 and 5 are not what atol reads; "3.0" and "-2" are.
const TEXT = "# judged\n1 0 a 2\n1 0 b 1.5\n1 0 c -0.5\n2 0 a 1e1\n2 0 b 3.0\n2 0 c 0.25\n2 0 d -2\n";
const WANT = { rows: [1, 2, 3, 5], values: [1, -0, 1, 0], firstLine: 3, firstText: "1.5" };

function parse(docids: Interner | "per-row", cut: number) {
  const p = new QrelsParser({ file: "q", qids: new Interner(), docids });
  const all = bytes(TEXT);
  p.push(all.subarray(0, cut));
  p.push(all.subarray(cut));
  return p.finish();
}

describe("Qrels.truncated", () => {
  it("lists the rows atol reads otherwise, with atol's values, however the input is cut", () => {
    for (const docids of [() => new Interner(), () => "per-row" as const])
      for (let cut = 0; cut <= TEXT.length; cut++) {
        const q = parse(docids(), cut);
        expect(Array.from(q.rel)).toEqual([2, 1.5, -0.5, 10, 3, 0.25, -2]);
        const t = q.truncated!;
        expect(Array.from(t.rows), `cut at ${cut}`).toEqual(WANT.rows);
        expect(Array.from(t.values).map((v) => v + 0)).toEqual(WANT.values.map((v) => v + 0));
        expect({ firstLine: t.firstLine, firstText: t.firstText }).toEqual({ firstLine: 3, firstText: "1.5" });
        expect(t.rows).toBeInstanceOf(Int32Array);
        expect(t.values).toBeInstanceOf(Float64Array);
      }
  });

  it("is absent where every label is an integer as atol reads it", () => {
    const p = new QrelsParser({ file: "q", qids: new Interner(), docids: new Interner() });
    p.push(bytes("1 0 a 2\n1 0 b 3.0\n1 0 c -1\n1 0 d 0\n"));
    const q = p.finish();
    expect("truncated" in q).toBe(false);
  });
});

describe("the command line under trec_eval's names", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-truncated-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const qrels = join(dir, "qrels");
  const run = join(dir, "run");
  // d1 labelled 1.9 (atol: 1), ranked first; d2 labelled 2, ranked second; d3 2.5 (atol: 2), not ranked.
  writeFileSync(qrels, "1 0 d1 1.9\n1 0 d2 2\n1 0 d3 2.5\n");
  writeFileSync(run, "1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n");

  it("reads the labels as atol does, and says so once, naming the first", async () => {
    const r = await cli(["-m", "ndcg_cut.1", qrels, run]);
    expect(r.status).toBe(0);
    // trec_eval's gains are the labels: d1's 1 over the ideal's 2 (d2 or d3), not 1.9 over 2.5.
    expect(r.stdout).toBe("ndcg_cut_1            \tall\t0.5000\n");
    expect(r.stderr).toBe(
      `rankeval: ${qrels}:1: label 1.9 is read as 1 (and 1 more), as trec_eval reads labels (atol); canonical measure names (ndcg@10) keep labels as written\n`,
    );
  });
});
