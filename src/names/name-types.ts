/**
 * Measure names as types, made from the name tables themselves, so editors complete them and the
 * compiler catches a misspelling (`"ndgc@10"`). Cutoffs are any number, parameters any text (both
 * checked at run time); only a string's first word is checked. Names known only at run time (a
 * `string` or `string[]` from argv or a config file) are accepted as they are and checked at run time
 * (`CheckedMeasures`).
 */
import type { IrMeasuresAliases, IrMeasuresTable } from "../measures/ir-measures.js";
import type { RanxName } from "../measures/ranx.js";
import type { XgboostName } from "../measures/xgboost.js";
import type { NdevalName } from "../measures/ndeval.js";
import type { FamilyTable } from "../measures/registry.js";
import type { TrecNickname, TrecTable } from "../trec/measures.js";
import type { Measure } from "../measures/measure.js";

/** One cutoff. */
type K = `${number}`;
/**
 * Cutoffs, comma-separated; the first three checked. Past about a thousand union members the compiler
 * reports "union type that is too complex" beside the real error, so each form is one member at most.
 */
type Ks = K | `${K},${K}` | `${K},${K},${K}` | `${K},${K},${K},${string}`;

type FamilyRow = FamilyTable[number];
/** The canonical names and aliases of the families whose row matches `Where`. */
type FamilyNames<Where> = FamilyRow extends infer F
  ? F extends Where & { name: infer N extends string }
    ? N | (F extends { aliases: readonly (infer A extends string)[] } ? A : never)
    : never
  : never;
type NoCutoff = FamilyNames<{ cutoff: "none" }>;
type OptionalCutoff = FamilyNames<{ cutoff: "optional" }>;
type RequiredCutoff = FamilyNames<{ cutoff: "required" }>;
type WithParams = FamilyNames<{ params: object }>;

/**
 * rankeval's own names: `ndcg@10`, `ndcg@1,3,5`, `map`, `err(max=3)@20`, `iprec_at_recall(recall=0.5)`
 * (with parameters, the name is checked, not what follows its parenthesis).
 */
export type CanonicalName =
  | NoCutoff
  | OptionalCutoff
  | `${OptionalCutoff | RequiredCutoff}@${Ks}`
  | `${WithParams}(${string}`;

type TrecRow = TrecTable[number];
/** trec_eval's measures of a parameter kind, but for the lines of its report that are not measures. */
type TrecNames<Kind> = TrecRow extends infer E
  ? E extends { shape: "runid" | "numq" | "relstring" }
    ? never
    : E extends { name: infer N extends string }
      ? (E extends { kind: infer K } ? K : "none") extends Kind
        ? N
        : never
      : never
  : never;

/**
 * trec_eval's names, in its -m syntax and as it prints them: `map`, `ndcg_cut.10`, `P.5,10`, `P_5`,
 * `iprec_at_recall_0.50`, `utility.2,-1,0,0`, and its nicknames (`official`, `all_trec`, `set`).
 */
export type TrecEvalName =
  | TrecNickname
  | TrecNames<ParamKinds>
  | `${TrecNames<"longCutoffs">}.${Ks}`
  | `${TrecNames<"longCutoffs">}_${K}`
  | `${TrecNames<"doubleCutoffs" | "doubleParams" | "pairs">}.${string}`
  | `${TrecNames<"doubleCutoffs">}_${K}`
  | `${TrecNames<"doubleParams">}_${K}`
  | `${TrecNames<"doubleParams">}_${K},${string}`
  | `${TrecNames<"pairs">}_${string}=${string}`;
type ParamKinds = "none" | "longCutoffs" | "doubleCutoffs" | "doubleParams" | "pairs";

type IrmRow = IrMeasuresTable[number];
/** The words of one ir_measures name N whose row is E (with parameters, the name is checked, not what follows). */
type IrmWords<N extends string, E> =
  | (E extends { atRequired: true } ? never : N)
  | `${N}(${string}`
  | (E extends { at: null } ? never : `${N}@${number}`);
type IrmByName = { [E in IrmRow as E["name"]]: E };
type IrmAliasWords = {
  [A in keyof IrMeasuresAliases & string]: IrmWords<A, IrmByName[IrMeasuresAliases[A]["of"]]>;
}[keyof IrMeasuresAliases & string];

/**
 * ir_measures' names (case-sensitive): `nDCG@10`, `AP`, `P(rel=2)@10`, `nDCG(dcg='exp-log2')@10`,
 * `RR@10`, `IPrec@0.5`, `Judged@10`, `ERR@20`, `Rprec`, `NumRet`, `SetF(beta=0.5)`, ...
 */
export type IrMeasuresName =
  | (IrmRow extends infer E ? (E extends { name: infer N extends string } ? IrmWords<N, E> : never) : never)
  | IrmAliasWords;

/** ranx's names that are not rankeval's: `hits@10`, `ndcg_burges@10`, `dcg_burges`, with ranx's `-l2`. */
export type RanxMeasureName = RanxName | `${RanxName}@${K}` | `${RanxName}-l${K}` | `${RanxName}@${K}-l${K}`;

/** Any measure name rankeval reads (see src/names/resolve.ts for which tool's a name is). */
export type MeasureName = CanonicalName | TrecEvalName | IrMeasuresName | RanxMeasureName | XgboostName | NdevalName;

/** A measure name, or several separated by spaces (the compiler checks the first). */
export type MeasureSpec = MeasureName | `${MeasureName} ${string}`;

/**
 * One item of a measure list as the compiler checks it: a literal name must be a `MeasureSpec` (so a
 * misspelled `"ndgc@10"` is a compile error); a type wider than literals (`string`, a template such as
 * `` `${string}@10` ``) is known only at run time and is checked then, with the same did-you-mean errors.
 */
type CheckedItem<S> = [S] extends [MeasureSpec | Measure]
  ? S
  : Record<never, never> extends Record<S & string, 1> // no required key: S is not made of literals
    ? S
    : MeasureSpec | Measure;

/** A call's measures `M` as the compiler checks them (each item as `CheckedItem` says); `M` itself when valid. */
export type CheckedMeasures<M> = M extends readonly unknown[]
  ? { readonly [I in keyof M]: CheckedItem<M[I]> }
  : [M] extends [string]
    ? CheckedItem<M>
    : MeasureSpec;
