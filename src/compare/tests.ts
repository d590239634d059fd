// Apart from compare.ts: the command line reads its arguments without loading the tests.
export type TestName = "t" | "wilcoxon" | "sign" | "randomization" | "bootstrap" | "tukey";
/** In the order reports list them. */
export const TESTS: readonly TestName[] = ["t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey"];
