/**
 * Measure names to measures, each the number of the tool it names. The first reader that knows the
 * word takes it: ir_measures (nDCG@10), ranx (hits@10), XGBoost (ndcg@10-), ndeval (ERR-IA@20),
 * rankeval (ndcg@1,3,5), trec_eval (ndcg_cut.10, P_5); so `map` is rankeval's here (the command line
 * tries trec_eval first). A word its tool cannot read (ir_measures' `P` without a cutoff) goes on to
 * the next; if none can, the first error is thrown.
 */
import { RankevalError, shortened, shown } from "../errors/errors.js";
import { splitTrecArg, trecMeasuresOf, trecNames } from "../trec/measures.js";
import { IR_MEASURES_NAMES, parseIrMeasure } from "../measures/ir-measures.js";
import { parseCanonical, type Measure } from "../measures/measure.js";
import { RANX_NAMES, parseRanx } from "../measures/ranx.js";
import { XGBOOST_NAMES, parseXgboost } from "../measures/xgboost.js";
import { NDEVAL_NAMES, parseNdeval } from "../measures/ndeval.js";
import { canonicalNames, FAMILIES } from "../measures/registry.js";
import { nearest } from "../errors/suggest.js";

const one = (parse: (word: string) => Measure | null) => (word: string) => {
  const m = parse(word);
  return m && [m];
};

/** The readers, in order; null: not its name. */
const READERS: readonly ((word: string, warnings: string[]) => Measure[] | null)[] = [
  one(parseIrMeasure),
  one(parseRanx),
  one(parseXgboost),
  parseNdeval,
  parseCanonical,
  trecMeasuresOf,
];

/** Words read (measures are frozen), at most WORDS_KEPT. */
const wordsRead = new Map<string, { measures: Measure[]; warnings: string[] }>();
const WORDS_KEPT = 512;

/** One word's measures, memoised: reading them was a tenth of a small evaluation, repeated each epoch. */
export function resolveWord(word: string, warnings: string[]): Measure[] {
  const known = wordsRead.get(word);
  if (known) {
    warnings.push(...known.warnings);
    return [...known.measures];
  }
  const said: string[] = [];
  const measures = readWord(word, said);
  if (wordsRead.size >= WORDS_KEPT) wordsRead.clear();
  wordsRead.set(word, { measures, warnings: said });
  warnings.push(...said);
  return [...measures];
}

/** Past any real name: refused before readers (or "did you mean") spend time on it. */
const LONGEST_WORD = 10_000;

function readWord(word: string, warnings: string[]): Measure[] {
  if (word.length > LONGEST_WORD)
    throw new RankevalError(
      "bad-measure",
      `measure name ${shown(word)} is ${word.length} characters long: no measure name is longer than ${LONGEST_WORD}`,
    );
  let first: unknown;
  for (const read of READERS) {
    // Keep only the successful reader's warnings.
    const said: string[] = [];
    try {
      const ms = read(word, said);
      if (ms) {
        warnings.push(...said);
        return ms;
      }
    } catch (e) {
      if (!(e instanceof RankevalError)) throw e;
      first ??= e;
    }
  }
  if (first) throw withSeparateWordsHint(first as RankevalError, word);
  throw unknownMeasure(word);
}

/**
 * Measure specs (space-separated names in any tool's spelling, or `Measure`s) as measures, in order,
 * without duplicates. Warnings are appended to `warnings`; bad names throw.
 */
export function parseMeasures(specs: string | readonly (string | Measure)[], warnings: string[] = []): Measure[] {
  const list: readonly unknown[] = typeof specs === "string" ? [specs] : Array.isArray(specs) ? specs : [specs];
  const out = new Map<string, Measure>();
  const add = (m: Measure) => out.has(m.name) || out.set(m.name, m);
  for (const spec of list) {
    if (isMeasure(spec)) {
      add(spec);
      continue;
    }
    if (typeof spec !== "string")
      throw new RankevalError("bad-measure", `measure spec must be a string or a parsed measure, not ${shown(spec)}`);
    for (const word of spec.trim().split(/\s+/)) {
      if (word === "") continue;
      for (const m of resolveWord(word, warnings)) add(m);
    }
  }
  if (out.size === 0) throw new RankevalError("bad-measure", "no measure given");
  return [...out.values()];
}

function isMeasure(x: unknown): x is Measure {
  return typeof x === "object" && x !== null && "family" in x && "name" in x && "tool" in x;
}

/** Every tool's names, for "did you mean". */
export function knownNames(): string[] {
  return [...canonicalNames(), ...IR_MEASURES_NAMES, ...RANX_NAMES, ...XGBOOST_NAMES, ...NDEVAL_NAMES, ...trecNames()];
}

/** A word's name and the rest (`ndgc` + `@10`), so suggestions keep the cutoffs. */
function nameAndRest(word: string): [string, string] {
  const m = /^(.*?)((?:[@(.]|_[0-9.]).*)?$/s.exec(word)!;
  return [m[1], m[2] ?? ""];
}

/** Names people write, too far from the real ones for an edit distance (`iP` in papers). */
const ALSO_WRITTEN: Readonly<Record<string, readonly string[]>> = {
  iP: ["IPrec"],
  iprec: ["IPrec", "iprec_at_recall"],
};

function unknownMeasure(word: string): RankevalError {
  const [name, rest] = nameAndRest(word);
  const near = [...(Object.hasOwn(ALSO_WRITTEN, name) ? ALSO_WRITTEN[name] : []), ...nearest(name, knownNames())]
    .slice(0, 3)
    .map((n) => shortened(`${n}${rest}`));
  const hint = near.length
    ? ` (did you mean ${near.length === 1 ? near[0] : `${near.slice(0, -1).join(", ")} or ${near[near.length - 1]}`}?)`
    : ` (rankeval's names: ${FAMILIES.map((f) => f.name).join(", ")}; trec_eval's, ir_measures' and ranx's are taken too)`;
  return withSeparateWordsHint(new RankevalError("bad-measure", `unknown measure ${shown(word)}${hint}`), word);
}

/** `ndcg@10,map`: several measures written as one; say how to give them. */
function withSeparateWordsHint(e: RankevalError, word: string): RankevalError {
  const parts = word.split(",");
  if (parts.length < 2 || !parts.slice(1).some((p) => /^[A-Za-z]/.test(p)) || /separate words/.test(e.message))
    return e;
  return new RankevalError(
    e.code,
    `${e.message}; to ask for several measures, give them as separate words or -m options (${parts.join(" ")})`,
  );
}

/** Whether `arg` is a trec_eval -m name (either spelling). */
export function isTrecName(arg: string): boolean {
  return splitTrecArg(arg) !== null;
}
