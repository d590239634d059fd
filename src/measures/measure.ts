import { RankevalError } from "../errors.js";
import { FAMILIES, findFamily, type Family } from "./registry.js";

/**
 * A measure is a value: a family, an optional cutoff and its parameters. Its canonical string
 * (`ndcg@10`, `err(max=3)@20`) is its identity; other tools' spellings parse to the same value.
 */
export interface Measure {
  readonly family: Family;
  /** Cutoff, or 0 for the whole ranking. */
  readonly k: number;
  readonly params: Readonly<Record<string, number>>;
  /** Canonical name, used as the key of results. */
  readonly name: string;
}

function canonicalName(family: Family, k: number, params: Readonly<Record<string, number>>): string {
  const defaults = family.params ?? {};
  const shown = Object.keys(defaults).filter((p) => params[p] !== defaults[p]);
  const paramText = shown.length ? `(${shown.map((p) => `${p}=${params[p]}`).join(",")})` : "";
  return `${family.name}${paramText}${k > 0 ? `@${k}` : ""}`;
}

export function makeMeasure(family: Family, k = 0, params: Readonly<Record<string, number>> = {}): Measure {
  const all = { ...(family.params ?? {}), ...params };
  return Object.freeze({ family, k, params: Object.freeze(all), name: canonicalName(family, k, all) });
}

/**
 * Parses measure specs into measures, in order, without duplicates. A spec is one measure or
 * several separated by spaces, with one or more cutoffs:
 *   canonical    ndcg@10   ndcg@1,3,5,10   map   err(max=3)@20   hit_rate@5
 *   trec_eval    ndcg_cut.10,20   P.5,10   P_5   ndcg_cut_10   recip_rank   Rprec   success.1,5
 *   ir_measures  nDCG@10   P@5   R@100   AP   RR@10   ERR@20
 */
export function parseMeasures(specs: string | readonly string[]): Measure[] {
  const list = typeof specs === "string" ? [specs] : specs;
  const out: Measure[] = [];
  const seen = new Set<string>();
  for (const spec of list) {
    if (typeof spec !== "string") throw new RankevalError("bad-measure", `measure spec must be a string, not ${typeof spec}`);
    for (const word of spec.trim().split(/\s+/)) {
      if (word === "") continue;
      for (const m of parseOne(word)) {
        if (!seen.has(m.name)) {
          seen.add(m.name);
          out.push(m);
        }
      }
    }
  }
  if (out.length === 0) throw new RankevalError("bad-measure", "no measure given");
  return out;
}

const SPEC = /^([A-Za-z0-9][A-Za-z0-9_-]*?)(?:\(([^)]*)\))?(?:(?:[@.]|_(?=\d+$))([^@.]+))?$/;

function parseOne(word: string): Measure[] {
  const m = SPEC.exec(word);
  const fail = (why: string) => new RankevalError("bad-measure", `measure "${word}": ${why}`);
  if (!m) throw fail("not of the form name@k, name@k1,k2, name.k or name_k");
  const [, rawName, paramText, cutoffText] = m;
  const family = findFamily(rawName);
  if (!family) {
    const known = FAMILIES.map((f) => f.name).join(", ");
    throw fail(`unknown measure "${rawName}" (known: ${known})`);
  }
  const params: Record<string, number> = {};
  if (paramText !== undefined) {
    for (const pair of paramText.split(",")) {
      const [key, value] = pair.split("=").map((s) => s.trim());
      if (!family.params || !(key in family.params)) throw fail(`${family.name} has no parameter "${key}"`);
      const v = Number(value);
      if (value === undefined || value === "" || !Number.isFinite(v)) throw fail(`parameter ${key} must be a number`);
      if (family.name === "err" && key === "max" && !(Number.isInteger(v) && v > 0 && v <= 30)) throw fail("err's max grade must be an integer from 1 to 30");
      params[key] = v;
    }
  }
  const cutoffs: number[] = [];
  if (cutoffText !== undefined) {
    for (const t of cutoffText.split(",")) {
      const k = Number(t);
      if (t.trim() === "" || !Number.isInteger(k) || k <= 0) throw fail(`cutoff "${t}" is not a positive integer`);
      if (k > 2 ** 31 - 1) throw fail(`cutoff ${t} is too large`);
      cutoffs.push(k);
    }
    if (family.cutoff === "none") throw fail(`${family.name} takes no cutoff`);
  } else if (family.cutoff === "required") {
    throw fail(`${family.name} needs a cutoff, as ${family.name}@10`);
  }
  if (cutoffs.length === 0) cutoffs.push(0);
  return cutoffs.map((k) => makeMeasure(family, k, params));
}
