// Public API (browser-safe: nothing here imports Node built-ins).
export { evaluate, evaluateRun, type Result, type Measures, type TieRange } from "./pipeline/evaluate.js";
export type { Rows, Qid } from "./pipeline/group.js";
export type { Qrels, Run } from "./pipeline/join.js";
export type { Measure, Tool, Aggregate } from "./measures/measure.js";
export { parseMeasures } from "./measures/resolve.js";
export type { MeasureName, MeasureSpec, CanonicalName, TrecEvalName, IrMeasuresName, RanxMeasureName } from "./measures/name-types.js";
export type { XgboostName } from "./measures/xgboost.js";
export { FAMILIES, type Family } from "./measures/registry.js";
export { DEFAULT_OPTIONS, resolveOptions, describeOptions, type Options, type ResolvedOptions, type Ties } from "./options.js";
export { PRESETS, PRESET_NAMES, type Preset, type PresetName } from "./presets.js";
export { formatTable } from "./output/table.js";
export { RankevalError, InputError, type RankevalErrorCode } from "./errors.js";
export * from "./compare/index.js";
export { evaluateDiversity, joinDiversity, type SubtopicQrels, type DiversityJoin } from "./diversity.js";
