/**
 * trec_eval's -Z (get_zscores.c, convert_zscores.c): (value − mean) / stddev from `qid measure mean
 * stddev` lines; missing (or stddev 0 and not the mean): -1000000. Its binary searches read one entry
 * past the table (the next query's first line, matched here too; past the file's end: -1000000,
 * reported). Browser-safe.
 */
import { compareBytes } from "../c/strings.js";

/** A -Z file, one entry per line, in file order. */
export interface Zscores {
  qid: string[];
  measure: string[];
  mean: Float64Array;
  stddev: Float64Array;
  /** Each entry's line number. */
  lines: Int32Array;
  length: number;
  file: string;
}

/** convert_zscores.c MISSING_ZSCORE_VALUE. */
export const MISSING_ZSCORE = -1000000;

interface Line {
  readonly qid: string;
  readonly measure: string;
  readonly mean: number;
  readonly stddev: number;
}

/** The file as trec_eval holds it: lines sorted, each qid's first line. */
export interface ZscoreTable {
  readonly lines: readonly Line[];
  readonly qids: readonly { readonly qid: string; readonly start: number; readonly count: number }[];
}

const cmp = (a: string, b: string) => (a === b ? 0 : compareBytes(a, b));

/** get_zscores.c: sorted by qid, measure (stable). */
export function zscoreTable(z: Zscores): ZscoreTable {
  const order = Array.from({ length: z.length }, (_, i) => i);
  order.sort((a, b) => cmp(z.qid[a], z.qid[b]) || cmp(z.measure[a], z.measure[b]) || a - b);
  const lines = order.map((i) => ({ qid: z.qid[i], measure: z.measure[i], mean: z.mean[i], stddev: z.stddev[i] }));
  const qids: { qid: string; start: number; count: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (i === 0 || lines[i].qid !== lines[i - 1].qid) qids.push({ qid: lines[i].qid, start: i, count: 0 });
    qids[qids.length - 1].count++;
  }
  return { lines, qids };
}

/** find_qid, find_meas (`end = count`: one past the table); "past": past the file. */
function search(count: number, available: number, key: string, at: (i: number) => string): number | "past" {
  let start = 0;
  let end = count;
  while (start <= end) {
    const current = Math.floor((start + end) / 2);
    if (current >= available) return "past";
    const r = cmp(key, at(current));
    if (r < 0) end = current - 1;
    else if (r > 0) start = current + 1;
    else return current;
  }
  return -1;
}

export interface ZscoreLookup {
  /** The Z score of query `qid`'s `name` value. */
  readonly z: (qid: string, name: string, value: number) => number;
  /** Whether trec_eval's search reads past its table (undefined output). */
  readonly undefinedRead: (qid: string, name: string) => boolean;
}

/** te_convert_to_zscore, one value at a time. */
export function zscoreLookup(table: ZscoreTable): ZscoreLookup {
  const find = (qid: string, name: string): Line | null | "past" => {
    const q = search(table.qids.length, table.qids.length, qid, (i) => table.qids[i].qid);
    if (q === "past" || q < 0) return q === "past" ? "past" : null;
    const { start, count } = table.qids[q];
    const m = search(count, table.lines.length - start, name, (i) => table.lines[start + i].measure);
    if (m === "past") return "past";
    return m < 0 ? null : table.lines[start + m];
  };
  return {
    z: (qid, name, value) => {
      const line = find(qid, name);
      if (line === null || line === "past") return MISSING_ZSCORE;
      if (line.stddev) return (value - line.mean) / line.stddev;
      return value === line.mean ? 0 : MISSING_ZSCORE;
    },
    undefinedRead: (qid, name) => find(qid, name) === "past",
  };
}
