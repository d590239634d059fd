// Comparing runs: paired significance tests, effect sizes, corrections, and the reports of them.
export {
  compare, compareAsync, TESTS, DEFAULT_COMPARE_OPTIONS,
  type TestName, type NamedResult, type CompareOptions, type Comparison, type PairComparison, type TestResult, type ResamplingPool,
} from "./compare.js";
export { runResamplingJob, type ResamplingJob } from "./resampling.js";
export { CORRECTIONS, type Correction } from "./correct.js";
export { formatComparison, comparisonJson, formatP, markLegend, significance, COMPARISON_FORMATS, TEST_DESCRIPTIONS, type ComparisonFormat, type ComparisonFormatOptions } from "./comparison-formats.js";
