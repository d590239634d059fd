/**
 * Measure names to measures: a name that belongs to a tool gives that tool's number. Each word is
 * read by the first of these that knows its name:
 *
 *   ir_measures   its names, case-sensitive: nDCG@10  AP  P(rel=2)@10  RR@10  IPrec@0.5  Judged@10
 *   ranx          its names that differ from rankeval's: hits@10  ndcg_burges@10  dcg_burges
 *   XGBoost       its names that differ from rankeval's: ndcg@10-  map@10-  pre@10
 *   ndeval        TREC's diversity evaluation's: alpha-nDCG@20  ERR-IA@20  NRBP  strec@10  ndeval
 *   rankeval      the canonical names, lower case: ndcg@10  ndcg@1,3,5  map  err(max=3)@20
 *   trec_eval     its names in -m syntax or as it prints them: ndcg_cut.10  P.5,10  P_5  recip_rank
 *
 * so a bare name that is both rankeval's and trec_eval's (`map`, `ndcg`, `bpref`) is rankeval's here;
 * the command line reads every -m as trec_eval does first (src/app/plan.ts). A word whose name is a
 * tool's but which that tool cannot read (ir_measures' `P` needs a cutoff; rankeval's `recall` too)
 * goes on to the next that can (trec_eval's `P` and `recall`: every default cutoff); if none can,
 * the first error is thrown. A name nobody knows gets "did you mean" from every tool's names.
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

/** The readers, in the order above: each returns null for a word that is not spelled with its names. */
const READERS: readonly ((word: string, warnings: string[]) => Measure[] | null)[] = [
  (word) => {
    const m = parseIrMeasure(word);
    return m && [m];
  },
  (word) => {
    const m = parseRanx(word);
    return m && [m];
  },
  (word) => {
    const m = parseXgboost(word);
    return m && [m];
  },
  (word) => parseNdeval(word),
  (word) => parseCanonical(word),
  (word, warnings) => trecMeasuresOf(word, warnings),
];

/** Words read before and what they gave (measures are frozen values), at most WORDS_KEPT. */
const wordsRead = new Map<string, { measures: Measure[]; warnings: string[] }>();
const WORDS_KEPT = 512;

/**
 * One word's measures (a cutoff list or a trec_eval name gives several), memoised: a program evaluating
 * every epoch names the same measures each call, and reading them was a tenth of a small evaluation.
 */
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

/**
 * Longer than any measure name, even with a long list of cutoffs: a longer word is refused before any
 * reader (or "did you mean") spends time on it.
 */
const LONGEST_WORD = 10_000;

function readWord(word: string, warnings: string[]): Measure[] {
  if (word.length > LONGEST_WORD)
    throw new RankevalError(
      "bad-measure",
      `measure name ${shown(word)} is ${word.length} characters long: no measure name is longer than ${LONGEST_WORD}`,
    );
  let first: unknown;
  for (const read of READERS) {
    // Warnings of a reading that fails are not the user's: keep only the one used.
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
 * Parses measure specs (names separated by spaces, in any tool's spelling, or parsed `Measure`s) into
 * measures, in order, without duplicates. Warnings are appended to `warnings`; bad names throw.
 */
export function parseMeasures(specs: string | readonly (string | Measure)[], warnings: string[] = []): Measure[] {
  const list: readonly unknown[] = typeof specs === "string" ? [specs] : Array.isArray(specs) ? specs : [specs];
  const out: Measure[] = [];
  const seen = new Set<string>();
  const add = (m: Measure) => {
    if (seen.has(m.name)) return;
    seen.add(m.name);
    out.push(m);
  };
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
  if (out.length === 0) throw new RankevalError("bad-measure", "no measure given");
  return out;
}

function isMeasure(x: unknown): x is Measure {
  return typeof x === "object" && x !== null && "family" in x && "name" in x && "tool" in x;
}

/** Every name of every tool rankeval knows, for "did you mean". */
export function knownNames(): string[] {
  return [...canonicalNames(), ...IR_MEASURES_NAMES, ...RANX_NAMES, ...XGBOOST_NAMES, ...NDEVAL_NAMES, ...trecNames()];
}

/**
 * The name part of a word and what follows it (`ndgc` + `@10`, `recip_rnak` + ``, `ndcgcut` + `_10`),
 * so that suggestions keep the user's cutoffs.
 */
function nameAndRest(word: string): [string, string] {
  const m = /^(.*?)((?:[@(.]|_[0-9.]).*)?$/s.exec(word)!;
  return [m[1], m[2] ?? ""];
}

/**
 * Names no tool uses but people write for one that exists (too far from it for an edit distance):
 * interpolated precision is `iP` in papers, `IPrec` in ir_measures, `iprec_at_recall` in trec_eval.
 */
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

/** `ndcg@10,map`, `nDCG@10,AP`: several measures written as one; say how to give them. */
function withSeparateWordsHint(e: RankevalError, word: string): RankevalError {
  const parts = word.split(",");
  if (parts.length < 2 || !parts.slice(1).some((p) => /^[A-Za-z]/.test(p)) || /separate words/.test(e.message))
    return e;
  return new RankevalError(
    e.code,
    `${e.message}; to ask for several measures, give them as separate words or -m options (${parts.join(" ")})`,
  );
}

/** Whether `arg` is one of trec_eval's -m names (in either spelling): the command line reads those as trec_eval does. */
export function isTrecName(arg: string): boolean {
  return splitTrecArg(arg) !== null;
}
