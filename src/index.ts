// Public API (browser-safe: no Node built-ins).
export { evaluate, evaluateRun, type Result, type Measures, type TieRange } from "./pipeline/evaluate.js";
export type { Rows, Qid } from "./pipeline/rows-by-query.js";
export type { Qrels, Run } from "./pipeline/join-memory.js";
export type { RunPrepared, RollupMethod } from "./pipeline/prepare-run.js";
export type { Measure, Tool, Aggregate } from "./measures/measure.js";
export { parseMeasures } from "./names/resolve.js";
export type {
  MeasureName,
  MeasureSpec,
  CheckedMeasures,
  CanonicalName,
  TrecEvalName,
  IrMeasuresName,
  RanxMeasureName,
} from "./names/name-types.js";
export type { XgboostName } from "./measures/xgboost.js";
export { FAMILIES, type Family } from "./measures/registry.js";
export {
  DEFAULT_OPTIONS,
  resolveOptions,
  describeOptions,
  type Options,
  type ResolvedOptions,
  type Ties,
} from "./measures/options.js";
export { PRESETS, PRESET_NAMES, type Preset, type PresetName } from "./measures/presets.js";
export { formatTable } from "./output/table.js";
export { RankevalError, InputError, type RankevalErrorCode } from "./errors/errors.js";

export {
  compare,
  compareAsync,
  TESTS,
  DEFAULT_COMPARE_OPTIONS,
  type TestName,
  type NamedResult,
  type CompareOptions,
  type Comparison,
  type PairComparison,
  type TestResult,
  type TestResults,
  type TestsAsked,
  type ResamplingPool,
} from "./compare/compare.js";
export { runResamplingJob, type ResamplingJob } from "./compare/resampling.js";
export { CORRECTIONS, type Correction } from "./compare/correct.js";
export {
  minimumDetectableDifference,
  noncentralTCdf,
  power,
  topicSetSize,
  type PowerOptions,
  type TargetOptions,
} from "./compare/power.js";
export {
  formatComparison,
  comparisonJson,
  formatP,
  markLegend,
  significance,
  COMPARISON_FORMATS,
  TEST_DESCRIPTIONS,
  type ComparisonFormat,
  type ComparisonFormatOptions,
} from "./output/comparison.js";
export { evaluateDiversity, joinDiversity, type SubtopicQrels, type DiversityJoin } from "./pipeline/join-subtopics.js";

export { rbo, DEFAULT_RBO_P, type RboOptions, type RboResult } from "./compare/rbo.js";
export { systemCorrelation, type SystemScores, type SystemCorrelation } from "./compare/correlation.js";

export {
  fuse,
  normalize,
  NORMS,
  METHOD_NAMES,
  type FuseOptions,
  type FusionParams,
  type NormName,
} from "./fusion/fuse.js";
export type { ScoredRun, Judgments } from "./fusion/run-shapes.js";
export { optimizeFusion, type OptimizeFusionOptions } from "./fusion/optimize.js";
export { LEARNED_METHODS, type LearnedMethod } from "./fusion/learned.js";
export {
  agreement,
  type Agreement,
  type AgreementOptions,
  type AgreementPairs,
  type Confusion,
  type KrippendorffAlpha,
  type QueryAgreement,
  type WhyNull,
} from "./judgments/agreement.js";
export {
  pool,
  formatPool,
  type Pool,
  type PoolOptions,
  type PoolMethod,
  type PooledQuery,
  type RunCoverage,
  type FormatPoolOptions,
} from "./judgments/pools.js";
export {
  fillHoles,
  type FillHolesOptions,
  type FilledJudgments,
  type RunHoles,
} from "./judgments/fill-holes.js";
export {
  qrelsStats,
  formatQrelsStats,
  type QrelsStats,
  type QrelsStatsOptions,
  type QueryQrelsStats,
  type LabelCount,
  type FormatQrelsStatsOptions,
} from "./judgments/qrels-stats.js";
export {
  qrelsCompare,
  type QrelsCompare,
  type QrelsCompareOptions,
  type QrelsCompareRun,
  type QrelsCompareMeasure,
} from "./judgments/qrels-compare.js";
