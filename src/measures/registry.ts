/**
 * One row per family of measures, holding every fact about it. Adding a measure touches this table,
 * one kernel function (assembly/metrics/), one reference formula (src/reference/formulas-*.ts) and
 * their tests: the kernel's enum, depths and dispatch are generated from the rows
 * (scripts/kernel-families.mjs); test/registry.test.ts checks kernel against reference for every row.
 */
export interface Family {
  /** Canonical name, also the kernel's `Family` enum member (`kernelFamilyName`). */
  readonly name: string;
  /** Other lower-case spellings (`p@5`, `rr`); other tools' names resolve to that tool's measure instead. */
  readonly aliases: readonly string[];
  /** Whether a cutoff is required ("required"), optional, or meaningless ("none"). */
  readonly cutoff: "required" | "optional" | "none";
  /** Undefined without a relevant document (R = 0, or an ideal DCG of 0): `noRelevant` decides. */
  readonly needsRelevant: boolean;
  /** Named parameters with defaults, written `err(max=3)@20`. */
  readonly params?: Readonly<Record<string, number>>;
  /** The values a parameter may take, if not every finite number: `err`'s max grade, 1 to 30. */
  readonly ranges?: Readonly<Record<string, { from: number; to: number; integer?: boolean; what?: string }>>;
  /** The kernel's value for one query: an AssemblyScript expression over `k` (0: none), the parameters and `q`. */
  readonly kernel: string;
  /**
   * The kernel's prefix arrays it reads (assembly/ranking/prefix-sums.ts Depths), space-separated, each to the
   * cutoff (`rel@k`) or the whole ranking (`rel`); "" none; left out: every ranked label.
   */
  readonly reads?: string;
  /** Its value at cutoff k reads ranks 1..k only: the drill-down shows those (src/explain/explain.ts). */
  readonly topK?: boolean;
  /** Counts are summed across queries by trec_eval and compared exactly in tests. */
  readonly isCount?: boolean;
  /**
   * The conventions its value depends on, besides noRelevant, beyondList and depth: `gain`, `binary`
   * (the threshold), `orderFree` (not the tie order). They decide what its description names.
   */
  readonly gain?: boolean;
  readonly binary?: boolean;
  readonly orderFree?: boolean;
  /** ties "average" has a closed form for it in the kernel (assembly/ranking/prefix-sums.ts rankAverage). */
  readonly tieAverage?: boolean;
  /** Reads subtopic judgments (qid subtopic docno rel); a document's label is then its highest. */
  readonly diversity?: boolean;
}

/** A row as written: `aliases` ([]) and `needsRelevant` (false) may be left out. */
type Row = Omit<Family, "aliases" | "needsRelevant"> & Partial<Pick<Family, "aliases" | "needsRelevant">>;

/** A C/W/L row: the model named in upper case, its one parameter (if any) passed on. */
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
  // Other tools' average precision: the same sum over relevant ranks i <= k of rel(i)/i, divided
  // otherwise (src/measures/presets.ts gives each to its tool's preset's map@k).
  // LightGBM (map_metric.hpp CalMapAtK): by min(R, k, N); a cutoff past the list reads the list.
  {
    name: "map_lightgbm",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "mapLightgbm(k)",
    reads: "rel@k ap@k",
  },
  // XGBoost (rank_metric.cc EvalMAP): by the relevant documents in the whole ranked list (which a
  // depth cutting a tie makes depend on the order: no closed form for ties "average").
  {
    name: "map_xgboost",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    kernel: "mapXgboost(k)",
    reads: "rel ap@k",
  },
  // torchmetrics (retrieval/average_precision.py) and TF-Ranking (MeanAveragePrecisionMetric): by the
  // relevant documents in the top k, 0 when there is none.
  {
    name: "map_torchmetrics",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    kernel: "mapTorchmetrics(k)",
    reads: "rel@k ap@k",
  },
  // ptranking (adhoc_metric.py torch_ap_at_ks): by the sum of the top min(k, J) labels of the ideal ranking.
  {
    name: "map_ptranking",
    cutoff: "optional",
    needsRelevant: true,
    binary: true,
    tieAverage: true,
    kernel: "mapPtranking(k)",
    reads: "rel@k ap@k",
  },
  // ptranking's seed tutorial (tor_ap_at_ks): by the cutoff k itself (without one, by N), so 0 without a
  // relevant document and, unlike the others, only ranks 1..k matter.
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
  // ranx's hits: the number of relevant documents in the top k (the whole list without a cutoff).
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
  // ir_measures' Judged@k: the fraction of the top min(k, N) that have a judgment (any label).
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
  // trec_eval's all_trec measures, under its own names lower-cased (its own spellings are its names).
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
  // n: documents in the collection (trec_eval -N), read only by d's term.
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
  // trec_eval's experimental gain measures (G, ndcg_rel, Rndcg), with the gain option's gains.
  { name: "g", cutoff: "none", gain: true, kernel: "trecG()", reads: "label" },
  { name: "ndcg_rel", cutoff: "none", gain: true, kernel: "ndcgRel()", reads: "gain" },
  { name: "rndcg", cutoff: "none", needsRelevant: true, gain: true, binary: true, kernel: "rndcg()", reads: "gain" },
  // ir_measures' NumQ: 1 per query (ir_measures sums it: the number of queries).
  { name: "numq", cutoff: "none", isCount: true, orderFree: true, tieAverage: true, kernel: "1", reads: "" },
  // The C/W/L measures of cwl_eval (assembly/metrics/cwl.ts), over gains scaled from [min, max] to [0, 1]
  // (ir_measures' min_rel, max_rel); RBP's gains are binary (the relevance threshold), its depth 1000.
  cwl("sdcg", "required", {}),
  cwl("inst", "none", { t: 1 }),
  cwl("insq", "none", { t: 1 }),
  cwl("nerr8", "required", {}),
  cwl("nerr9", "required", {}),
  cwl("nerr10", "none", { p: 0.9 }),
  cwl("nerr11", "none", { t: 1 }),
  cwl("bpm", "required", { t: 1 }),
  { name: "rbp_cwl", cutoff: "none", params: { p: 0.8 }, binary: true, kernel: "cwl(CwlModel.RBP, k, p, 0, 1)" },
  // Compatibility (Clarke et al. 2021): RBO against the ideal ranking (assembly/metrics/compat.ts).
  { name: "compat", cutoff: "none", params: { p: 0.95, normalize: 1 }, kernel: "compat(p, normalize != 0)" },
  // ir_measures' Accuracy: the share of (relevant, non-relevant) retrieved pairs in order; NaN when one side is empty.
  { name: "accuracy", cutoff: "optional", binary: true, kernel: "accuracy(k)", reads: "label@k" },
  // torchmetrics' RetrievalFallOut: the share of the query's judged non-relevant documents in the top k, 1 for
  // a query with none (its empty_target_action's default, "pos"). Lower is better.
  {
    name: "fall_out",
    aliases: ["fallout"],
    cutoff: "optional",
    binary: true,
    kernel: "fallOut(k)",
    reads: "label@k",
    topK: true,
  },
  // Novelty and diversity over subtopic judgments, as TREC's ndeval (assembly/metrics/diversity.ts):
  // alpha (redundancy intolerance) and beta (patience), ndeval's defaults 0.5.
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

/** The table's literal type: the measure name types (src/names/name-types.ts) are made from it. */
export type FamilyTable = typeof TABLE;
/** A family's canonical name. */
export type FamilyName = FamilyTable[number]["name"];

/**
 * The kernel's enum member for a family: `r-precision` -> `R_PRECISION`; a name that starts with a
 * digit, not an identifier, gets a leading '_': `11pt_avg` -> `_11PT_AVG`.
 */
export function kernelFamilyName(f: Family): string {
  const name = f.name.toUpperCase().replace(/-/g, "_");
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

const byName = new Map<string, Family>();
for (const f of FAMILIES) {
  byName.set(f.name, f);
  for (const a of f.aliases) byName.set(a, f);
}

/** The family a canonical name or alias names, exactly (names are case-sensitive). */
export function findFamily(name: string): Family | undefined {
  return byName.get(name);
}

/** Every canonical name and alias, for "did you mean". */
export function canonicalNames(): string[] {
  return [...byName.keys()];
}
