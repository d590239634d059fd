// The golden files in ../shared (trec_eval's own test data, the synthetic set, LightGBM's example),
// parsed in 64 KiB chunks as a file reader would hand them over. Skipped when ../shared is absent.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GroupParser, Interner, LetorParser, QrelsParser, RunParser, ScoresParser } from "../../src/io/index.js";
import { haveShared, sharedPath } from "./_helpers.js";

function feed(p: { push(c: Uint8Array): void }, file: string, chunk = 65536): void {
  const b = readFileSync(file);
  for (let i = 0; i < b.length; i += chunk) p.push(b.subarray(i, i + chunk));
}
const lineCount = (file: string) =>
  readFileSync(file, "latin1")
    .split("\n")
    .filter((l) => l.trim() !== "").length;

describe.skipIf(!haveShared("golden", "trec_eval"))("trec_eval's test files", () => {
  const f = (name: string) => sharedPath("golden", "trec_eval", name);

  it("qrels.test: 3681 judgments on 3 topics, binary rel", () => {
    const qids = new Interner();
    const docids = new Interner();
    const p = new QrelsParser({ file: "qrels.test", qids, docids });
    feed(p, f("qrels.test"));
    const r = p.finish();
    expect(r.length).toBe(3681);
    expect(qids.size).toBe(3);
    expect([0, 1, 2].map((i) => qids.stringOf(i))).toEqual(["301", "302", "303"]);
    expect(r.rel.filter((v) => v === 1).length).toBe(561);
    expect(r.rel.filter((v) => v === 0).length).toBe(3120);
  });

  it("results.test: 1500 lines, run tag STANDARD, scores as written", () => {
    const qids = new Interner();
    const docids = new Interner();
    const p = new RunParser({ file: "results.test", qids, docids });
    feed(p, f("results.test"), 4093);
    const r = p.finish();
    expect(r.length).toBe(1500);
    expect(r.runTag).toBe("STANDARD");
    const first = readFileSync(f("results.test"), "latin1").split("\n")[0].trim().split(/\s+/);
    expect(qids.stringOf(r.qid[0])).toBe(first[0]);
    expect(docids.stringOf(r.docid[0])).toBe(first[2]);
    expect(r.score[0]).toBe(Number(first[4]));
  });

  it("results.trunc: 584 lines with trailing junk columns", () => {
    const p = new RunParser({ file: "results.trunc", qids: new Interner(), docids: new Interner() });
    feed(p, f("results.trunc"));
    const r = p.finish();
    expect(r.length).toBe(584);
    expect(r.runTag).toBe("STANDARD");
  });

  it("qrels.comment.test and results.comment.test ('#' inside document ids)", () => {
    const qids = new Interner();
    const docids = new Interner();
    const q = new QrelsParser({ file: "qrels.comment.test", qids, docids });
    feed(q, f("qrels.comment.test"));
    expect(q.finish().length).toBe(lineCount(f("qrels.comment.test")));
    const r = new RunParser({ file: "results.comment.test", qids, docids });
    feed(r, f("results.comment.test"));
    const run = r.finish();
    expect(run.length).toBe(lineCount(f("results.comment.test")));
    expect(run.runTag).toBe("comment.test");
    expect(docids.stringOf(run.docid[0])).toBe("msmarco_v2.1_doc_50_2286987788#13_3087841662");
  });
});

describe.skipIf(!haveShared("golden", "synthetic-small"))("synthetic-small", () => {
  const f = (name: string) => sharedPath("golden", "synthetic-small", name);

  it("letor.txt has one row per line of letor.scores, with qid and docid", () => {
    const qids = new Interner();
    const docids = new Interner();
    const l = new LetorParser({ file: "letor.txt", qids, docids });
    feed(l, f("letor.txt"));
    const letor = l.finish();
    const s = new ScoresParser({ file: "letor.scores" });
    feed(s, f("letor.scores"));
    const scores = s.finish();
    expect(letor.length).toBe(lineCount(f("letor.scores")));
    expect(scores.length).toBe(letor.length);
    expect(qids.size).toBe(1000);
    expect(letor.qid).not.toBeNull();
    expect(letor.docid).not.toBeNull();
    expect(docids.stringOf(letor.docid![0])).toBe("D0-0");
    expect(docids.size).toBe(letor.length);
  });

  it("qrels.txt and run.txt parse with shared ids", () => {
    const qids = new Interner();
    const docids = new Interner();
    const q = new QrelsParser({ file: "qrels.txt", qids, docids });
    feed(q, f("qrels.txt"));
    expect(q.finish().length).toBe(lineCount(f("qrels.txt")));
    const r = new RunParser({ file: "run.txt", qids, docids });
    feed(r, f("run.txt"));
    const run = r.finish();
    expect(run.length).toBe(lineCount(f("run.txt")));
    expect(qids.size).toBe(1000);
    // Every row as a naive reader (split on blanks, Number()) sees it.
    const lines = readFileSync(f("run.txt"), "latin1")
      .split("\n")
      .filter((l) => l !== "");
    let wrong = 0;
    lines.forEach((l, i) => {
      const [qid, , doc, , score, tag] = l.split(/\s+/);
      const ok =
        qids.stringOf(run.qid[i]) === qid && docids.stringOf(run.docid[i]) === doc && run.score[i] === Number(score);
      if (!ok || tag !== "synth") wrong++;
    });
    expect(wrong).toBe(0);
  });
});

describe.skipIf(!haveShared("data", "lightgbm-lambdarank"))("LightGBM lambdarank example", () => {
  const f = (name: string) => sharedPath("data", "lightgbm-lambdarank", name);

  it("rank.test: 768 rows without qid:, grouped by rank.test.query summing to 768", () => {
    const l = new LetorParser({ file: "rank.test", qids: new Interner(), docids: new Interner() });
    feed(l, f("rank.test"));
    const letor = l.finish();
    expect(letor.length).toBe(768);
    expect(letor.qid).toBeNull();
    expect(letor.docid).toBeNull();
    const g = new GroupParser({ file: "rank.test.query" });
    feed(g, f("rank.test.query"));
    const groups = g.finish();
    expect(groups.length).toBe(50);
    expect(groups.reduce((a, b) => a + b, 0)).toBe(768);
  });

  it("rank.train with rank.train.query", () => {
    const l = new LetorParser({ file: "rank.train", qids: new Interner(), docids: new Interner() });
    feed(l, f("rank.train"));
    const g = new GroupParser({ file: "rank.train.query" });
    feed(g, f("rank.train.query"));
    expect(g.finish().reduce((a, b) => a + b, 0)).toBe(l.finish().length);
  });
});
