/**
 * Measure names as types, from the name tables, so editors complete them and the compiler catches
 * `"ndgc@10"`. Cutoffs and parameters are checked at run time, as are a string's later words and
 * names known only at run time (`CheckedMeasures`).
 */
import type { IrMeasuresAliases, IrMeasuresTable } from "../measures/ir-measures.js";
import type { RanxName } from "../measures/ranx.js";
import type { XgboostName } from "../measures/xgboost.js";
import type { NdevalName } from "../measures/ndeval.js";
import type { FamilyTable } from "../measures/registry.js";
import type { TrecNickname, TrecTable } from "../trec/measures.js";
import type { Measure } from "../measures/measure.js";

type K = `${number}`;
/** Cutoffs, the first three checked; one member per form (past ~1000 members: "union type that is too complex"). */
type Ks = K | `${K},${K}` | `${K},${K},${K}` | `${K},${K},${K},${string}`;

type FamilyRow = FamilyTable[number];
/** Names and aliases of the families matching `Where`. */
type FamilyNames<Where> = FamilyRow extends infer F
  ? F extends Where & { name: infer N extends string }
    ? N | (F extends { aliases: readonly (infer A extends string)[] } ? A : never)
    : never
  : never;
type NoCutoff = FamilyNames<{ cutoff: "none" }>;
type OptionalCutoff = FamilyNames<{ cutoff: "optional" }>;
type RequiredCutoff = FamilyNames<{ cutoff: "required" }>;
type WithParams = FamilyNames<{ params: object }>;

/** rankeval's own names: `ndcg@10`, `ndcg@1,3,5`, `map`, `err(max=3)@20` (parameters unchecked). */
export type CanonicalName =
  | NoCutoff
  | OptionalCutoff
  | `${OptionalCutoff | RequiredCutoff}@${Ks}`
  | `${WithParams}(${string}`;

type TrecRow = TrecTable[number];
/** trec_eval's measures of a parameter kind (not runid, num_q, relstring). */
type TrecNames<Kind> = TrecRow extends infer E
  ? E extends { shape: "runid" | "numq" | "relstring" }
    ? never
    : E extends { name: infer N extends string }
      ? (E extends { kind: infer K } ? K : "none") extends Kind
        ? N
        : never
      : never
  : never;

/** trec_eval's names, in -m syntax or printed: `map`, `ndcg_cut.10`, `P.5,10`, `P_5`, nicknames. */
export type TrecEvalName =
  | TrecNickname
  | TrecNames<unknown>
  | `${TrecNames<"longCutoffs">}.${Ks}`
  | `${TrecNames<"longCutoffs">}_${K}`
  | `${TrecNames<"doubleCutoffs" | "doubleParams" | "pairs">}.${string}`
  | `${TrecNames<"doubleCutoffs">}_${K}`
  | `${TrecNames<"doubleParams">}_${K}`
  | `${TrecNames<"doubleParams">}_${K},${string}`
  | `${TrecNames<"pairs">}_${string}=${string}`;

type IrmRow = IrMeasuresTable[number];
/** The words of ir_measures name N with row E (parameters unchecked). */
type IrmWords<N extends string, E> =
  | (E extends { atRequired: true } ? never : N)
  | `${N}(${string}`
  | (E extends { at: null } ? never : `${N}@${number}`);
type IrmByName = { [E in IrmRow as E["name"]]: E };
type IrmAliasWords = {
  [A in keyof IrMeasuresAliases & string]: IrmWords<A, IrmByName[IrMeasuresAliases[A]["of"]]>;
}[keyof IrMeasuresAliases & string];

/** ir_measures' names (case-sensitive): `nDCG@10`, `AP`, `P(rel=2)@10`, `IPrec@0.5`, ... */
export type IrMeasuresName =
  | (IrmRow extends infer E ? (E extends { name: infer N extends string } ? IrmWords<N, E> : never) : never)
  | IrmAliasWords;

/** ranx's own names: `hits@10`, `ndcg_burges@10-l2`. */
export type RanxMeasureName = RanxName | `${RanxName}@${K}` | `${RanxName}-l${K}` | `${RanxName}@${K}-l${K}`;

/** Any measure name rankeval reads. */
export type MeasureName = CanonicalName | TrecEvalName | IrMeasuresName | RanxMeasureName | XgboostName | NdevalName;

/** Space-separated measure names (the first checked). */
export type MeasureSpec = MeasureName | `${MeasureName} ${string}`;

/** A literal must be a `MeasureSpec`; a wider type (`string`, `` `${string}@10` ``) is checked at run time. */
type CheckedItem<S> = [S] extends [MeasureSpec | Measure]
  ? S
  : Record<never, never> extends Record<S & string, 1> // no required key: S is not made of literals
    ? S
    : MeasureSpec | Measure;

/** A call's measures `M`, each a `CheckedItem`; `M` itself when valid. */
export type CheckedMeasures<M> = M extends readonly unknown[]
  ? { readonly [I in keyof M]: CheckedItem<M[I]> }
  : [M] extends [string]
    ? CheckedItem<M>
    : MeasureSpec;
