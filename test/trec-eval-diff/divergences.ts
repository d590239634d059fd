/**
 * rankeval's deliberate divergences from trec_eval 10, as the differential test checks them. Every
 * other difference in stdout or in success/failure is a bug. Each entry says when it applies (from the
 * case alone, read as trec_eval reads its files), why rankeval differs, the row it has in the
 * README's divergence table, and how such a case must compare instead:
 *  - "rankeval-fails": rankeval must exit non-zero (whatever trec_eval does);
 *  - "rankeval-succeeds": rankeval must exit 0 (trec_eval's output is undefined there: nothing to compare);
 *  - "trec_eval-on": rankeval must print what trec_eval prints for another case (the same case
 *    without what rankeval reads differently), e.g. without the judged queries absent from the run.
 */
import type { Case, Option } from "./generate.js";

export interface Divergence {
  readonly name: string;
  /** Why rankeval does otherwise. */
  readonly reason: string;
  /** The README divergence table's row: what trec_eval does | what rankeval does. */
  readonly readme: readonly [string, string];
  readonly applies: (c: Case) => boolean;
  readonly expect:
    | { readonly kind: "rankeval-fails" }
    | { readonly kind: "rankeval-succeeds" }
    | { readonly kind: "trec_eval-on"; readonly transform: (c: Case) => Case };
}

// ---- The case as trec_eval reads it (get_qrels.c, get_trec_results.c) ----

/** C's isspace in the C locale. */
const isSpace = (ch: string) => ch === " " || ch === "\t" || ch === "\n" || ch === "\v" || ch === "\f" || ch === "\r";

function fields(line: string): string[] {
  const out: string[] = [];
  let f = "";
  for (const ch of line) {
    if (isSpace(ch)) {
      if (f) out.push(f);
      f = "";
    } else f += ch;
  }
  if (f) out.push(f);
  return out;
}

const BOM = "\u00ef\u00bb\u00bf"; // the UTF-8 BOM's bytes, as the latin1 text of a case holds them

/** Lines without their line ends (a final line without one included). */
function lines(text: string): string[] {
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all;
}

interface Row {
  qid: string;
  docno: string;
  value: string;
}

/** The qrels' data lines (not blank, not '#' comments), as [qid, docno, rel text]. */
function qrelsRows(c: Case): Row[] {
  return lines(stripBom(c.qrels))
    .filter((l) => !l.startsWith("#") && fields(l).length > 0)
    .map((l) => fields(l))
    .filter((f) => f.length === 4)
    .map((f) => ({ qid: f[0], docno: f[2], value: f[3] }));
}

/** The run's data lines, as [qid, docno, score text]. */
function runRows(c: Case): Row[] {
  return lines(stripBom(c.run))
    .map((l) => fields(l))
    .filter((f) => f.length >= 6 && !f[0].startsWith("#"))
    .map((f) => ({ qid: f[0], docno: f[2], value: f[4] }));
}

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

/** C's atol: the leading [+-]digits after blanks, 0 if none (the labels here are far from overflow). */
function atol(s: string): number {
  const m = /^[\t\n\v\f\r ]*([+-]?\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The options as getopt reads them: flags set, -m arguments. */
function readOptions(c: Case): { complete: boolean; measures: string[] } {
  let complete = false;
  const measures: string[] = [];
  const all: Option[] = [...c.options, ...c.after];
  for (const o of all) {
    const t = o[0];
    if (t === "--complete_rel_info_wanted") complete = true;
    else if (t.startsWith("--measure")) measures.push(t.includes("=") ? t.slice(t.indexOf("=") + 1) : o[1]);
    else if (/^-[qcJn]+$/.test(t) && t.includes("c")) complete = true;
    else if (t === "-m") measures.push(o[1]);
    else if (t.startsWith("-m")) measures.push(t.slice(2));
  }
  return { complete, measures };
}

/** The qids trec_eval evaluates: judged ones in the run, or every judged one with -c. */
function evaluatedQids(c: Case): Set<string> {
  const judged = new Set(qrelsRows(c).map((r) => r.qid));
  const ranked = new Set(runRows(c).map((r) => r.qid));
  const { complete } = readOptions(c);
  return new Set([...judged].filter((q) => complete || ranked.has(q)));
}

function hasDuplicate(rows: Row[], evaluated: Set<string>): boolean {
  const seen = new Set<string>();
  for (const r of rows) {
    if (!evaluated.has(r.qid)) continue;
    const key = `${r.qid}\u0000${r.docno}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** Long-cutoff measures, whose parameters trec_eval reads with atol. */
const LONG_CUTOFF = new Set(["P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj"]);

export const DIVERGENCES: readonly Divergence[] = [
  {
    name: "judged query absent from the run",
    reason:
      "trec_eval 10 exits 4 ('result qid not found in qrels', nothing printed) for a judged query the run lacks, unless -c; " +
      "trec_eval 9 and pytrec_eval skip it. rankeval leaves it out with a warning naming it (-c counts it, as trec_eval).",
    readme: ["exits 4 when a judged query is absent from the run (without -c)", "leaves the query out with a warning, as trec_eval 9; -c counts it as trec_eval does"],
    applies: (c) => {
      if (readOptions(c).complete) return false;
      const ranked = new Set(runRows(c).map((r) => r.qid));
      return qrelsRows(c).some((r) => !ranked.has(r.qid));
    },
    expect: {
      kind: "trec_eval-on",
      transform: (c) => {
        const ranked = new Set(runRows(c).map((r) => r.qid));
        const kept = lines(c.qrels).filter((l, i) => {
          const f = fields(i === 0 ? stripBom(l) : l);
          return l.startsWith("#") || f.length !== 4 || ranked.has(f[0]);
        });
        return { ...c, qrels: kept.map((l) => `${l}\n`).join("") };
      },
    },
  },
  {
    name: "blank or repeated comment lines in the qrels",
    reason:
      "trec_eval 10 stops at a blank qrels line ('Malformed line', exit 2), reads the second of two '#' lines in a row as data, " +
      "and crashes on a '#' line at the end. rankeval skips blank lines and every '#' line in both files.",
    readme: ["qrels: a blank line is an error; a second '#' line in a row is read as data; a '#' last line crashes", "blank and '#' lines are skipped"],
    applies: (c) => {
      const ls = lines(stripBom(c.qrels));
      return ls.some((l, i) => fields(l).length === 0 || (l.startsWith("#") && (i + 1 === ls.length || ls[i + 1].startsWith("#"))));
    },
    expect: {
      kind: "trec_eval-on",
      transform: (c) => ({ ...c, qrels: lines(c.qrels).filter((l) => fields(l).length > 0 && !l.startsWith("#")).map((l) => `${l}\n`).join("") }),
    },
  },
  {
    name: "byte-order mark",
    reason: "trec_eval reads a UTF-8 byte-order mark as part of the first query id; rankeval skips it, as text tools do.",
    readme: ["a UTF-8 byte-order mark is part of the first qid", "skipped"],
    applies: (c) => c.qrels.startsWith(BOM) || c.run.startsWith(BOM),
    expect: { kind: "trec_eval-on", transform: (c) => ({ ...c, qrels: stripBom(c.qrels), run: stripBom(c.run) }) },
  },
  {
    name: "a score or label that is not a number",
    reason:
      "trec_eval reads scores with atof and labels with atol: '0.1x' is 0.1, 'x' and '' are 0, 'nan' and 'inf' are taken " +
      "(NaN makes its sort undefined). rankeval stops with an error naming the file and line: a number that is not one is a broken file.",
    readme: ["reads '0.1x' as 0.1 and 'x' as 0 (scores: atof, labels: atol); takes nan and inf", "an error naming the file, line and field"],
    applies: (c) => runRows(c).some((r) => !DECIMAL.test(r.value)) || qrelsRows(c).some((r) => !DECIMAL.test(r.value)),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a document twice in a query",
    reason:
      "trec_eval rejects a document judged or ranked twice in a query only when a measure forms that query's ranking, and only " +
      "within the top -M of the ranking. rankeval rejects it in every evaluated query, whatever the measures and -M.",
    readme: ["a document twice in a query is an error only within the top -M, and only when a measure ranks that query", "always an error, naming the file and line"],
    applies: (c) => hasDuplicate(qrelsRows(c), evaluatedQids(c)) || hasDuplicate(runRows(c), evaluatedQids(c)),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a query whose every judgment is negative",
    reason:
      "trec_eval reads per-level counts it never set for a query without a judgment >= 0 (form_res_rels.c: num_rel_levels keeps " +
      "the previous query's value), so its numbers are undefined; rankeval evaluates the query (nothing relevant, nothing judged).",
    readme: ["undefined numbers (stale memory) for a query whose judgments are all negative", "evaluated: nothing relevant, nothing judged"],
    applies: (c) => {
      const evaluated = evaluatedQids(c);
      const best = new Map<string, number>();
      for (const r of qrelsRows(c)) if (evaluated.has(r.qid)) best.set(r.qid, Math.max(best.get(r.qid) ?? -Infinity, atol(r.value)));
      return [...best.values()].some((v) => v < 0);
    },
    expect: { kind: "rankeval-succeeds" },
  },
  {
    name: "a cutoff that is not a number",
    reason:
      "trec_eval reads a cutoff with atol: 'P.1O' (a letter O) is P_1, 'P.5x' is P_5. rankeval refuses it: a typo should not " +
      "quietly change the measure.",
    readme: ["-m P.1O (letter O) is P_1: cutoffs are read with atol", "an error naming the cutoff"],
    applies: (c) =>
      readOptions(c).measures.some((m) => {
        const dot = m.indexOf(".");
        return dot > 0 && LONG_CUTOFF.has(m.slice(0, dot)) && m.slice(dot + 1).split(",").some((v) => v !== "" && !DECIMAL.test(v) && /^[+-]?\d/.test(v));
      }),
    expect: { kind: "rankeval-fails" },
  },
];

export function applicableDivergences(c: Case): Divergence[] {
  return DIVERGENCES.filter((d) => d.applies(c));
}
