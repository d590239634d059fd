// The page: hands the files chosen or dropped to the worker and shows what it reports. Nothing is uploaded.
import type { TestName } from "../src/compare/compare.js";
import type { Correction } from "../src/compare/correct.js";
import { formatP, markLegend, PAIR_HEADER, pairCells, significance, testCell } from "../src/output/comparison.js";
import { decideFormat, isTrecLine, NUMERIC, readFirstLines, roleOfHeader } from "../src/input/formats.js";
import { RESULT_STATUS } from "../src/io/column-names.js";
import { nameColumn, pairNotes } from "../src/output/html/data.js";
import { printValue, tableValue } from "../src/app/value-print.js";
import { intervalText } from "../src/output/table.js";
import { differenceFigure, histogramFigure, sortRows } from "./charts.js";
import { changesLists, PageDrilldowns, type PageRun } from "./drilldown.js";
import { h, type Sort, sortableHeader } from "./explain-view.js";
import { precisionRecallFigure } from "./pr-chart.js";
import { startJudgments } from "./judgments-view.js";
import { gunzip, isGzip } from "./read-file.js";
import type { CompareSettings, FuseChoice, Job, Parallel, Report, Settings } from "./protocol.js";
import type { NormName } from "../src/fusion/fuse.js";
import { keepWorkerScript, startWorker } from "./worker-script.js";
import { onDrop } from "./drop.js";
// The workers' script as text (vite.config.ts's workerScript), started from a blob URL: vite.config.ts says why.
import WORKER_SCRIPT from "virtual:rankeval-worker-script";

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
const form = $<HTMLFormElement>("#inputs");
const input = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const progressList = $("#progress");
const cancelButton = $("#cancel");
const statusText = $("#status-text");
const errorBox = $("#error");
const warnings = $("#warnings");
const results = $("#results");
const conventions = $("#conventions");
const settingsForm = $<HTMLFormElement>("#settings");
const downloads = $("#downloads");
const chartsSection = $("#charts-section");
const chartMeasure = $<HTMLSelectElement>("#chart-measure");
const histRun = $<HTMLSelectElement>("#hist-run");
const diffA = $<HTMLSelectElement>("#diff-a");
const diffB = $<HTMLSelectElement>("#diff-b");
const pqSection = $("#perquery-section");
const pqRuns = $<HTMLSelectElement>("#pq-runs");
const pqFilter = $<HTMLInputElement>("#pq-filter");
const pqNote = $("#pq-note");
const pqTable = $("#perquery");
const compareSection = $("#compare-section");
const compareForm = $<HTMLFormElement>("#compare-form");
const baselineSelect = compareForm.querySelector<HTMLSelectElement>('select[name="baseline"]')!;
const compareStatus = $("#compare-status");
const comparisonTable = $("#comparison");
const compareNotes = $("#compare-notes");
const compareLegend = $("#compare-legend");
const compareDownloads = $("#compare-downloads");
const drill = new PageDrilldowns(
  (job) => (worker ? (worker.postMessage(job), true) : false),
  $("#drilldown-section"),
  $("#drilldown"),
  $("#drilldown-status"),
);

/** `?name=N`: tests' and benchmarks' hooks. */
const param = (name: string) => {
  const v = new URLSearchParams(location.search).get(name) ?? "";
  return /^\d+$/.test(v) ? Number(v) : undefined;
};
/** Run rows the worker keeps for new settings (0: none). */
const KEEP_ROWS = param("keep-rows");
const PARALLEL: Parallel = { workers: param("workers"), minBytes: param("partition-bytes") };

/** Per-query rows shown at most (a small DOM). */
const MAX_ROWS = 200;

/** -m names (none: the defaults). */
const PRESETS: Record<string, string[]> = {
  default: [],
  all_trec: ["all_trec"],
  ltr: ["ndcg@1,3,5,10", "map", "mrr", "precision@10", "recall@100"],
  ir_measures: ["nDCG@10", "AP", "RR@10", "P@10", "R@1000", "Judged@10", "ERR@20", "RBP(rel=1)", "Compat"],
  diversity: ["ndeval"],
};

function settings(): Settings {
  const field = (name: string) =>
    (settingsForm.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value.trim();
  const preset = field("preset");
  const measures = preset === "custom" ? field("measures").split(/\s+/).filter(Boolean) : (PRESETS[preset] ?? []);
  const threshold = field("threshold");
  return {
    measures,
    conventions: {
      gain: field("gain") || undefined,
      noRelevant: field("noRelevant") || undefined,
      beyondList: field("beyondList") || undefined,
      ties: field("ties") || undefined,
      threshold: threshold === "" ? undefined : Number(threshold),
      preset: field("conventionPreset") || undefined,
    },
    tieRange: (settingsForm.elements.namedItem("tieRange") as HTMLInputElement).checked,
  };
}

function fuseChoice(): FuseChoice | undefined {
  const field = (name: string) => (form.elements.namedItem(name) as HTMLSelectElement).value;
  const method = field("fuse");
  if (method === "") return undefined;
  const norm = field("fuseNorm");
  return { method, norm: norm === "none" ? null : (norm as NormName) };
}

/** The user's baseline (null: the first run), kept while the picker is empty. */
let chosenBaseline: string | null = null;

function compareSettings(): CompareSettings {
  const field = (name: string) =>
    (compareForm.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value.trim();
  const alpha = Number(field("alpha"));
  return {
    baseline: chosenBaseline,
    test: (field("test") || "t") as TestName,
    correction: (field("correction") || null) as Correction | null,
    // compare() refuses what the field allows out of (0, 1).
    alpha: alpha > 0 && alpha < 1 ? alpha : 0.05,
  };
}

const workerScript = new Blob([WORKER_SCRIPT], { type: "text/javascript" });
keepWorkerScript(workerScript);

/** A page worker, given its script for the workers it starts. */
function newPageWorker(): Worker {
  const w = startWorker("page");
  w.postMessage({ kind: "script", script: workerScript } satisfies Job);
  return w;
}

let worker: Worker | null = null;
/** Whether the worker kept the rows for new settings. */
let kept = false;
let measures: string[] = [];
let runs: PageRun[] = [];
let files: { json: string; csv: string; trec: string | null } | null = null;
/** YAML; null until every input is hashed. */
let manifest: string | null = null;
const manifestButton = downloads.querySelector<HTMLButtonElement>('[data-format="manifest"]')!;
let comparison: Extract<Report, { type: "comparison" }> | null = null;
let sort: Sort = null;
const progressItems = new Map<string, { bar: HTMLProgressElement; text: HTMLSpanElement }>();

type State = "idle" | "running" | "done" | "error" | "cancelled";
function setState(s: State): void {
  document.body.dataset.state = s;
  cancelButton.hidden = s !== "running";
}

function size(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0)} MB`;
}

const perSecond = (n: number) =>
  n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : n.toFixed(0);

function showProgress(r: Extract<Report, { type: "progress" }>): void {
  let item = progressItems.get(r.file);
  if (!item) {
    item = { bar: h("progress"), text: h("span") };
    progressItems.set(r.file, item);
    progressList.append(h("li", { "data-file": r.file }, item.bar, item.text));
  }
  item.bar.max = Math.max(1, r.size);
  item.bar.value = r.read;
  const rate = r.seconds > 0 ? r.read / r.seconds : 0;
  let text = `${r.file}: ${size(r.read)} of ${size(r.size)}`;
  const lines = r.lines;
  if (r.read >= r.size)
    text +=
      `, read in ${r.seconds.toFixed(1)} s` +
      (lines === undefined ? "" : ` (${lines.toLocaleString("en")} ${lines === 1 ? "line" : "lines"})`);
  else if (rate > 0)
    text +=
      `, ${size(rate)}/s` +
      (lines === undefined ? "" : `, ${perSecond(lines / r.seconds)} lines/s`) +
      `, ${Math.ceil((r.size - r.read) / rate)} s left`;
  item.text.textContent = text;
}

function render(): void {
  const table = h("table");
  table
    .createTHead()
    .insertRow()
    .append(
      ...["measure", ...runs.map((r) => r.name)].map((n) =>
        h("th", { "data-baseline": n === comparison?.comparison.baseline }, n),
      ),
    );
  const compared = new Map((comparison?.comparison.comparisons ?? []).map((x) => [`${x.measure}\0${x.run}`, x]));
  const body = table.createTBody();
  for (const m of measures) {
    const tr = body.insertRow();
    tr.insertCell().textContent = m;
    for (const r of runs) {
      const cell = r.cells[m];
      const range = cell?.range;
      const td = h(
        "td",
        { "data-measure": m, "data-run": r.name, "data-value": cell?.value ?? null },
        cell?.text ?? "",
        // As the CLI's table prints --tie-range.
        range &&
          h(
            "span",
            {
              class: "tie-range",
              "data-worst": range.worst,
              "data-best": range.best,
              title: "with tied documents in their worst and their best order",
            },
            ` [${tableValue(range.worst)}, ${tableValue(range.best)}]`,
          ),
        cell?.interval &&
          h(
            "span",
            {
              class: "interval",
              "data-lo": cell.interval[0],
              "data-hi": cell.interval[1],
              title: "the mean's 95% t interval over the queries that count",
            },
            intervalText(cell.interval),
          ),
      );
      tr.append(td);
      // Marked by CSS ::after: the text stays the CLI's number.
      const x = compared.get(`${m}\0${r.name}`);
      if (x && comparison) {
        const s = significance(x, comparison.test);
        const t = x.tests[comparison.test]!;
        if (s) td.dataset.significant = s;
        td.title = `${comparison.test} vs ${x.baseline}: p = ${formatP(t.p)}, adjusted ${formatP(t.pAdjusted)} (n = ${x.n})`;
      }
    }
  }
  results.replaceChildren(table);
  renderComparison();
  renderChoices();
  renderCharts();
  renderCurves();
  renderPerQuery();
}

/** Fills a <select>, keeping the user's choice where it still exists, else `fallback`'s. */
function choices(select: HTMLSelectElement, names: readonly string[], fallback: (i: number) => boolean): void {
  const chosen = new Set([...select.selectedOptions].map((o) => o.value));
  const keep = select.dataset.chosen === "user" && names.some((n) => chosen.has(n));
  select.replaceChildren(...names.map((n, i) => new Option(n, n, false, keep ? chosen.has(n) : fallback(i))));
}

function renderComparison(): void {
  compareSection.hidden = runs.length < 2;
  compareDownloads.hidden = comparison === null;
  if (!comparison) {
    compareLegend.textContent = "";
    comparisonTable.replaceChildren();
    compareNotes.textContent = "";
    return;
  }
  const { comparison: c, test } = comparison;
  compareLegend.textContent = markLegend(c, test).replace(/^\+ \/ -: /, "\u25B2 / \u25BC: ");
  const table = h("table");
  // Adjusted p last; the raw one in its title.
  const header = ["measure", "run", ...PAIR_HEADER, `${test} p`];
  table
    .createTHead()
    .insertRow()
    .append(...header.map((n) => h("th", { class: nameColumn(n) }, n)));
  const body = table.createTBody();
  for (const x of c.comparisons) {
    const r = x.tests[test]!;
    const tr = body.insertRow();
    tr.dataset.measure = x.measure;
    tr.dataset.run = x.run;
    tr.dataset.pAdjusted = String(r.pAdjusted);
    tr.append(
      ...[x.measure, x.run, ...pairCells(x), testCell(x, test)].map((t, k) =>
        h("td", { class: nameColumn(header[k]) }, t),
      ),
    );
    const pCell = tr.cells[tr.cells.length - 1];
    pCell.title = `p = ${formatP(r.p)} before the correction`;
    if (r.significant) pCell.className = "significant";
  }
  comparisonTable.replaceChildren(table);
  const groups = new Map<string, string[]>();
  for (const x of c.comparisons) {
    if (!x.lost.baseline && !x.lost.run) continue;
    const key = `${x.run} vs ${x.baseline}: ${x.lost.baseline} with a value in ${x.baseline} only, ${x.lost.run} in ${x.run} only`;
    groups.set(key, [...(groups.get(key) ?? []), x.measure]);
  }
  const lost = [...groups].map(
    ([key, ms]) => `${key} (${ms.length === c.measures.length && ms.length > 1 ? "every measure" : ms.join(", ")})`,
  );
  compareNotes.textContent =
    pairNotes(c, test) +
    (lost.length ? ` Queries lost to the pairing: ${lost.join("; ")}.` : " No run lost a query to the pairing.");
}

function renderChoices(): void {
  const names = runs.map((r) => r.name);
  const baseline = chosenBaseline !== null && names.includes(chosenBaseline) ? chosenBaseline : names[0];
  baselineSelect.replaceChildren(...names.map((n) => new Option(n, n, false, n === baseline)));
  choices(pqRuns, names, (i) => i === 0);
  choices(histRun, names, (i) => i === 0);
  choices(diffA, names, (i) => i === 0);
  choices(diffB, names, (i) => i === 1);
  const numeric = measures.filter((m) => runs.some((r) => r.perQuery.columns[m]));
  choices(
    chartMeasure,
    numeric,
    (i) =>
      i ===
      Math.max(
        0,
        numeric.findIndex((m) => /^(map|ndcg@10|ndcg_cut_10)$/.test(m)),
      ),
  );
  pqSection.hidden = chartsSection.hidden = runs.length === 0;
}

function renderCharts(): void {
  const measure = chartMeasure.value;
  const run = runs.find((r) => r.name === histRun.value);
  const column = run?.perQuery.columns[measure];
  const histogram = $("#histogram");
  const histCaption = $("#hist-caption");
  if (column) {
    const figure = histogramFigure(column.values, `${measure} of ${run!.name}`);
    histogram.replaceChildren(figure.svg);
    histCaption.textContent = figure.caption;
  } else {
    histogram.replaceChildren();
    histCaption.textContent = "";
  }
  const difference = $("#difference");
  const diffCaption = $("#diff-caption");
  const a = runs.find((r) => r.name === diffA.value);
  const b = runs.find((r) => r.name === diffB.value);
  const ca = a?.perQuery.columns[measure];
  const cb = b?.perQuery.columns[measure];
  if (a && b && a !== b && ca && cb) {
    const figure = differenceFigure(
      measure,
      { name: a.name, qids: a.perQuery.qids, values: ca.values },
      { name: b.name, qids: b.perQuery.qids, values: cb.values },
      comparison?.intervals ?? [],
      (q) => void drill.open(q, measure),
    );
    difference.replaceChildren(figure.svg);
    $("#changes").replaceChildren(changesLists(measure, a, b, (q) => void drill.open(q, measure)) ?? "");
    diffCaption.textContent = figure.caption;
  } else {
    difference.replaceChildren();
    $("#changes").replaceChildren();
    diffCaption.textContent =
      runs.length < 2 ? "Add a second run to compare them query by query." : "Choose two different runs.";
  }
}

function renderCurves(): void {
  const figure = precisionRecallFigure(runs);
  $("#pr-section").hidden = figure === null;
  $("#pr-chart").replaceChildren(...(figure ? [figure.svg] : []));
  $("#pr-caption").textContent = figure?.caption ?? "";
}

function renderPerQuery(): void {
  const chosen = runs.filter((r) => [...pqRuns.selectedOptions].some((o) => o.value === r.name));
  const names = measures.filter((m) => chosen.some((r) => r.perQuery.columns[m]));
  const cols = names.flatMap((m) => chosen.map((r) => ({ key: `${m}\u0000${r.name}`, measure: m, run: r })));
  // Rows index `qids`; a run of other queries gets `at`, its index per row (-1: none).
  const first = chosen[0]?.perQuery.qids ?? [];
  let qids = first;
  const at = new Map<PageRun, Int32Array>();
  if (!chosen.every((r) => sameList(r.perQuery.qids, first))) {
    const row = new Map<string, number>();
    qids = [];
    for (const r of chosen) for (const q of r.perQuery.qids) if (!row.has(q)) row.set(q, qids.length), qids.push(q);
    for (const r of chosen) {
      const index = new Int32Array(qids.length).fill(-1);
      r.perQuery.qids.forEach((q, i) => (index[row.get(q)!] = i));
      at.set(r, index);
    }
  }
  const cellValue = (k: number, c: (typeof cols)[number]): number | undefined => {
    const i = at.get(c.run)?.[k] ?? k;
    return i < 0 ? undefined : c.run.perQuery.columns[c.measure]?.values[i];
  };
  const filter = pqFilter.value.trim().toLowerCase();
  let rows: number[] | null = null; // null: every row, in order
  if (filter) {
    rows = [];
    for (let k = 0; k < qids.length; k++) if (qids[k].toLowerCase().includes(filter)) rows.push(k);
  }
  if (sort) {
    const s = sort;
    const col = cols.find((c) => c.key === s.key);
    rows = sortRows(rows ?? qids.map((_, k) => k), qids, col ? (k) => cellValue(k, col) : null, s.dir);
  }
  const count = rows ? rows.length : qids.length;
  pqNote.textContent =
    count > MAX_ROWS
      ? `Showing the first ${MAX_ROWS} of ${count.toLocaleString("en")} queries: sort or filter to see others, or download them.`
      : "";
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const c of [
    { key: "qid", label: "qid" },
    ...cols.map((c) => ({ key: c.key, label: chosen.length > 1 ? `${c.measure} (${c.run.name})` : c.measure })),
  ]) {
    head.append(
      sortableHeader(c, sort, (by) => {
        sort = by;
        renderPerQuery();
      }),
    );
  }
  const body = table.createTBody();
  for (let n = 0; n < Math.min(count, MAX_ROWS); n++) {
    const k = rows ? rows[n] : n;
    const q = qids[k];
    const tr = body.insertRow();
    tr.insertCell().textContent = q;
    for (const c of cols) {
      const v = cellValue(k, c);
      tr.append(
        h(
          "td",
          {
            "data-measure": c.measure,
            "data-run": c.run.name,
            "data-qid": q,
            "data-value": v === undefined || Number.isNaN(v) ? null : v,
          },
          v === undefined ? "" : printValue(v, c.run.perQuery.columns[c.measure].print),
        ),
      );
    }
  }
  pqTable.replaceChildren(table);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((q, i) => q === b[i]));
}

async function downloadReport(): Promise<void> {
  document.body.dataset.report = "running";
  try {
    const html = await drill.report({
      measures,
      runs,
      conventions: conventions.textContent?.replace(/^conventions: /, "") ?? "",
      warnings: [...warnings.children].map((p) => p.textContent ?? ""),
      comparison,
      measure: chartMeasure.value,
      baseline: diffA.value,
    });
    save("rankeval-report.html", "text/html", html);
    document.body.dataset.report = "done";
  } catch (e) {
    errorBox.textContent = `the report could not be made: ${e instanceof Error ? e.message : String(e)}`;
    document.body.dataset.report = "error";
  }
}

function save(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A failed job must leave none of an earlier job's numbers. */
function clearResults(): void {
  measures = [];
  runs = [];
  files = null;
  manifest = null;
  comparison = null;
  delete document.body.dataset.compare;
  compareStatus.textContent = "";
  renderComparison();
  downloads.hidden = true;
  drill.clear();
  results.replaceChildren();
  conventions.textContent = "";
  renderChoices();
  renderCharts();
  renderCurves();
  renderPerQuery();
}

function reset(): void {
  clearResults();
  errorBox.textContent = "";
  statusText.textContent = "";
  warnings.replaceChildren();
  setState("running");
}

/** The worker's qrels (chosen first: read while runs are picked). */
let workerQrels: File | null = null;
/** The worker's only job is reading workerQrels: runs may join it. */
let qrelsOnly = false;

/** In the worker holding the job's qrels if it is free, else a new one. */
function start(job: Job): void {
  kept = false;
  const free = qrelsOnly || document.body.dataset.state !== "running";
  qrelsOnly = false;
  if (job.kind === "trec" && worker && job.qrels === workerQrels && free) {
    // The qrels' bar stays: it is not read again.
    for (const [name, item] of progressItems)
      if (name !== job.qrels.name) item.bar.parentElement!.remove(), progressItems.delete(name);
    reset();
    worker.postMessage(job);
    return;
  }
  spawn(job);
}

/** Reads a qrels file chosen alone, ready for the runs. */
function readQrels(qrels: File): void {
  delete document.body.dataset.judgments;
  spawn({ kind: "qrels", qrels, parallel: PARALLEL });
  qrelsOnly = true;
}

/** A new worker for `job`, the page cleared. */
function spawn(job: Job): void {
  progressItems.clear();
  progressList.replaceChildren();
  reset();
  worker?.terminate();
  workerQrels = job.kind === "trec" || job.kind === "qrels" ? job.qrels : null;
  let w: Worker;
  try {
    w = newPageWorker();
  } catch (err) {
    worker = null;
    errorBox.textContent = (err as Error).message;
    setState("error");
    return;
  }
  worker = w;
  w.onmessage = (e: MessageEvent<Report>) => {
    if (w !== worker) return;
    const r = e.data;
    if (drill.receive(r)) return;
    switch (r.type) {
      case "progress":
        showProgress(r);
        break;
      case "rows":
        measures = r.measures;
        runs = [];
        conventions.textContent = `conventions: ${r.conventions}`;
        break;
      case "run": {
        const i = runs.findIndex((x) => x.name === r.name);
        const run = { name: r.name, cells: r.cells, perQuery: r.perQuery, curve: r.curve };
        if (i >= 0) runs[i] = run;
        else runs.push(run);
        render();
        break;
      }
      case "downloads":
        files = { json: r.json, csv: r.csv, trec: r.trec };
        downloads.hidden = false;
        downloads.querySelector<HTMLButtonElement>('[data-format="trec"]')!.disabled = r.trec === null;
        manifest = null;
        manifestButton.disabled = true;
        break;
      case "manifest":
        manifest = r.yaml;
        manifestButton.disabled = false;
        break;
      case "warning": {
        // A run's warning comes twice (read, final table): shown once.
        if ([...warnings.children].some((p) => p.textContent === r.message)) break;
        warnings.append(h("p", {}, r.message));
        break;
      }
      case "judgments":
        document.body.dataset.judgments = "read";
        if (!input("run").files?.length) setState("idle");
        break;
      case "done":
        kept = r.kept;
        // For tests and benchmarks.
        document.body.dataset.workers = String(r.workers);
        setState("done");
        if (runs.length >= 2) comparing();
        break;
      case "comparison":
        comparison = r;
        document.body.dataset.compare = "done";
        compareStatus.textContent = "";
        render();
        break;
      case "comparison-error":
        comparison = null;
        document.body.dataset.compare = "error";
        compareStatus.textContent = r.message;
        render();
        break;
      case "error":
        // The error alone: no column of a run read before the bad file.
        clearResults();
        errorBox.textContent = r.message;
        setState("error");
        break;
    }
  };
  w.onerror = (e) => {
    errorBox.textContent = e.message || "the worker failed";
    setState("error");
  };
  w.postMessage(job);
}

function comparing(): void {
  document.body.dataset.compare = "running";
  compareStatus.textContent = "Comparing\u2026";
}

function cancel(): void {
  worker?.terminate();
  worker = null;
  workerQrels = null;
  qrelsOnly = false;
  statusText.textContent = "Cancelled: the files were not read to the end.";
  setState("cancelled");
}

function job(): Job | null {
  const qrels = input("qrels").files?.[0];
  const runFiles = [...(input("run").files ?? [])];
  const letor = input("letor").files?.[0];
  const scores = input("scores").files?.[0];
  if (lastKind === "letor" && letor && scores)
    return { kind: "letor", letor, scores, query: input("query").files?.[0] ?? null, settings: settings() };
  if (qrels && runFiles.length)
    return {
      kind: "trec",
      qrels,
      runs: runFiles,
      settings: settings(),
      keepRows: KEEP_ROWS,
      compare: compareSettings(),
      parallel: PARALLEL,
      fuse: fuseChoice(),
    };
  return null;
}

/** The inputs set last: what a settings change starts. */
let lastKind: "trec" | "letor" = "trec";

function inputsChanged(kind: "trec" | "letor"): void {
  lastKind = kind;
  const j = job();
  const qrels = input("qrels").files?.[0];
  if (j) start(j);
  else if (kind === "trec" && qrels && qrels !== workerQrels) readQrels(qrels);
  else if (document.body.dataset.state !== "running") statusText.textContent = missing(kind);
}

/** What the page still waits for (lest files given seem ignored). */
function missing(kind: "trec" | "letor"): string {
  if (kind === "letor")
    return input("letor").files?.length
      ? "Choose or drop the predictions (scores) too."
      : "Choose or drop the LETOR file too.";
  return input("run").files?.length ? "Choose or drop the qrels file too." : "";
}

for (const name of ["qrels", "run"]) input(name).addEventListener("change", () => inputsChanged("trec"));
for (const name of ["fuse", "fuseNorm"])
  (form.elements.namedItem(name) as HTMLSelectElement).addEventListener("change", () => inputsChanged("trec"));
for (const name of ["letor", "scores", "query"]) input(name).addEventListener("change", () => inputsChanged("letor"));

settingsForm.addEventListener("submit", (e) => e.preventDefault());
settingsForm.addEventListener("change", (e) => {
  const target = e.target as HTMLInputElement;
  const preset = settingsForm.elements.namedItem("preset") as HTMLSelectElement;
  if (target.name === "measures") preset.value = "custom";
  const j = job();
  if (!j) return;
  if (!worker || !kept || document.body.dataset.state === "running") {
    start(j);
    return;
  }
  const compare = compareSettings();
  reset();
  worker.postMessage({ kind: "settings", settings: settings(), compare } satisfies Job);
});
compareForm.addEventListener("submit", (e) => e.preventDefault());
compareForm.addEventListener("change", (e) => {
  if ((e.target as HTMLElement).getAttribute("name") === "baseline") chosenBaseline = baselineSelect.value || null;
  if (!worker || runs.length < 2 || document.body.dataset.state !== "done") return;
  comparing();
  worker.postMessage({ kind: "compare", compare: compareSettings() } satisfies Job);
});
compareDownloads.addEventListener("click", (e) => {
  const format = (e.target as HTMLElement).dataset.format as "markdown" | "latex" | "csv" | "json" | undefined;
  if (!comparison || !format) return;
  const [ext, type] = {
    markdown: ["md", "text/markdown"],
    latex: ["tex", "application/x-tex"],
    csv: ["csv", "text/csv"],
    json: ["json", "application/json"],
  }[format];
  save(`rankeval-comparison.${ext}`, type, comparison.downloads[format]);
});
cancelButton.addEventListener("click", cancel);
for (const select of [chartMeasure, histRun, diffA, diffB, pqRuns])
  select.addEventListener("change", () => (select.dataset.chosen = "user"));
for (const select of [chartMeasure, histRun, diffA, diffB]) select.addEventListener("change", renderCharts);
pqRuns.addEventListener("change", renderPerQuery);
pqTable.addEventListener("click", (e) => {
  const td = (e.target as Element).closest("td");
  const cell = td?.dataset.qid !== undefined ? td : td?.parentElement?.querySelector<HTMLElement>("td[data-qid]");
  if (cell?.dataset.qid !== undefined && document.body.dataset.state === "done")
    void drill.open(cell.dataset.qid, cell.dataset.measure);
});
pqFilter.addEventListener("input", renderPerQuery);
downloads.addEventListener("click", (e) => {
  const format = (e.target as HTMLElement).dataset.format;
  if (!files || !format) return;
  if (format === "json") save("rankeval.json", "application/json", files.json);
  else if (format === "csv") save("rankeval.csv", "text/csv", files.csv);
  else if (format === "trec" && files.trec !== null) save("rankeval.txt", "text/plain", files.trec);
  else if (format === "report") void downloadReport();
  else if (format === "manifest" && manifest !== null) save("rankeval-manifest.yaml", "application/yaml", manifest);
});

// Dropped on an input's row: to it; elsewhere: where roleOf says.
onDrop(form, async (dropped, target) => {
  const byInput = new Map<string, File[]>();
  if (target) byInput.set(target.name, dropped);
  else {
    const columnar = await columnarRoles(dropped);
    const told = await Promise.all(dropped.map(async (file, i) => columnar[i] ?? (await roleOf(file))));
    // Untold: the qrels if none is given and it is alone (its reading says what is wrong), else a run.
    const untold = told.filter((r) => r === null).length;
    const qrelsGiven = told.includes("qrels") || !!input("qrels").files?.length;
    for (const [i, file] of dropped.entries()) {
      const name = told[i] ?? (untold === 1 && !qrelsGiven ? "qrels" : "run");
      byInput.set(name, [...(byInput.get(name) ?? []), file]);
    }
  }
  // Several files for a one-file input: refused.
  for (const [name, list] of byInput)
    if (list.length > 1 && !input(name).multiple) {
      refuseDrop(
        `${list.map((f) => f.name).join(", ")}: each read as a ${name} file, and the page reads one; drop them on the runs row if they are runs, or one at a time`,
      );
      return;
    }
  for (const [name, list] of byInput) {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(f);
    input(name).files = dt.files;
  }
  inputsChanged(["letor", "scores", "query"].some((n) => byInput.has(n)) ? "letor" : "trec");
});

startJudgments({
  worker: newPageWorker,
  save,
  // The files shown in the inputs, as if chosen: the settings, comparison and downloads then apply.
  evaluate: (qrels, runFiles) => {
    for (const [name, list] of [
      ["qrels", [qrels]],
      ["run", runFiles],
    ] as const) {
      const dt = new DataTransfer();
      for (const f of list) dt.items.add(f);
      input(name).files = dt.files;
    }
    inputsChanged("trec");
  },
  roles: async (files) => {
    const columnar = await columnarRoles(files);
    return Promise.all(
      files.map(async (file, i) => {
        const role = columnar[i] ?? (await roleOf(file));
        return role === "qrels" || role === "run" ? role : null;
      }),
    );
  },
});

/** Refuses a drop as a job's error. */
function refuseDrop(message: string): void {
  cancel();
  clearResults();
  statusText.textContent = "";
  errorBox.textContent = message;
  setState("error");
}

/** Each Parquet/Arrow file's input (null: others), told by a worker: its script holds their readers. */
function columnarRoles(files: File[]): Promise<("qrels" | "run" | null)[]> {
  // On error: each file told by its text.
  const none = () => files.map(() => null);
  let w: Worker;
  try {
    w = newPageWorker();
  } catch {
    return Promise.resolve(none());
  }
  return new Promise<("qrels" | "run" | null)[]>((resolve) => {
    w.onmessage = (e: MessageEvent<Report>) => resolve(e.data.type === "roles" ? e.data.roles : none());
    w.onerror = () => resolve(none());
    w.postMessage({ kind: "roles", files } satisfies Job);
  }).finally(() => w.terminate());
}

/** A JSON lines row's keys; of a row cut short (the bytes sniffed end inside it), the keys read so far. */
function jsonLinesKeys(line: string): string[] {
  try {
    return Object.keys(JSON.parse(line));
  } catch {
    // A key: a string before ':' outside any string value (a value's escaped quotes are skipped over).
    return [...line.matchAll(/[{,]\s*"((?:[^"\\]|\\.)*)"\s*:/g)].map((m) => m[1]);
  }
}

/**
 * A dropped file's input, or null where name and first line say nothing: "qrel" in the name is judgments;
 * LETOR has `qid:` or `n:value`, qrels 4 fields, a run 6 (or MS MARCO's `qid docid 1`); one number is a
 * score, or a group size by the name (`.query`, `.group`).
 */
async function roleOf(file: File): Promise<string | null> {
  if (/qrel/i.test(file.name)) return "qrels";
  const reader = ((await isGzip(file)) ? gunzip(file) : file.slice(0, 4096).stream()).getReader();
  let bytes: Uint8Array = new Uint8Array();
  try {
    bytes = (await reader.read()).value ?? bytes;
  } catch {
    // Bad gzip: its input will say so.
  } finally {
    void reader.cancel().catch(() => {});
  }
  let line = "";
  await readFirstLines(
    async (sink) => sink.push(bytes),
    (l) => !!(line = l.trim() && !l.startsWith("#") ? l : ""),
    Number.POSITIVE_INFINITY,
  );
  const { format } = decideFormat(file.name, { firstLine: line, kind: "qrels" });
  const asRun = decideFormat(file.name, { firstLine: line, kind: "run" }).format;
  if (format === "json") return "run";
  // JSON lines: an LLM judge's rows (UMBRELA's result_status; its `prediction` is text, not a run's
  // score) are judgments; else the first object's keys, as a header.
  if (format === "jsonl") {
    const keys = jsonLinesKeys(line);
    return keys.includes(RESULT_STATUS) ? "qrels" : roleOfHeader(keys);
  }
  // A header (a .tsv of TREC lines is TREC text).
  if (format === "csv" || (format === "tsv" && asRun === "tsv")) {
    return roleOfHeader(line.split(format === "csv" ? "," : "\t").map((n) => n.replace(/^\s*"|"\s*$/g, "")));
  }
  if (/(^|\s)(qid:|\d+:)/.test(line)) return "letor";
  // Tab-joined: isTrecLine reads a .tsv's fields.
  const fields = line.trim().split(/\s+/).join("\t");
  if (NUMERIC.test(fields)) return /\.(query|group)(\.gz)?$/i.test(file.name) ? "query" : "scores";
  if (isTrecLine(fields, "qrels")) return "qrels";
  if (isTrecLine(fields, "run")) return "run";
  return null;
}
