// The whole text trec_eval prints (trec_eval.c, meas_acc.c, meas_avg.c, meas_print_*.c): with -q each
// query's lines (strcmp order), then the summary ("all"). Browser-safe.
import { counted } from "../errors/counted.js";
import { RankevalError } from "../errors/errors.js";
import { aggregate, geoLog } from "../pipeline/aggregate.js";
import { sortedOrder } from "../c/strings.js";
import { formatLine } from "../trec/format.js";
import { trecLines, type TrecLine, type TrecMeasure } from "../trec/measures.js";
import type { ZscoreLookup } from "../trec/zscore-lookup.js";

export interface TrecReportInput {
  /** From the run file's last line. */
  readonly runid: string;
  readonly measures: readonly TrecMeasure[];
  /** By line key, aligned with `qids` (any order); relstring's are strings. A line without values needs a `summary` value. */
  readonly perQuery?: {
    readonly qids: readonly string[];
    readonly values: Readonly<Record<string, ArrayLike<number> | readonly string[]>>;
  };
  /** -q. Default: whether `perQuery` is given. */
  readonly printPerQuery?: boolean;
  /** false: -n. Default true. */
  readonly printSummary?: boolean;
  /** Summary values by line name, instead of aggregating `perQuery` (num_rel under -c). */
  readonly summary?: Readonly<Record<string, number>>;
  /** num_q and the mean's denominator. Default: the qids' count. */
  readonly numQ?: number;
  /** Default: its name (two lines may print one name with other values). */
  readonly keyOf?: (line: TrecLine) => string;
  /** -Z: each value its Z score, every numeric line `Z<name>` with `%6.4f`. */
  readonly zscores?: ZscoreLookup;
  /** -D n.qid: only this query (the mean still over `numQ`, as meas_avg.c). */
  readonly onlyQuery?: string;
}

export function formatTrecReport(input: TrecReportInput): string {
  const lines = trecLines(input.measures);
  const pq = input.perQuery;
  const qids = pq?.qids ?? [];
  const z = input.zscores;
  const only = input.onlyQuery;
  const order = only === undefined ? sortedOrder(qids) : sortedOrder(qids).filter((q) => qids[q] === only);
  // Qids usually come sorted: then each column is summed as it is.
  const inOrderAlready = order.length === qids.length && order.every((q, i) => q === i);
  const numQ = input.numQ ?? order.length;
  // The value trec_eval holds per query (gm_map's: geoLog); under -Z, its Z score.
  const held = (l: TrecLine, q: number, v: number): number => {
    const x = l.aggregation === "geomean" ? geoLog(v) : v;
    return z ? z.z(qids[q], l.name, x) : x;
  };
  const keyOf = input.keyOf ?? ((l: TrecLine) => l.name);
  const column = (l: TrecLine): ArrayLike<number> | readonly string[] | undefined => {
    const name = keyOf(l);
    const v = pq?.values[name];
    if (v === undefined) return undefined;
    if (v.length !== qids.length)
      throw new RankevalError(
        "bad-input",
        `trec report: ${counted(v.length, "value")} for "${name}", ${counted(qids.length, "qid")}`,
      );
    return v;
  };
  const out: string[] = [];

  if (input.printPerQuery ?? pq !== undefined) {
    if (!pq) throw new RankevalError("bad-input", "trec report: per-query lines asked for without per-query values");
    const printed = lines.filter((l) => l.perQuery);
    const cols = printed.map((l) => {
      const c = column(l);
      if (c === undefined) throw new RankevalError("bad-input", `trec report: no per-query values for "${l.name}"`);
      return c;
    });
    for (const q of order) {
      for (let j = 0; j < printed.length; j++) {
        const l = printed[j];
        const v = cols[j][q];
        out.push(
          z && typeof v === "number" ? zLine(l.name, qids[q], held(l, q, v)) : formatLine(l.name, qids[q], v, l.print),
        );
      }
    }
  }

  if (input.printSummary ?? true) {
    for (const l of lines) {
      if (!l.summary) continue;
      const given = input.summary?.[l.name];
      let value: number | string;
      if (l.aggregation === "runid") value = input.runid;
      else if (given !== undefined) value = given;
      else if (l.aggregation === "count") value = numQ;
      else {
        const c = column(l);
        if (c === undefined)
          throw new RankevalError("bad-input", `trec report: no summary value nor per-query values for "${l.name}"`);
        if (!(c instanceof Float64Array) && Array.prototype.some.call(c, (v) => typeof v !== "number"))
          throw new RankevalError("bad-input", `trec report: "${l.name}" values must be numbers`);
        if (z)
          value = aggregate(
            l.aggregation,
            order.map((q) => held(l, q, c[q] as number)),
            numQ,
            true,
          );
        else
          value = aggregate(
            l.aggregation,
            inOrderAlready ? (c as ArrayLike<number>) : order.map((q) => c[q] as number),
            numQ,
          );
      }
      out.push(
        z && typeof value === "number" ? zLine(l.name, "all", value) : formatLine(l.name, "all", value, l.print),
      );
    }
  }
  return out.join("");
}

/** A line under -Z (meas_print_*.c): `Z%-22s\t%s\t%6.4f`, for longs too. */
function zLine(name: string, qid: string, value: number): string {
  return `Z${formatLine(name, qid, value, "float")}`;
}
