// Per-query results (-q --format json / csv) read back as runs to compare again (--compare).
import { RankevalError } from "../errors/errors.js";
import type { Result } from "../pipeline/evaluate.js";
import type { NamedResult as ComparedRun } from "../compare/compare.js";
import { conventionsLine, DEFAULT_OPTIONS } from "../measures/options.js";
import { sortedOrder } from "../c/strings.js";
import { csvRecord } from "./csv.js";

export interface PerQueryRun extends ComparedRun {
  readonly result: Result<string>;
  readonly file: string;
}

interface RunValues {
  name: string;
  qids: string[];
  values: Map<string, number[]>;
  /** Absent: written with -n. */
  mean: Map<string, number>;
}

function toResults(file: string, runs: RunValues[], conventionsOf: ReadonlyMap<string, string>): PerQueryRun[] {
  const measures = [...conventionsOf.keys()];
  return runs.map((run) => {
    const values: Record<string, Float64Array> = {};
    const mean: Record<string, number> = {};
    const counted: Record<string, number> = {};
    const order = sortedOrder(run.qids);
    for (const m of measures) {
      const column = run.values.get(m);
      const missing = column ? run.qids.findIndex((_, i) => typeof column[i] !== "number") : 0;
      if (missing >= 0)
        throw new RankevalError(
          "bad-input",
          `${file}: run ${run.name}, query ${run.qids[missing]} has no value of ${m}`,
        );
      values[m] = Float64Array.from(order, (i) => column![i]);
      counted[m] = values[m].filter((v) => v === v).length;
      const summary = run.mean.get(m);
      // compare() reports the means as printed.
      if (summary === undefined)
        throw new RankevalError(
          "bad-input",
          `${file}: run ${run.name} has no mean of ${m} (written with -n?): write it again without -n`,
        );
      mean[m] = summary;
    }
    const result: Result<string> = {
      measures,
      qids: order.map((i) => run.qids[i]),
      values,
      mean,
      counted,
      // Not printed, so none.
      interval: {},
      queries: { evaluated: run.qids.length, skipped: { noRelevant: 0, notJudged: 0, notInRun: 0 } },
      // compare() does not read it.
      options: DEFAULT_OPTIONS,
      conventions: conventionsLine(measures.map((m) => ({ name: m, conventions: conventionsOf.get(m)! }))),
      measureConventions: Object.fromEntries(measures.map((m) => [m, conventionsOf.get(m)!])),
      warnings: [],
    };
    return { name: run.name, result, file };
  });
}

/** Whether a text starts as rankeval's per-query JSON (`-q --format json`). */
export function looksLikePerQueryJson(head: string): boolean {
  return /^\uFEFF?\s*\{\s*"conventions"\s*:/.test(head);
}

export const PER_QUERY_CSV_HEADER = "run,qid,measure,value,conventions";
/** With --tie-range (worst and best are not compared). */
const PER_QUERY_CSV_TIE_RANGE_HEADER = "run,qid,measure,value,worst,best,conventions";

/** Whether a text starts as rankeval's per-query CSV. */
export function looksLikePerQueryCsv(head: string): boolean {
  const line = head
    .replace(/^\uFEFF/, "")
    .split("\n")[0]
    .replace(/\r$/, "");
  return line === PER_QUERY_CSV_HEADER || line === PER_QUERY_CSV_TIE_RANGE_HEADER;
}

/** The runs of rankeval's per-query JSON (NaN as null). */
export function readPerQueryJson(text: string, file: string): PerQueryRun[] {
  const bad = (what: string) => new RankevalError("bad-input", `${file}: ${what}`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw bad(`not valid JSON (${(e as Error).message})`);
  }
  const isObject = (x: unknown): x is Record<string, unknown> =>
    typeof x === "object" && x !== null && !Array.isArray(x);
  if (!isObject(doc) || !isObject(doc.measureConventions) || !Array.isArray(doc.runs)) {
    throw bad("not the per-query JSON rankeval writes (-q --format json): it needs measureConventions and runs");
  }
  const conventionsOf = new Map<string, string>();
  for (const [m, c] of Object.entries(doc.measureConventions)) {
    if (typeof c !== "string") throw bad(`measureConventions.${m} is not a string`);
    conventionsOf.set(m, c);
  }
  if (doc.runs.length === 0) throw bad("has no run");
  const runs = doc.runs.map((r: unknown, k: number): RunValues => {
    if (!isObject(r) || typeof r.run !== "string") throw bad(`runs[${k}] has no run name`);
    if (!isObject(r.perQuery))
      throw bad(`run ${r.run} has no per-query values (written without -q?): write it again with -q`);
    const qids = Object.keys(r.perQuery);
    const values = new Map([...conventionsOf.keys()].map((m) => [m, new Array<number>(qids.length)]));
    qids.forEach((q, i) => {
      const byMeasure = (r.perQuery as Record<string, unknown>)[q];
      if (!isObject(byMeasure)) throw bad(`run ${r.run}, query ${q}: not an object of values`);
      for (const [m, column] of values) {
        const v = byMeasure[m];
        if (v === null) column[i] = NaN;
        else if (typeof v === "number") column[i] = v;
        else
          throw bad(
            `run ${r.run}, query ${q}: ${m} is ${v === undefined ? "missing" : JSON.stringify(v)}, not a number or null`,
          );
      }
    });
    const mean = new Map<string, number>();
    if (isObject(r.mean)) {
      for (const m of conventionsOf.keys()) {
        const v = r.mean[m];
        if (v === null) mean.set(m, NaN);
        else if (typeof v === "number") mean.set(m, v);
      }
    }
    return { name: r.run, qids, values, mean };
  });
  return toResults(file, runs, conventionsOf);
}

/** A run of a per-query CSV being read; `tail`: its trailing rows of qid `all`. */
interface CsvRun extends RunValues {
  index: Map<string, number>;
  tail: { qid: string; measure: string; value: number }[];
}

/** Reads rankeval's per-query CSV chunk by chunk. A query named `all` is told from the summary rows (a run's last, one per measure) by place. */
export class PerQueryCsvReader {
  private rest = "";
  private line = 0;
  private header: string | null = null;
  private readonly runs: CsvRun[] = [];
  private readonly conventionsOf = new Map<string, string>();

  constructor(private readonly file: string) {}

  push(text: string): void {
    this.read(this.rest + text, false);
  }

  /** Reads the records of `all`, keeping a last one that may go on. */
  private read(all: string, final: boolean): void {
    let start = 0;
    while (start < all.length) {
      let r;
      try {
        r = csvRecord(all, start, final);
      } catch (e) {
        throw this.bad(this.line + 1, (e as Error).message);
      }
      if (!r) break;
      this.record(r.fields);
      this.line += r.lines;
      start = r.next;
    }
    this.rest = all.slice(start);
  }

  finish(): PerQueryRun[] {
    this.read(this.rest, true);
    if (this.header === null)
      throw this.bad(1, `not the per-query CSV rankeval writes (its header is ${PER_QUERY_CSV_HEADER})`);
    if (this.runs.length === 0) throw new RankevalError("bad-input", `${this.file}: has no run`);
    for (const run of this.runs) {
      // The summary is each measure's last row; rows before it are a query `all`.
      const seen = new Set<string>();
      const summary: typeof run.tail = [];
      for (let i = run.tail.length - 1; i >= 0; i--) {
        const row = run.tail[i];
        if (seen.has(row.measure)) break;
        seen.add(row.measure);
        summary.push(row);
      }
      for (const row of run.tail.slice(0, run.tail.length - summary.length))
        this.value(run, row.qid, row.measure, row.value);
      for (const row of summary) run.mean.set(row.measure, row.value);
      if (run.qids.length === 0)
        throw new RankevalError(
          "bad-input",
          `${this.file}: run ${run.name} has no per-query values (written without -q?): write it again with -q`,
        );
    }
    return toResults(this.file, this.runs, this.conventionsOf);
  }

  private bad(line: number, what: string): RankevalError {
    return new RankevalError("bad-input", `${this.file}:${line}: ${what}`);
  }

  private record(fields: string[]): void {
    const line = this.line + 1;
    if (this.header === null) {
      const header = fields.join(",").replace(/^\uFEFF/, "");
      if (header !== PER_QUERY_CSV_HEADER && header !== PER_QUERY_CSV_TIE_RANGE_HEADER)
        throw this.bad(line, `not the per-query CSV rankeval writes (its header is ${PER_QUERY_CSV_HEADER})`);
      this.header = header;
      return;
    }
    if (fields.length === 1 && fields[0] === "") return;
    const columns = this.header.split(",").length;
    if (fields.length !== columns) {
      throw this.bad(line, `expected ${columns} fields (${this.header}), got ${fields.length}`);
    }
    const [name, qid, measure, written] = fields;
    const conventions = fields[columns - 1];
    const value = written === "NaN" ? NaN : Number(written);
    if (written !== "NaN" && (written.trim() === "" || Number.isNaN(value)))
      throw this.bad(line, `value "${written}" is not a number`);
    const known = this.conventionsOf.get(measure);
    if (known === undefined) this.conventionsOf.set(measure, conventions);
    else if (known !== conventions)
      throw this.bad(line, `${measure} has conventions "${conventions}" here and "${known}" above`);
    let run = this.runs.at(-1);
    if (!run || run.name !== name) {
      if (this.runs.some((r) => r.name === name)) throw this.bad(line, `run ${name}'s rows are not together`);
      run = { name, qids: [], values: new Map(), mean: new Map(), index: new Map(), tail: [] };
      this.runs.push(run);
    }
    if (qid === "all") {
      run.tail.push({ qid, measure, value });
      return;
    }
    // Rows of qid `all` followed by others were a query named `all`.
    for (const row of run.tail) this.value(run, row.qid, row.measure, row.value);
    run.tail = [];
    this.value(run, qid, measure, value);
  }

  private value(run: CsvRun, qid: string, measure: string, value: number): void {
    let q = run.index.get(qid);
    if (q === undefined) {
      q = run.qids.push(qid) - 1;
      run.index.set(qid, q);
    }
    let column = run.values.get(measure);
    if (!column) run.values.set(measure, (column = []));
    column[q] = value;
  }
}
