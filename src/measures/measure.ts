import { RankevalError } from "../errors/errors.js";
import {
  DEFAULT_OPTIONS,
  describeOptions,
  overPreset,
  type DependsOn,
  type ExplicitOptions,
  type ResolvedOptions,
} from "./options.js";
import { PRESETS } from "./presets.js";
import { findFamily, type Family } from "./registry.js";

/** The tool whose measure name was asked ("rankeval": canonical names). */
export type Tool = "rankeval" | "trec_eval" | "ir_measures" | "ranx" | "xgboost" | "ndeval";

/** How per-query values are summarised ("mean" skips NaN). */
export type Aggregate = "mean" | "sum" | "geomean";

/**
 * A family, cutoff and parameters, under the conventions of the tool whose name was asked. `name`, in
 * that tool's spelling (`ndcg@10`, `ndcg_cut_10`, `nDCG@10`), is its identity.
 */
export interface Measure {
  readonly family: Family;
  /** Cutoff, or 0 for the whole ranking. */
  readonly k: number;
  readonly params: Readonly<Record<string, number>>;
  readonly tool: Tool;
  /** The tool's conventions; the user's options override them. */
  readonly conventions: ExplicitOptions;
  /** Fixed by its own parameters; nothing overrides them. */
  readonly fixed: ExplicitOptions;
  readonly aggregate: Aggregate;
  /** The results' key. */
  readonly name: string;
}

/** How a tool's name departs from the family's canonical measure. */
export interface MeasureOrigin {
  readonly tool: Tool;
  readonly name: string;
  readonly conventions?: ExplicitOptions;
  readonly fixed?: ExplicitOptions;
  readonly aggregate?: Aggregate;
}

/** `ndcg@10`, `err(max=3)@20` (defaults left out). */
export function canonicalName(family: Family, k: number, params: Readonly<Record<string, number>>): string {
  const defaults = family.params ?? {};
  const shown = Object.keys(defaults).filter((p) => params[p] !== defaults[p]);
  const paramText = shown.length ? `(${shown.map((p) => `${p}=${params[p]}`).join(",")})` : "";
  return `${family.name}${paramText}${k > 0 ? `@${k}` : ""}`;
}

export function makeMeasure(
  family: Family,
  k = 0,
  params: Readonly<Record<string, number>> = {},
  origin?: MeasureOrigin,
): Measure {
  const all = { ...(family.params ?? {}), ...params };
  return Object.freeze({
    family,
    k,
    params: Object.freeze(all),
    tool: origin?.tool ?? "rankeval",
    conventions: Object.freeze({ ...origin?.conventions }),
    fixed: Object.freeze({ ...origin?.fixed }),
    aggregate: origin?.aggregate ?? "mean",
    name: origin?.name ?? canonicalName(family, k, all),
  });
}

/**
 * `m`'s options, lowest precedence first: defaults, its tool's conventions, the preset, the other
 * options, its own parameters. The one place the precedence is written.
 */
export function measureOptions(m: Measure, explicit: ExplicitOptions): ResolvedOptions {
  return { ...overPreset({ ...DEFAULT_OPTIONS, ...m.conventions }, explicit), ...m.fixed };
}

/** `m` with the preset's family for it, if any (LightGBM's map@k is `map_lightgbm@k`), under the name asked. */
export function definedMeasure(m: Measure, explicit: ExplicitOptions): Measure {
  const other = explicit.preset === undefined ? undefined : PRESETS[explicit.preset].definitions[m.family.name];
  if (other === undefined) return m;
  return Object.freeze({ ...m, family: findFamily(other)! });
}

/** The conventions `m`'s value depends on. */
export function dependsOn(m: Measure): DependsOn {
  const f = m.family;
  return {
    gain: f.gain === true,
    threshold: f.binary === true,
    noRelevant: f.needsRelevant,
    beyondList: m.k > 0,
    ties: f.orderFree !== true,
  };
}

/** `"<tool>: "`, the conventions `m` depends on, and a preset's `definition=`. */
export function describeMeasureOptions(m: Measure, explicit: ExplicitOptions): string {
  const d = definedMeasure(m, explicit);
  const definition = d.family === m.family ? "" : ` definition=${d.family.name}`;
  return `${m.tool}: ${describeOptions(measureOptions(m, explicit), dependsOn(d))}${definition}`;
}

const fail = (word: string, why: string) => new RankevalError("bad-measure", `measure "${word}": ${why}`);

const CANONICAL = /^([a-z0-9][a-z0-9_-]*?)(?:\(([^)]*)\))?(?:@(.*))?$/;

/**
 * A canonical word (`ndcg@1,3,5`, `err(max=3)@20`). Null if no family has its name; throws for a bad
 * cutoff or parameter.
 */
export function parseCanonical(word: string): Measure[] | null {
  const m = CANONICAL.exec(word);
  if (!m) return null;
  const [, rawName, paramText, cutoffText] = m;
  const family = findFamily(rawName);
  if (!family) return null;
  const params: Record<string, number> = {};
  if (paramText !== undefined) {
    for (const pair of paramText.split(",")) {
      const eq = pair.indexOf("=");
      const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
      const value = eq < 0 ? undefined : pair.slice(eq + 1).trim();
      if (!family.params || !Object.hasOwn(family.params, key)) {
        const known = Object.keys(family.params ?? {});
        throw fail(
          word,
          `${family.name} has no parameter "${key}"${known.length ? ` (its parameters: ${known.join(", ")})` : ""}`,
        );
      }
      const v = value === undefined ? NaN : strictNumber(value);
      if (!Number.isFinite(v)) throw fail(word, `parameter ${key}: "${value ?? ""}" is not a number`);
      const r = family.ranges?.[key];
      if (r && !((!r.integer || Number.isInteger(v)) && v >= r.from && v <= r.to)) {
        const kind = r.integer ? "an integer" : "a number";
        throw fail(word, `${family.name}'s ${r.what ?? key} must be ${kind} from ${r.from} to ${r.to}`);
      }
      params[key] = v;
    }
  }
  const cutoffs: number[] = [];
  if (cutoffText !== undefined) {
    for (const t of cutoffText.split(",")) cutoffs.push(positiveCutoff(word, t));
    if (family.cutoff === "none") throw fail(word, `${family.name} takes no cutoff`);
  } else if (family.cutoff === "required") {
    throw fail(word, `${family.name} needs a cutoff, as ${family.name}@10`);
  }
  if (cutoffs.length === 0) cutoffs.push(0);
  return cutoffs.map((k) => makeMeasure(family, k, params));
}

/** A cutoff written as a positive integer, else an error. */
export function positiveCutoff(word: string, text: string): number {
  const k = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(Number.isInteger(k) && k > 0)) throw fail(word, `cutoff "${text}" is not a positive integer`);
  if (k > 2 ** 31 - 1) throw fail(word, `cutoff ${text} is too large`);
  return k;
}

/** A decimal written in full (`0.5`, `.25`, `1e3`; no trailing text, no hex), else NaN. */
export function strictNumber(text: string): number {
  return /^\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*$/.test(text) ? Number(text) : NaN;
}
