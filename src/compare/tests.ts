// The names of compare()'s tests, in the order reports list them (src/compare/compare.ts): apart from
// compare() itself so that the command line reads its arguments without loading the tests' code.
export type TestName = "t" | "wilcoxon" | "sign" | "randomization" | "bootstrap" | "tukey";
/** Every test, in the order reports list them. */
export const TESTS: readonly TestName[] = ["t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey"];
