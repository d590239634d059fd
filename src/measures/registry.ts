/**
 * One row per measure family, holding every fact about it; the kernel's enum, depths and dispatch are
 * generated from it (scripts/kernel-families.mjs). A new measure also needs a kernel function
 * (assembly/metrics/) and a reference formula (src/reference/formulas-*.ts).
 */
export interface Family {
  /** Canonical name; the kernel's enum member (`kernelFamilyName`). */
  readonly name: string;
  /** Other lower-case spellings (`p@5`, `rr`). */
  readonly aliases: readonly string[];
  readonly cutoff: "required" | "optional" | "none";
  /** Undefined without a relevant document (R = 0, or ideal DCG 0): `noRelevant` decides. */
  readonly needsRelevant: boolean;
  /** Named parameters' defaults (`err(max=3)@20`). */
  readonly params?: Readonly<Record<string, number>>;
  /** A parameter's range, if not every finite number. */
  readonly ranges?: Readonly<Record<string, { from: number; to: number; integer?: boolean; what?: string }>>;
  /** The kernel's per-query value: an AssemblyScript expression over `k` (0: none), the parameters and `q`. */
  readonly kernel: string;
  /** Prefix arrays it reads (prefix-sums.ts Depths) to the cutoff (`rel@k`) or all (`rel`); left out: every label. */
  readonly reads?: string;
  /** Its value at k reads ranks 1..k only (the drill-down shows those). */
  readonly topK?: boolean;
  /** A count: trec_eval sums it; tests compare it exactly. */
  readonly isCount?: boolean;
  /** Conventions its value depends on besides noRelevant, beyondList, depth: `gain`, `binary` (threshold), `orderFree` (not ties). */
  readonly gain?: boolean;
  readonly binary?: boolean;
  readonly orderFree?: boolean;
  /** ties "average" has a closed form in the kernel (prefix-sums.ts rankAverage). */
  readonly tieAverage?: boolean;
  /** Reads subtopic judgments; a document's label is its highest. */
  readonly diversity?: boolean;
}

/** A row as written (`aliases`, `needsRelevant` optional). */
type Row = Omit<Family, "aliases" | "needsRelevant"> & Partial<Pick<Family, "aliases" | "needsRelevant">>;

/** A C/W/L row (cwl_eval, assembly/metrics/cwl.ts): gains scaled from [min, max] (ir_measures' min_rel, max_rel). */
function cwl<const N extends string, const C extends Row["cutoff"], const P extends Record<string, number>>(
  name: N,
  cutoff: C,
  params: P,
) {
  const arg = Object.keys(params)[0] ?? "0";
  const kernel = `cwl(CwlModel.${name.toUpperCase()}, k, ${arg}, min, max)`;
  return { name, cutoff, params: { ...params, min: 0, max: 1 }, kernel };
}

const TABLE = [
  {
    name: "num_ret",
    aliases: ["numret"],
    cutoff: "none",
    isCount: true,
    orderFree: true,
    tieAverage: true,
    kernel: "numRet()",
    reads: "",
  },
  {
    name: "num_rel",
    aliases: ["numrel"],
    cutoff: "none",
    isCount: true,
    binary: true,
    orderFree: true,
    tieAverage: true,
    kernel: "numRel()",
    reads: "",
  },
  {
    name: "num_rel_ret",
    aliases: ["numrelret"],
    cutoff: "none",
    isCount: true,
    binary: true,
    orderFree: true,
    tieAverage: true,
    kernel: "numRelRet()",
    reads: "rel",
  },
  {
    name: "precision",
    aliases: ["p"],
    cutoff: "required",
    binary: true,
    tieAverage: true,
    kernel: "precision(k)",
    reads: "rel@k",
    topK: true,
  },
  {
    name: "recall",
    aliases: ["r"],
    cutoff: "required",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "recall(k)",
    reads: "rel@k",
    topK: true,
  },
  {
    name: "f1",
    aliases: ["f", "f1_score"],
    cutoff: "required",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "f1(k)",
    reads: "rel@k",
    topK: true,
  },
  {
    name: "map",
    aliases: ["ap"],
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "averagePrecision(k)",
    reads: "rel@k ap@k",
    topK: true,
  },
  // Other tools' AP: the sum over relevant ranks i <= k of rel(i)/i, divided otherwise (presets' map@k).
  // LightGBM (map_metric.hpp CalMapAtK): min(R, k, N).
  {
    name: "map_lightgbm",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "mapLightgbm(k)",
    reads: "rel@k ap@k",
  },
  // XGBoost (rank_metric.cc EvalMAP): relevant in the whole list (order-dependent under a depth: no ties "average").
  {
    name: "map_xgboost",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    kernel: "mapXgboost(k)",
    reads: "rel ap@k",
  },
  // torchmetrics, TF-Ranking (MeanAveragePrecisionMetric): relevant in the top k, 0 if none.
  {
    name: "map_torchmetrics",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    kernel: "mapTorchmetrics(k)",
    reads: "rel@k ap@k",
  },
  // ptranking (torch_ap_at_ks): the sum of the ideal ranking's top min(k, J) labels.
  {
    name: "map_ptranking",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "mapPtranking(k)",
    reads: "rel@k ap@k",
  },
  // ptranking's tutorial (tor_ap_at_ks): k (none: N); only ranks 1..k matter.
  {
    name: "map_over_k",
    cutoff: "optional",
    binary: true,
    tieAverage: true,
    kernel: "mapOverK(k)",
    reads: "rel@k ap@k",
    topK: true,
  },
  {
    name: "mrr",
    aliases: ["rr"],
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "reciprocalRank(k)",
    reads: "rel@k",
    topK: true,
  },
  {
    name: "dcg",
    aliases: ["dcg_cut"],
    cutoff: "optional",
    gain: true,
    tieAverage: true,
    kernel: "dcg(k)",
    reads: "gain@k",
    topK: true,
  },
  {
    name: "ndcg",
    cutoff: "optional",
    needsRelevant: true,
    gain: true,
    tieAverage: true,
    kernel: "ndcg(k)",
    reads: "gain@k ideal@k",
    topK: true,
  },
  {
    name: "err",
    cutoff: "optional",
    params: { max: 4 },
    kernel: "err(k, max)",
    reads: "label@k",
    topK: true,
    ranges: { max: { from: 1, to: 30, integer: true, what: "max grade" } },
  },
  {
    name: "r-precision",
    aliases: ["rprec", "r-prec", "r_precision", "rprecision"],
    cutoff: "none",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "rPrecision()",
    reads: "rel",
  },
  { name: "bpref", cutoff: "none", needsRelevant: true, binary: true, kernel: "bpref()" },
  {
    name: "hit_rate",
    aliases: ["hitrate", "hit"],
    cutoff: "required",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "hitRate(k)",
    reads: "rel@k",
    topK: true,
  },
  // ranx's hits: relevant documents in the top k.
  {
    name: "hits",
    cutoff: "optional",
    isCount: true,
    binary: true,
    tieAverage: true,
    kernel: "hits(k)",
    reads: "rel@k",
    topK: true,
  },
  // ir_measures' Judged@k: the judged share of the top min(k, N).
  { name: "judged", cutoff: "required", kernel: "judgedAt(k)", reads: "label@k", topK: true },
  {
    name: "inversions",
    aliases: ["discordant_pairs", "pairwise_difference"],
    cutoff: "none",
    needsRelevant: false,
    isCount: true,
    kernel: "inversions()",
  },
  { name: "kendall_tau", aliases: ["tau", "kendalltau"], cutoff: "none", orderFree: true, kernel: "kendallTau()" },
  { name: "mse", cutoff: "none", orderFree: true, kernel: "mse()" },
  // trec_eval's all_trec measures, lower-cased.
  {
    name: "relative_p",
    aliases: ["relative_precision"],
    cutoff: "required",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "relativeP(k)",
    reads: "rel@k",
    topK: true,
  },
  { name: "set_p", cutoff: "none", binary: true, orderFree: true, tieAverage: true, kernel: "setP()", reads: "rel" },
  {
    name: "set_relative_p",
    cutoff: "none",
    needsRelevant: true,
    binary: true,
    orderFree: true,
    tieAverage: true,
    kernel: "setRelativeP()",
    reads: "rel",
  },
  {
    name: "set_recall",
    cutoff: "none",
    needsRelevant: true,
    binary: true,
    orderFree: true,
    tieAverage: true,
    kernel: "setRecall()",
    reads: "rel",
  },
  {
    name: "set_map",
    cutoff: "none",
    needsRelevant: true,
    binary: true,
    orderFree: true,
    kernel: "setMap()",
    reads: "rel",
  },
  {
    name: "set_f",
    cutoff: "none",
    needsRelevant: true,
    params: { beta: 1 },
    binary: true,
    orderFree: true,
    kernel: "setF(beta)",
    reads: "rel",
  },
  {
    name: "num_nonrel_judged_ret",
    cutoff: "none",
    isCount: true,
    binary: true,
    orderFree: true,
    kernel: "numNonrelJudgedRet()",
  },
  { name: "unj", aliases: ["unjudged"], cutoff: "required", kernel: "unjudgedAt(k)", reads: "label@k", topK: true },
  {
    name: "iprec_at_recall",
    cutoff: "none",
    needsRelevant: true,
    params: { recall: 0 },
    binary: true,
    kernel: "iprecAtRecall(recall)",
    reads: "rel",
  },
  {
    name: "11pt_avg",
    aliases: ["11-pt_avg"],
    cutoff: "none",
    needsRelevant: true,
    binary: true,
    kernel: "elevenPointAverage()",
    reads: "rel",
  },
  {
    name: "rprec_mult",
    cutoff: "none",
    needsRelevant: true,
    params: { x: 1 },
    binary: true,
    tieAverage: true,
    kernel: "rPrecisionMult(x)",
    reads: "rel",
  },
  { name: "infap", cutoff: "none", needsRelevant: true, binary: true, kernel: "infAP()" },
  { name: "bing", cutoff: "none", needsRelevant: true, binary: true, kernel: "binG()" },
  { name: "rbp", cutoff: "none", params: { p: 0.9 }, gain: true, kernel: "rbp(p)" },
  { name: "rbp_resid", cutoff: "none", params: { p: 0.9 }, kernel: "rbpResidual(p)" },
  // n: the collection size (-N), read by d's term.
  {
    name: "utility",
    cutoff: "none",
    params: { a: 1, b: -1, c: 0, d: 0, n: 0 },
    binary: true,
    orderFree: true,
    tieAverage: true,
    kernel: "utility(a, b, c, d, n)",
    reads: "rel",
  },
  // trec_eval's experimental gain measures, with the gain option's gains.
  { name: "g", cutoff: "none", gain: true, kernel: "trecG()", reads: "label" },
  { name: "ndcg_rel", cutoff: "none", gain: true, kernel: "ndcgRel()", reads: "gain" },
  { name: "rndcg", cutoff: "none", needsRelevant: true, gain: true, binary: true, kernel: "rndcg()", reads: "gain" },
  // ir_measures' NumQ: 1 per query, summed.
  { name: "numq", cutoff: "none", isCount: true, orderFree: true, tieAverage: true, kernel: "1", reads: "" },
  // RBP's gains are binary (the threshold), its depth 1000.
  cwl("sdcg", "required", {}),
  cwl("inst", "none", { t: 1 }),
  cwl("insq", "none", { t: 1 }),
  cwl("nerr8", "required", {}),
  cwl("nerr9", "required", {}),
  cwl("nerr10", "none", { p: 0.9 }),
  cwl("nerr11", "none", { t: 1 }),
  cwl("bpm", "required", { t: 1 }),
  { name: "rbp_cwl", cutoff: "none", params: { p: 0.8 }, binary: true, kernel: "cwl(CwlModel.RBP, k, p, 0, 1)" },
  // Compatibility (Clarke et al. 2021): RBO against the ideal ranking.
  { name: "compat", cutoff: "none", params: { p: 0.95, normalize: 1 }, kernel: "compat(p, normalize != 0)" },
  // ir_measures' Accuracy: the share of (relevant, non-relevant) pairs in order; NaN if a side is empty.
  { name: "accuracy", cutoff: "optional", binary: true, kernel: "accuracy(k)", reads: "label@k" },
  // torchmetrics' RetrievalFallOut: the share of judged non-relevant in the top k; 1 if none ("pos"). Lower is better.
  {
    name: "fall_out",
    aliases: ["fallout"],
    cutoff: "optional",
    binary: true,
    kernel: "fallOut(k)",
    reads: "label@k",
    topK: true,
  },
  // ndeval's diversity measures: alpha (redundancy intolerance), beta (patience).
  {
    name: "alpha_dcg",
    cutoff: "optional",
    needsRelevant: true,
    params: { alpha: 0.5 },
    binary: true,
    diversity: true,
    kernel: "alphaDcg(q, k, alpha)",
    reads: "",
  },
  {
    name: "alpha_ndcg",
    cutoff: "optional",
    needsRelevant: true,
    params: { alpha: 0.5 },
    binary: true,
    diversity: true,
    kernel: "alphaNdcg(q, k, alpha)",
    reads: "",
  },
  {
    name: "err_ia",
    cutoff: "optional",
    needsRelevant: true,
    params: { alpha: 0.5 },
    binary: true,
    diversity: true,
    kernel: "errIa(q, k, alpha)",
    reads: "",
  },
  {
    name: "nerr_ia",
    cutoff: "optional",
    needsRelevant: true,
    params: { alpha: 0.5 },
    binary: true,
    diversity: true,
    kernel: "nerrIa(q, k, alpha)",
    reads: "",
  },
  {
    name: "nrbp",
    cutoff: "none",
    needsRelevant: true,
    params: { alpha: 0.5, beta: 0.5 },
    binary: true,
    diversity: true,
    kernel: "nrbpOf(q, alpha, beta)",
    reads: "",
  },
  {
    name: "nnrbp",
    cutoff: "none",
    needsRelevant: true,
    params: { alpha: 0.5, beta: 0.5 },
    binary: true,
    diversity: true,
    kernel: "nnrbpOf(q, alpha, beta)",
    reads: "",
  },
  {
    name: "map_ia",
    aliases: ["ap_ia"],
    cutoff: "none",
    needsRelevant: true,
    binary: true,
    diversity: true,
    kernel: "mapIaOf(q)",
    reads: "",
  },
  {
    name: "p_ia",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    diversity: true,
    kernel: "pIa(q, k)",
    reads: "",
  },
  {
    name: "strec",
    aliases: ["subtopic_recall"],
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    diversity: true,
    kernel: "strec(q, k)",
    reads: "",
  },
] as const satisfies readonly Row[];

export const FAMILIES: readonly Family[] = TABLE.map((r: Row) => ({
  ...r,
  aliases: r.aliases ?? [],
  needsRelevant: r.needsRelevant ?? false,
}));

/** For the measure name types. */
export type FamilyTable = typeof TABLE;
export type FamilyName = FamilyTable[number]["name"];

/** The kernel's enum member: `r-precision` -> `R_PRECISION`, `11pt_avg` -> `_11PT_AVG`. */
export function kernelFamilyName(f: Family): string {
  const name = f.name.toUpperCase().replace(/-/g, "_");
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

const byName = new Map<string, Family>();
for (const f of FAMILIES) {
  byName.set(f.name, f);
  for (const a of f.aliases) byName.set(a, f);
}

/** The family of a canonical name or alias (case-sensitive). */
export function findFamily(name: string): Family | undefined {
  return byName.get(name);
}

/** For "did you mean". */
export function canonicalNames(): string[] {
  return [...byName.keys()];
}
