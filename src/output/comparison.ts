// A comparison's reports (text, Markdown, LaTeX, CSV, JSON): one writer for the CLI and the page.
import { topicSetSize } from "../compare/power.js";
import { badInput, BOOLEAN, checkOptions, oneOf, RankevalError, shown } from "../errors/errors.js";
import { csvField } from "./csv.js";
import type { Comparison, PairComparison, TestName } from "../compare/compare.js";
import { TESTS } from "../compare/tests.js";
import type { GateVerdict } from "../compare/gate.js";
import { escapeMarkup } from "./escape.js";
import { alignedLines } from "./table.js";
import { systemCorrelation } from "../compare/correlation.js";
import { fixed, signed } from "../trec/format.js";

export type ComparisonFormat = "table" | "markdown" | "latex" | "csv" | "json";
export const COMPARISON_FORMATS: readonly ComparisonFormat[] = ["table", "markdown", "latex", "csv", "json"];

export interface ComparisonFormatOptions {
  /** The test whose significance LaTeX's and the side-by-side table's marks show. @default the comparison's first test */
  markTest?: TestName;
  /**
   * table and markdown: first the runs' means side by side, marked where significant by `markTest` (`+`,
   * `-`; with every pair compared, the letters of the runs beaten). @default false
   */
  sideBySide?: boolean;
}

/** A comparison as text in `format`; every format but JSON ends with a newline too. */
export function formatComparison(
  c: Comparison,
  format: ComparisonFormat,
  options: ComparisonFormatOptions = {},
): string {
  checkComparison(c);
  if (!COMPARISON_FORMATS.includes(format))
    throw new RankevalError("bad-option", `format must be ${oneOf(COMPARISON_FORMATS).is}, not ${shown(format)}`);
  checkOptions(options, { markTest: oneOf(TESTS), sideBySide: BOOLEAN }, "formatComparison");
  const markTest = options.markTest ?? c.settings.tests[0];
  if (!c.settings.tests.includes(markTest))
    throw new RankevalError(
      "bad-option",
      `markTest ${shown(markTest)} is not one of the comparison's tests (${c.settings.tests.join(", ")})`,
    );
  switch (format) {
    case "table":
    case "markdown": {
      const md = format === "markdown";
      return (options.sideBySide ? sideBySide(c, markTest, md) : "") + textTable(c, md);
    }
    case "latex":
      return latex(c, markTest);
    case "csv":
      return csv(c);
    case "json":
      return JSON.stringify(comparisonJson(c), null, 2) + "\n";
  }
}

function checkComparison(c: unknown): asserts c is Comparison {
  const x = c as Partial<Comparison> | null;
  if (
    x === null ||
    typeof x !== "object" ||
    !Array.isArray(x.comparisons) ||
    typeof x.settings !== "object" ||
    x.settings === null ||
    !Array.isArray(x.settings.tests)
  )
    throw badInput(`the comparison must be what compare() returned, not ${shown(c)}`);
}

/** What each test is, for the reports' notes. */
export const TEST_DESCRIPTIONS: Readonly<Record<TestName, string>> = {
  t: "paired Student's t",
  wilcoxon: "Wilcoxon signed-rank",
  sign: "sign test (exact binomial)",
  randomization: "paired randomization (sign flips)",
  bootstrap: "paired bootstrap (shifted, Sakai 2006)",
  tukey: "randomised Tukey HSD over all runs (Carterette 2012)",
};

type JsonNumber = number | null;
const jsonNumber = (x: number): JsonNumber => (Number.isFinite(x) ? x : null);
const jsonPair = (x: readonly [number, number]) => [jsonNumber(x[0]), jsonNumber(x[1])];

/** The JSON the CLI prints; numbers that are not finite (NaN: no value) are null. */
export function comparisonJson(c: Comparison) {
  checkComparison(c);
  return {
    conventions: c.conventions,
    measures: c.measures,
    runs: c.runs,
    comparisons: c.comparisons.map((x) => ({
      measure: x.measure,
      baseline: x.baseline,
      run: x.run,
      n: x.n,
      baselineMean: jsonNumber(x.baselineMean),
      runMean: jsonNumber(x.runMean),
      difference: jsonNumber(x.difference),
      ci95: jsonPair(x.ci95),
      relative: jsonNumber(x.relative),
      effectSize: jsonNumber(x.effectSize),
      minimumDetectable: jsonNumber(x.minimumDetectable),
      wins: x.wins,
      ties: x.ties,
      losses: x.losses,
      tests: Object.fromEntries(
        c.settings.tests.map((t) => {
          const r = x.tests[t]!;
          const entry: Record<string, unknown> = {
            statistic: jsonNumber(r.statistic),
            p: jsonNumber(r.p),
            pAdjusted: jsonNumber(r.pAdjusted),
          };
          if (r.ci95) entry.ci95 = jsonPair(r.ci95);
          return [t, entry];
        }),
      ),
      lost: { baseline: x.lost.baseline, run: x.lost.run },
    })),
  };
}

export const PAIR_HEADER = ["n", "base mean", "run mean", "diff", "95% CI", "rel", "d_z", "MDD", "W/T/L"];

export const pairCells = (x: PairComparison): string[] => [
  String(x.n),
  fixed(x.baselineMean),
  fixed(x.runMean),
  signed(x.difference, 4),
  `[${fixed(x.ci95[0])}, ${fixed(x.ci95[1])}]`,
  Number.isNaN(x.relative) ? "NaN" : `${signed(x.relative, 1)}%`,
  fixed(x.effectSize, 2),
  fixed(x.minimumDetectable),
  `${x.wins}/${x.ties}/${x.losses}`,
];

/** A p-value: 4 decimals, or 2 significant digits below 0.0001. */
export function formatP(p: number): string {
  if (typeof p !== "number") throw new RankevalError("bad-option", `formatP: p must be a number, not ${shown(p)}`);
  return Number.isNaN(p) || p >= 1e-4 ? fixed(p, 4) : p.toExponential(1);
}

export function testCell(x: PairComparison, t: TestName): string {
  const r = x.tests[t]!;
  return `${formatP(r.pAdjusted)}${r.significant ? "*" : ""}`;
}

/** Whether `x` is significant by `test` (adjusted p < alpha), and which way. */
export function significance(x: PairComparison, test: TestName): "higher" | "lower" | null {
  if (x === null || typeof x !== "object" || typeof x.tests !== "object" || x.tests === null)
    throw badInput(`significance: the pair must be one of compare()'s comparisons, not ${shown(x)}`);
  if (!x.tests[test]?.significant || x.runMean === x.baselineMean) return null;
  return x.runMean > x.baselineMean ? "higher" : "lower";
}

export const CORRECTION_NAMES = { holm: "Holm", bonferroni: "Bonferroni", bh: "Benjamini-Hochberg" };

/** What makes a comparison significant by `test`, in words: "Holm, adjusted p < 0.05". */
function significantWhen(c: Comparison, test: TestName): string {
  const { correction, alpha } = c.settings;
  if (test === "tukey") return `HSD-adjusted p < ${alpha}`;
  if (correction === "none") return `no correction, p < ${alpha}`;
  return `${CORRECTION_NAMES[correction]}, adjusted p < ${alpha}`;
}

/** What the side-by-side table's marks (or letters, with every pair compared) say. */
export function markLegend(c: Comparison, markTest: TestName): string {
  checkComparison(c);
  if (!TESTS.includes(markTest))
    throw new RankevalError("bad-option", `markTest must be ${oneOf(TESTS).is}, not ${shown(markTest)}`);
  const test = `${markTest} = ${TEST_DESCRIPTIONS[markTest]}, two-sided, ${significantWhen(c, markTest)}`;
  return c.baseline === null
    ? `a, b, ...: the runs (by letter) that this run is significantly higher than (${test})`
    : `+ / -: significantly higher / lower than the baseline, ${c.baseline} (${test})`;
}

/** Each run's marks by measure: with `letters`, the letters of the runs it is significantly above; else + or -. */
function marksOf(c: Comparison, markTest: TestName, letters: boolean) {
  const marks = new Map<string, string[]>();
  const mark = (run: string, measure: string, m: string) => {
    const key = `${run}\0${measure}`;
    marks.set(key, [...(marks.get(key) ?? []), m]);
  };
  for (const x of c.comparisons) {
    const s = significance(x, markTest);
    if (s === null) continue;
    if (!letters) mark(x.run, x.measure, s === "higher" ? "+" : "-");
    else {
      const [winner, loser] = s === "higher" ? [x.run, x.baseline] : [x.baseline, x.run];
      mark(winner, x.measure, letter(c.runs.indexOf(loser)));
    }
  }
  return (run: string, measure: string) =>
    (marks.get(`${run}\0${measure}`) ?? []).sort((a, b) => a.length - b.length || a.localeCompare(b));
}

function markdownTable(header: readonly string[], align: readonly string[], rows: readonly (readonly string[])[]) {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  return [
    `| ${header.map(cell).join(" | ")} |`,
    `|${align.join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

function sideBySide(c: Comparison, markTest: TestName, markdown: boolean): string {
  const every = c.baseline === null;
  const marks = marksOf(c, markTest, every);
  const markOf = (run: string, measure: string) => marks(run, measure).join(",");
  const header = [
    "measure",
    ...c.runs.map((r, i) => (every ? `(${letter(i)}) ${r}` : r === c.baseline ? `${r} (baseline)` : r)),
  ];
  const values = c.measures.map((m) => c.runs.map((r) => ({ value: fixed(c.means[r][m]), mark: markOf(r, m) })));
  const legend = [
    markLegend(c, markTest),
    "each run's mean over all its queries, as its evaluation prints it; the comparisons below pair the queries both runs have a value for",
    pairedLine(c),
  ];
  if (markdown) {
    const rows = c.measures.map((m, i) => [m, ...values[i].map((v) => (v.mark ? `${v.value} ${v.mark}` : v.value))]);
    return [
      ...markdownTable(header, ["---", ...c.runs.map(() => "---:")], rows),
      "",
      ...legend.map((l, i) => (i < legend.length - 1 ? `${l}  ` : l)),
      "",
      "",
    ].join("\n");
  }
  const markWidth = c.runs.map((_, r) => Math.max(0, ...values.map((row) => row[r].mark.length)));
  const cells = values.map((row) =>
    row.map((v, r) => (markWidth[r] ? `${v.value} ${v.mark.padEnd(markWidth[r])}` : v.value)),
  );
  const rows = c.measures.map((m, k) => [m, ...cells[k]]);
  return [...alignedLines([header, ...rows], 1), "", ...legend, "", ""].join("\n");
}

function pairedLine(c: Comparison): string {
  const ns = c.comparisons.map((x) => x.n);
  const lo = Math.min(...ns);
  const hi = Math.max(...ns);
  const n = lo === hi ? `${lo} in every comparison` : `${lo} to ${hi}`;
  const lost = c.comparisons.some((x) => x.lost.baseline || x.lost.run);
  return `n (queries paired): ${n}; ${lost ? "the notes below say how many queries each run lost to the pairing" : "no run lost a query to the pairing"}`;
}

function notes(c: Comparison): string[] {
  const { settings } = c;
  const perMeasure = c.comparisons.length / Math.max(1, c.measures.length);
  const resampled = settings.tests.some((t) => t === "randomization" || t === "bootstrap" || t === "tukey");
  const lines = [
    `tests (two-sided): ${settings.tests.map((t) => `${t} = ${TEST_DESCRIPTIONS[t]}`).join("; ")}${resampled ? `; B = ${settings.iterations}, seed ${settings.seed}` : ""}`,
    `${settings.correction === "none" ? "p not adjusted for multiple comparisons" : `p adjusted: ${settings.correction}, per measure over ${perMeasure} comparison${perMeasure === 1 ? "" : "s"}`}${settings.tests.includes("tukey") ? " (tukey: already adjusted for every pair)" : ""}; * = ${settings.correction === "none" ? "p" : "adjusted p"} < ${settings.alpha}`,
    "n: queries both runs have a value for; diff = run - baseline with its 95% t interval; d_z = mean(diff) / sd(diff); W/T/L = the run's wins, ties, losses",
    `MDD: the smallest difference the paired t-test at ${settings.alpha} finds significant 80% of the time over these n queries, with this sd(diff)`,
  ];
  // Measures losing the same queries of a pair share a line.
  const lost = new Map<string, { x: PairComparison; measures: string[] }>();
  for (const x of c.comparisons) {
    if (!x.lost.baseline && !x.lost.run) continue;
    const key = JSON.stringify([x.baseline, x.run, x.lost.baseline, x.lost.run]);
    const group = lost.get(key);
    if (group) group.measures.push(x.measure);
    else lost.set(key, { x, measures: [x.measure] });
  }
  for (const { x, measures } of lost.values()) {
    const which = measures.length === c.measures.length && measures.length > 1 ? "every measure" : measures.join(", ");
    lines.push(
      `${which}, ${x.run} vs ${x.baseline}: queries left out, with a value in ${x.baseline} only: ${x.lost.baseline}, in ${x.run} only: ${x.lost.run}`,
    );
  }
  lines.push(`conventions: ${c.conventions}`);
  return lines;
}

/** The comparison table's header and rows, a pair a row; `testHeader` a test's column name. */
export function pairRows(c: Comparison, testHeader = (t: TestName): string => t) {
  const tests = c.settings.tests;
  return {
    header: ["measure", "baseline", "run", ...PAIR_HEADER, ...tests.map(testHeader)],
    rows: c.comparisons.map((x) => [
      x.measure,
      x.baseline,
      x.run,
      ...pairCells(x),
      ...tests.map((t) => testCell(x, t)),
    ]),
  };
}

function textTable(c: Comparison, markdown: boolean): string {
  const { header, rows } = pairRows(c);
  if (markdown) {
    const lines = [
      ...markdownTable(
        header,
        header.map((_, i) => (i >= 3 ? "---:" : "---")),
        rows,
      ),
      "",
      ...notes(c).map((n) => `${n}  `),
    ];
    return lines.join("\n").replace(/ {2}$/, "") + "\n";
  }
  return [...alignedLines([header, ...rows], 3), "", ...notes(c)].join("\n") + "\n";
}

const LATEX_SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
};
const latexEscape = (s: string) => s.replace(/[\\&%$#_{}~^]/g, (ch) => LATEX_SPECIAL[ch]);

/** Run i's letter: a..z, then aa, ab, ... */
function letter(i: number): string {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(97 + ((n - 1) % 26)) + s;
  return s;
}

/** A booktabs table: runs down, measures across. */
function latex(c: Comparison, markTest: TestName): string {
  const marks = marksOf(c, markTest, true);
  const cell = (run: string, measure: string) => {
    const letters = marks(run, measure);
    return `${fixed(c.means[run][measure])}${letters.length ? `$^{${letters.join(",")}}$` : ""}`;
  };
  const against = c.baseline === null ? "every other run" : `the baseline (${c.baseline})`;
  const lines = [
    `% rankeval: each run's mean; a superscript names the runs it is significantly better than`,
    `% (${TEST_DESCRIPTIONS[markTest]}, two-sided, ${significantWhen(c, markTest)}; compared with ${against}).`,
    `% Conventions: ${c.conventions}`,
    `\\begin{tabular}{ll${"r".repeat(c.measures.length)}}`,
    "\\toprule",
    ` & Run & ${c.measures.map(latexEscape).join(" & ")} \\\\`,
    "\\midrule",
    ...c.runs.map(
      (run, i) => `(${letter(i)}) & ${latexEscape(run)} & ${c.measures.map((m) => cell(run, m)).join(" & ")} \\\\`,
    ),
    "\\bottomrule",
    "\\end{tabular}",
  ];
  return lines.join("\n") + "\n";
}

const csvNumber = (x: number) => (Number.isFinite(x) ? String(x) : "");

const CSV_COLUMNS: readonly (readonly [string, (x: PairComparison) => string])[] = [
  ["measure", (x) => csvField(x.measure)],
  ["baseline", (x) => csvField(x.baseline)],
  ["run", (x) => csvField(x.run)],
  ["n", (x) => String(x.n)],
  ["lost_baseline", (x) => String(x.lost.baseline)],
  ["lost_run", (x) => String(x.lost.run)],
  ["baseline_mean", (x) => csvNumber(x.baselineMean)],
  ["run_mean", (x) => csvNumber(x.runMean)],
  ["difference", (x) => csvNumber(x.difference)],
  ["ci95_low", (x) => csvNumber(x.ci95[0])],
  ["ci95_high", (x) => csvNumber(x.ci95[1])],
  ["relative_percent", (x) => csvNumber(x.relative)],
  ["effect_size", (x) => csvNumber(x.effectSize)],
  ["wins", (x) => String(x.wins)],
  ["ties", (x) => String(x.ties)],
  ["losses", (x) => String(x.losses)],
  ["minimum_detectable", (x) => csvNumber(x.minimumDetectable)],
];

function csv(c: Comparison): string {
  const tests = c.settings.tests;
  const header = [
    ...CSV_COLUMNS.map(([name]) => name),
    ...tests.flatMap((t) => [
      `${t}_statistic`,
      `${t}_p`,
      `${t}_p_adjusted`,
      ...(t === "bootstrap" ? ["bootstrap_ci95_low", "bootstrap_ci95_high"] : []),
    ]),
  ];
  const rows = c.comparisons.map((x) => [
    ...CSV_COLUMNS.map(([, cell]) => cell(x)),
    ...tests.flatMap((t) => {
      const r = x.tests[t]!;
      return [
        csvNumber(r.statistic),
        csvNumber(r.p),
        csvNumber(r.pAdjusted),
        ...(r.ci95 ? [csvNumber(r.ci95[0]), csvNumber(r.ci95[1])] : []),
      ];
    }),
  ]);
  return [header, ...rows].map((r) => r.join(",")).join("\n") + "\n";
}

/** A gate's verdicts as Markdown for a pull request's comment. */
export function gateMarkdown(c: Comparison, verdicts: readonly GateVerdict[]): string {
  const failed = verdicts.filter((v) => v.failed);
  const correction = c.settings.correction;
  const lines = [
    `## rankeval gate: ${failed.length ? `FAIL (${failed.length} of ${verdicts.length})` : `pass (${verdicts.length})`}`,
    "",
    `A run fails a gate where run - baseline is below its bound and the drop is significant (${verdicts[0]?.test ?? "t"}, ${correction === "none" ? "no correction" : correction}, p < ${c.settings.alpha}).`,
    "",
    "| gate | run | baseline | baseline mean | run mean | difference (95% CI) | p | |",
    "|---|---|---|---:|---:|---:|---:|---|",
  ];
  for (const v of verdicts) {
    const x = v.comparison;
    const verdict = v.failed ? "**fail**" : x.difference < v.gate.bound ? "pass (not significant)" : "pass";
    lines.push(
      `| \`${v.gate.text}\` | ${x.run} | ${x.baseline} | ${fixed(x.baselineMean)} | ${fixed(x.runMean)} | ${signed(x.difference, 4)} [${fixed(x.ci95[0])}, ${fixed(x.ci95[1])}] | ${formatP(v.p)} | ${verdict} |`,
    );
  }
  for (const v of failed) {
    const lost = v.losses.map((l) => `${l.qid} (${fixed(l.difference)})`).join(", ");
    lines.push("", `${v.comparison.run} on ${v.comparison.measure}: the queries lost most: ${lost || "none"}`);
  }
  return `${lines.join("\n")}\n`;
}

/** A gate's verdicts as JUnit XML: a test case a gate and run. */
export function gateJunit(verdicts: readonly GateVerdict[]): string {
  const failed = verdicts.filter((v) => v.failed).length;
  const cases = verdicts.map((v) => {
    const x = v.comparison;
    const name = escapeMarkup(`${v.gate.text}: ${x.run} against ${x.baseline}`);
    if (!v.failed) return `  <testcase classname="rankeval.gate" name="${name}"/>`;
    const message = escapeMarkup(
      `${x.measure}: ${signed(x.difference, 4)} (${fixed(x.baselineMean)} -> ${fixed(x.runMean)}), below ${v.gate.bound}, p = ${formatP(v.p)} (${v.test})`,
    );
    return `  <testcase classname="rankeval.gate" name="${name}">\n    <failure message="${message}"/>\n  </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="rankeval gate" tests="${verdicts.length}" failures="${failed}">\n${cases.join("\n")}\n</testsuite>\n`;
}

/** --detect DELTA: each pair's fewest queries for the paired t-test to find DELTA significant with probability `want`. */
export function queriesNeeded(c: Comparison, delta: number, want: number): string {
  const { alpha } = c.settings;
  const rows = c.comparisons.map((x) => {
    const needed = Number.isNaN(x.minimumDetectable)
      ? "no estimate"
      : String(topicSetSize({ sd: x.sd, delta, alpha, power: want }));
    return [x.measure, x.baseline, x.run, String(x.n), fixed(x.sd), needed];
  });
  const header = ["measure", "baseline", "run", "n", "sd(diff)", "queries needed"];
  return [
    `Queries needed to find a difference of ${delta} significant ${+(want * 100).toPrecision(10)}% of the time (paired t-test, two-sided, alpha ${alpha}), from each pair's sd(diff) over these n queries:`,
    ...alignedLines([header, ...rows], 3),
    "",
  ].join("\n");
}

/** How two measures order a comparison's runs (--correlation). */
interface MeasureCorrelation {
  readonly measures: readonly [string, string];
  readonly tau: number;
  /** With the first measure the reference, then the second. */
  readonly tauAP: readonly [number, number];
}

function measureCorrelations(c: Comparison): MeasureCorrelation[] {
  checkComparison(c);
  const out: MeasureCorrelation[] = [];
  const scores = (m: string) => Object.fromEntries(c.runs.map((r) => [r, c.means[r][m]]));
  for (let i = 0; i < c.measures.length; i++) {
    for (let j = i + 1; j < c.measures.length; j++) {
      const [a, b] = [scores(c.measures[i]), scores(c.measures[j])];
      // A NaN mean (--no-relevant nan) orders nothing.
      const ordered = [a, b].every((s) => Object.values(s).every(Number.isFinite));
      const ab = ordered ? systemCorrelation(a, b) : { tau: NaN, tauAP: NaN };
      const ba = ordered ? systemCorrelation(b, a).tauAP : NaN;
      out.push({ measures: [c.measures[i], c.measures[j]], tau: ab.tau, tauAP: [ab.tauAP, ba] });
    }
  }
  return out;
}

/** `text`, the comparison in `format`, followed by how each pair of measures orders the runs. */
export function withMeasureCorrelations(c: Comparison, format: "table" | "markdown" | "json", text: string): string {
  const pairs = measureCorrelations(c);
  if (format === "json") {
    const correlations = pairs.map((x) => ({
      measures: x.measures,
      tau: jsonNumber(x.tau),
      tauAP: { [x.measures[0]]: jsonNumber(x.tauAP[0]), [x.measures[1]]: jsonNumber(x.tauAP[1]) },
    }));
    return `${JSON.stringify({ ...comparisonJson(c), correlations }, null, 2)}\n`;
  }
  const header = ["measure A", "measure B", "tau_b", "tau_AP (A ref)", "tau_AP (B ref)"];
  const rows = pairs.map((x) => [...x.measures, fixed(x.tau), fixed(x.tauAP[0]), fixed(x.tauAP[1])]);
  const note =
    `How the measures order the ${c.runs.length} runs by their means: Kendall's tau_b, and tau_AP (Yilmaz et al. ` +
    "2008: swaps near the top weigh more) with measure A's order the reference, then B's; NaN where a reference ties runs";
  if (format === "markdown")
    return `${text}\n${markdownTable(header, ["---", "---", "---:", "---:", "---:"], rows).join("\n")}\n\n${note}\n`;
  return `${text}\n${alignedLines([header, ...rows], 2).join("\n")}\n\n${note}\n`;
}
