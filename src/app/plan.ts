// What the CLI and the page compute for -m names, under which options. Browser-safe.
import { RankevalError } from "../errors/errors.js";
import { withIntervals } from "../pipeline/interval.js";
import type { Evaluated, Result } from "../pipeline/evaluate.js";
import { TREC_EVAL } from "../measures/conventions.js";
import { describeMeasureOptions, makeMeasure, type Measure } from "../measures/measure.js";
import { isTrecName, parseMeasures } from "../names/resolve.js";
import {
  DEFAULT_OPTIONS,
  describeOptions,
  explicitOptions,
  mergeConventions,
  overPreset,
  type ExplicitOptions,
  type Options,
} from "../measures/options.js";
import {
  isComputed,
  parseTrecMeasures,
  reportMakesIt,
  trecLines,
  trecMeasure,
  type RelFormat,
  type TrecLine,
  type TrecMeasure,
} from "../trec/measures.js";
import type { Epi } from "../trec/port.js";
import { readsTrecLabels as measuresReadTrecLabels } from "../pipeline/trec-labels.js";

/** The user's conventions; unset: the measures' own. */
export interface Conventions {
  gain?: string;
  /** -l as written. */
  threshold?: number;
  /** -l as trec_eval reads it (atol). Default: `threshold` truncated. */
  trecThreshold?: number;
  depth?: number;
  judgedOnly?: boolean;
  /** -N: documents in the collection. */
  numDocs?: number;
  noRelevant?: string;
  beyondList?: string;
  ties?: string;
  preset?: string;
  relFormat?: RelFormat;
}

export interface Plan {
  /** "trec" when every name is trec_eval's. */
  readonly kind: "trec" | "measures";
  readonly trec: TrecMeasure[];
  readonly measures: Measure[];
  /** Printed name, key of its values. */
  readonly rows: readonly { readonly name: string; readonly measure: string }[];
  /** Computed by trec_eval's own algorithm, where the kernel's would differ. */
  readonly exact: TrecMeasure[];
  readonly epi: Pick<Epi, "relevanceLevel" | "numDocsInColl">;
  readonly warnings: string[];
  readonly relFormat?: RelFormat;
  /** Over preferences or judgment groups; keyed like `exact`. */
  readonly formatted?: TrecMeasure[];
}

/** Whether labels are read as trec_eval does (a face then warns of fractional ones). */
export function readsTrecLabels(p: Plan) {
  return p.trec.length > 0 || p.exact.length > 0 || measuresReadTrecLabels(p.measures);
}

/** A numeric trec line's key in a result; null for other lines. */
export function lineKey(l: TrecLine) {
  if (l.exact) return l.exact;
  if (l.kernel) return l.kernel.measure.name;
  if (l.meanOf) return l.name;
  return null;
}

export const LETOR_DEFAULT_MEASURES: readonly string[] = ["ndcg@1,3,5,10", "map", "mrr"];

export function trecLevel(c: Conventions) {
  return c.trecThreshold ?? (c.threshold !== undefined ? Math.trunc(c.threshold) : 1);
}

/**
 * The plan for -m names (none: `official`, or `fallback`). trec_eval's names are read together, their
 * lines placed where the first was given. trec_eval's own algorithm computes what the kernel would get
 * otherwise: everything under -l < 0 (unjudged documents then count as relevant at their ranks but not in
 * num_rel), iprec_at_recall and 11pt_avg where rankings can be empty, parameters the kernel cannot take.
 */
export function plan(
  specs: readonly string[],
  fallback: readonly string[] | null,
  conventions: Conventions = {},
): Plan {
  const warnings: string[] = [];
  const epi = { relevanceLevel: trecLevel(conventions), numDocsInColl: conventions.numDocs ?? 0 };
  const relFormat = conventions.relFormat ?? "qrels";
  if (specs.length === 0 && fallback) {
    if (relFormat !== "qrels")
      throw new RankevalError(
        "bad-option",
        `-R ${relFormat}: rankeval reads ${relFormat} judgments with trec_eval's measures only (-m ...)`,
      );
    return { ...measuresPlan(fallback, warnings, epi), relFormat, formatted: [] };
  }
  const words = specs.length ? specs : ["official"];
  const trecWords = words.filter((w) => typeof w === "string" && isTrecName(w));
  if (relFormat !== "qrels") {
    const other = words.find((w) => !isTrecName(w));
    if (other !== undefined)
      throw new RankevalError(
        "bad-measure",
        `measure "${other}": with -R ${relFormat}, only trec_eval's measures over those judgments are computed (${relFormat === "qrels_jg" ? "map_avgjg, P_avgjg, Rprec_mult_avgjg" : "prefs_simp, prefs_pair, ..."}, runid, num_q)`,
      );
  }
  const trec: TrecMeasure[] = [];
  const exact: TrecMeasure[] = [];
  const formatted: TrecMeasure[] = [];
  const measures = new Map<string, Measure>();
  const add = (m: Measure) => {
    if (!measures.has(m.name)) measures.set(m.name, m);
  };
  const allExact = epi.relevanceLevel < 0;
  const emptyRankings = conventions.depth === 0 || conventions.judgedOnly === true;
  if (trecWords.length) {
    for (const m of parseTrecMeasures(trecWords, warnings)) {
      checkFormat(m, relFormat);
      if (m.format) {
        const f = keyedLines(m);
        trec.push(f);
        formatted.push(f);
        continue;
      }
      const lines = trecLines([m]).map((l) => withCollectionSize(l, epi.numDocsInColl));
      const numeric = lines.some((l) => l.relstring === undefined && !reportMakesIt(l));
      if (lines.every(isComputed) && !(allExact && numeric) && !(emptyRankings && trecMeasure(m.name).emptyExact)) {
        trec.push(Object.freeze({ ...m, lines }));
        for (const l of lines) {
          if (l.kernel) add(l.kernel.measure);
          for (const k of l.meanOf ?? []) add(k.measure);
        }
        continue;
      }
      const e = keyedLines(m);
      trec.push(e);
      exact.push(e);
    }
  }
  const trecRows = trecLines(trec).flatMap((l) => {
    const key = lineKey(l);
    return key === null ? [] : [{ name: l.name, measure: key }];
  });
  const rows: { name: string; measure: string }[] = [];
  let trecPlaced = false;
  for (const w of words) {
    if (typeof w === "string" && isTrecName(w)) {
      if (!trecPlaced) rows.push(...trecRows);
      trecPlaced = true;
      continue;
    }
    for (const m of parseMeasures(w, warnings)) {
      if (measures.has(m.name)) continue;
      add(m);
      rows.push({ name: m.name, measure: m.name });
    }
  }
  return {
    kind: trecWords.length === words.length ? "trec" : "measures",
    trec,
    measures: [...measures.values()],
    rows,
    exact,
    epi,
    warnings,
    relFormat,
    formatted,
  };
}

/** The library's measures: kernel-computed, a row each. */
export function measuresPlan(
  measures: Parameters<typeof parseMeasures>[0],
  warnings: string[] = [],
  epi = { relevanceLevel: 1, numDocsInColl: 0 },
): Plan {
  const ms = parseMeasures(measures, warnings);
  return {
    kind: "measures",
    trec: [],
    measures: ms,
    rows: ms.map((m) => ({ name: m.name, measure: m.name })),
    exact: [],
    epi,
    warnings,
  };
}

/** Each line keyed (`TrecLine.exact`) for values computed outside the kernel. */
function keyedLines(m: TrecMeasure): TrecMeasure {
  const key = (l: TrecLine, i: number) =>
    m.lines.findIndex((x) => x.name === l.name) === i ? l.name : `${l.name} (${i + 1})`;
  return Object.freeze({
    ...m,
    lines: m.lines.map((l, i) => Object.freeze({ ...l, kernel: null, meanOf: undefined, exact: key(l, i) })),
  });
}

function checkFormat(m: TrecMeasure, relFormat: RelFormat) {
  if (m.lines.every(reportMakesIt)) return;
  const needs = m.format ?? "qrels";
  const ok = needs === "prefs" ? relFormat === "prefs" || relFormat === "qrels_prefs" : needs === relFormat;
  if (ok) return;
  const how =
    needs === "prefs"
      ? "-R prefs (or -R qrels_prefs for a qrels file)"
      : needs === "qrels_jg"
        ? "-R qrels_jg"
        : "qrels judgments (-R qrels, the default)";
  throw new RankevalError(
    "bad-measure",
    `trec_eval measure "${m.name}" reads ${how}, not -R ${relFormat} (trec_eval: Can't calculate measure '${m.name}')`,
  );
}

/** utility with -N (its fourth coefficient weighs the collection size). */
function withCollectionSize(l: TrecLine, numDocs: number): TrecLine {
  if (!trecMeasure(l.measure).numDocs || !l.kernel || numDocs === 0) return l;
  const m = l.kernel.measure;
  const measure = makeMeasure(
    m.family,
    m.k,
    { ...m.params, n: numDocs },
    { tool: m.tool, name: m.name, conventions: m.conventions, fixed: m.fixed, aggregate: m.aggregate },
  );
  return Object.freeze({ ...l, kernel: Object.freeze({ measure }) });
}

/** The options set, checked. Under trec_eval's names -l is atol's; below 0 the kernel only counts queries, at 0. */
export function options(args: Conventions, trecNames = false): ExplicitOptions {
  const { gain, threshold, depth, judgedOnly, noRelevant, beyondList, ties, preset } = args;
  const trecL = trecNames && (threshold !== undefined || args.trecThreshold !== undefined);
  const relevanceThreshold = trecL ? Math.max(0, trecLevel(args)) : threshold;
  const o = { gain, relevanceThreshold, depth, judgedOnly, noRelevant, beyondList, ties, preset };
  return explicitOptions(Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Options);
}

/** A plan's conventions: one line where the rows agree, else one per row. */
export function planConventions(p: Plan, explicit: ExplicitOptions) {
  const byKey = new Map(p.measures.map((m) => [m.name, describeMeasureOptions(m, explicit)]));
  for (const l of trecLines(p.trec)) if (l.meanOf) byKey.set(l.name, byKey.get(l.meanOf[0].measure.name)!);
  const exact = `trec_eval: ${describeOptions({ ...trecOptions(explicit), relevanceThreshold: p.epi.relevanceLevel })}`;
  for (const l of trecLines(p.exact)) byKey.set(lineKey(l)!, exact);
  const rows = p.rows.length ? p.rows : p.measures.map((m) => ({ name: m.name, measure: m.name }));
  const given = describeOptions(overPreset(DEFAULT_OPTIONS, explicit));
  const own = rows.map((r) => byKey.get(r.measure) ?? `rankeval: ${given}`);
  const merged = mergeConventions(own);
  if (merged.lines.length === 1) return [merged.lines[0]];
  const width = Math.max(...rows.map((r) => r.name.length));
  return rows.map((r, i) => `${r.name.padEnd(width)}  ${merged.lines[merged.index[i]]}`);
}

/** trec_eval's conventions under the options given. */
export function trecOptions(explicit: ExplicitOptions) {
  return overPreset({ ...DEFAULT_OPTIONS, ...TREC_EVAL }, explicit);
}

export interface RunResult extends Evaluated {
  file: string;
  runTag: string;
}

/** A result reduced to one query (-D n.qid): each summary is its value (gm_map not floored). */
export function onlyQuery(result: Result<string>, qid: string): Result<string> {
  const i = result.qids.indexOf(qid);
  if (i < 0)
    throw new RankevalError(
      "bad-input",
      `-D ${qid}: query ${JSON.stringify(qid)} is not evaluated (it needs judgments and a ranking)`,
    );
  const pick = (x: Float64Array) => x.slice(i, i + 1);
  const values: Record<string, Float64Array> = {};
  const mean: Record<string, number> = {};
  const counted: Record<string, number> = {};
  for (const [key, v] of Object.entries(result.values)) {
    values[key] = pick(v);
    mean[key] = v[i];
    counted[key] = Number.isNaN(v[i]) ? 0 : 1;
  }
  const tieRange = result.tieRange
    ? Object.fromEntries(
        Object.entries(result.tieRange).map(([k, t]) => [
          k,
          { worst: pick(t.worst), best: pick(t.best), mean: { worst: t.worst[i], best: t.best[i] } },
        ]),
      )
    : undefined;
  return {
    ...result,
    qids: [qid],
    values,
    mean,
    counted,
    interval: withIntervals({ values, interval: result.interval }).interval,
    queries: { ...result.queries, evaluated: 1 },
    ...(tieRange ? { tieRange } : {}),
  };
}
