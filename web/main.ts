// The page: picks up the files, hands them to the worker (which reads and evaluates them) and shows
// its progress, the aggregate table (runs side by side), a per-query table and downloads. New
// measures or conventions re-evaluate the files already read. Nothing is uploaded.
import type { Cell, Job, PerQuery, Report, Settings } from "./protocol.js";

const form = document.querySelector<HTMLFormElement>("#inputs")!;
const input = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const progressList = document.querySelector<HTMLUListElement>("#progress")!;
const errorBox = document.querySelector<HTMLDivElement>("#error")!;
const warnings = document.querySelector<HTMLDivElement>("#warnings")!;
const results = document.querySelector<HTMLDivElement>("#results")!;
const conventions = document.querySelector<HTMLParagraphElement>("#conventions")!;
const settingsForm = document.querySelector<HTMLFormElement>("#settings")!;
const downloads = document.querySelector<HTMLDivElement>("#downloads")!;
const pqSection = document.querySelector<HTMLElement>("#perquery-section")!;
const pqRuns = document.querySelector<HTMLSelectElement>("#pq-runs")!;
const pqFilter = document.querySelector<HTMLInputElement>("#pq-filter")!;
const pqTable = document.querySelector<HTMLDivElement>("#perquery")!;

/** The presets' -m names; none: the defaults (trec_eval's for runs, the CLI's --letor ones for LETOR). */
const PRESETS: Record<string, string[]> = {
  default: [],
  all_trec: ["all_trec"],
  ltr: ["ndcg@1,3,5,10", "map", "mrr", "precision@10", "recall@100"],
};

/** The settings as the form says: the free text (one -m per blank-separated word) when the preset is custom. */
function settings(): Settings {
  const field = (name: string) => (settingsForm.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value.trim();
  const preset = field("preset");
  const measures = preset === "custom" ? field("measures").split(/\s+/).filter(Boolean) : (PRESETS[preset] ?? []);
  const threshold = field("threshold");
  return {
    measures,
    conventions: {
      gain: field("gain") || undefined,
      noRelevant: field("noRelevant") || undefined,
      beyondList: field("beyondList") || undefined,
      threshold: threshold === "" ? undefined : Number(threshold),
    },
  };
}

let worker: Worker | null = null;
let measures: string[] = [];
let runs: { name: string; cells: Record<string, Cell>; perQuery: PerQuery }[] = [];
let files: { json: string; csv: string; trec: string | null } | null = null;
/** The per-query table's sort: a column ("qid" or measure and run) and its direction. */
let sort: { key: string; dir: "asc" | "desc" } | null = null;
const progressItems = new Map<string, HTMLLIElement>();

const setState = (s: "idle" | "running" | "done" | "error") => (document.body.dataset.state = s);

function size(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${(bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0)} MB`;
}

function showProgress(file: string, read: number, total: number): void {
  let li = progressItems.get(file);
  if (!li) {
    li = document.createElement("li");
    progressItems.set(file, li);
    progressList.append(li);
  }
  li.textContent = `${file}: ${size(read)} of ${size(total)}${read >= total ? ", read" : ""}`;
}

function render(): void {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const h of ["measure", ...runs.map((r) => r.name)]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const m of measures) {
    const tr = body.insertRow();
    tr.insertCell().textContent = m;
    for (const r of runs) {
      const td = tr.insertCell();
      const cell = r.cells[m];
      td.dataset.measure = m;
      td.dataset.run = r.name;
      if (cell?.value !== null && cell?.value !== undefined) td.dataset.value = String(cell.value);
      td.textContent = cell?.text ?? "";
    }
  }
  results.replaceChildren(table);
  renderRunChoice();
  renderPerQuery();
}

/** The per-query table's run picker: keeps the choice, else the first run. */
function renderRunChoice(): void {
  const chosen = new Set([...pqRuns.selectedOptions].map((o) => o.value));
  pqRuns.replaceChildren(...runs.map((r, i) => new Option(r.name, r.name, false, chosen.size ? chosen.has(r.name) : i === 0)));
  if (![...pqRuns.selectedOptions].length && pqRuns.options.length) pqRuns.options[0].selected = true;
  pqSection.hidden = runs.length === 0;
}

/** qid rows, a column per measure and selected run; sorted by the clicked header, filtered by qid. */
function renderPerQuery(): void {
  const chosen = runs.filter((r) => [...pqRuns.selectedOptions].some((o) => o.value === r.name));
  const names = measures.filter((m) => chosen.some((r) => r.perQuery.cells[m]?.some((c) => c.text !== "")));
  const cols = names.flatMap((m) => chosen.map((r) => ({ key: `${m}\u0000${r.name}`, measure: m, run: r })));
  const qids: string[] = [];
  const seen = new Set<string>();
  for (const r of chosen) for (const q of r.perQuery.qids) if (!seen.has(q)) (seen.add(q), qids.push(q));
  const index = new Map(chosen.map((r) => [r.name, new Map(r.perQuery.qids.map((q, i) => [q, i]))]));
  const cellOf = (q: string, c: (typeof cols)[number]): Cell | undefined => {
    const i = index.get(c.run.name)!.get(q);
    return i === undefined ? undefined : c.run.perQuery.cells[c.measure]?.[i];
  };
  const filter = pqFilter.value.trim().toLowerCase();
  let rows = filter ? qids.filter((q) => q.toLowerCase().includes(filter)) : qids;
  if (sort) {
    const s = sort;
    const col = cols.find((c) => c.key === s.key);
    const cmp = (a: string, b: string): number => {
      if (!col) return a.localeCompare(b, undefined, { numeric: true });
      const x = cellOf(a, col)?.value ?? null;
      const y = cellOf(b, col)?.value ?? null;
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      return x - y;
    };
    rows = [...rows].sort((a, b) => (s.dir === "asc" ? cmp(a, b) : -cmp(a, b)));
  }
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const c of [{ key: "qid", label: "qid" }, ...cols.map((c) => ({ key: c.key, label: chosen.length > 1 ? `${c.measure} (${c.run.name})` : c.measure }))]) {
    const th = document.createElement("th");
    th.textContent = c.label;
    th.dataset.key = c.key;
    if (sort?.key === c.key) th.dataset.sort = sort.dir;
    th.addEventListener("click", () => {
      sort = { key: c.key, dir: sort?.key === c.key && sort.dir === "asc" ? "desc" : "asc" };
      renderPerQuery();
    });
    head.append(th);
  }
  const body = table.createTBody();
  for (const q of rows) {
    const tr = body.insertRow();
    tr.insertCell().textContent = q;
    for (const c of cols) {
      const td = tr.insertCell();
      const cell = cellOf(q, c);
      td.dataset.measure = c.measure;
      td.dataset.run = c.run.name;
      td.dataset.qid = q;
      if (cell?.value !== null && cell?.value !== undefined) td.dataset.value = String(cell.value);
      td.textContent = cell?.text ?? "";
    }
  }
  pqTable.replaceChildren(table);
}

/** Saves `text` as a file through a Blob and an <a download>. */
function save(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function reset(): void {
  measures = [];
  runs = [];
  files = null;
  downloads.hidden = true;
  errorBox.textContent = "";
  warnings.replaceChildren();
  results.replaceChildren();
  conventions.textContent = "";
  setState("running");
}

/** Reads the files in a new worker; it keeps them for re-evaluating under new settings. */
function start(job: Job): void {
  worker?.terminate();
  progressItems.clear();
  progressList.replaceChildren();
  reset();
  const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
  worker = w;
  w.onmessage = (e: MessageEvent<Report>) => {
    if (w !== worker) return;
    const r = e.data;
    switch (r.type) {
      case "progress":
        showProgress(r.file, r.read, r.size);
        break;
      case "rows":
        measures = r.measures;
        runs = [];
        conventions.textContent = `conventions: ${r.conventions}`;
        break;
      case "run": {
        const i = runs.findIndex((x) => x.name === r.name);
        const run = { name: r.name, cells: r.cells, perQuery: r.perQuery };
        if (i >= 0) runs[i] = run;
        else runs.push(run);
        render();
        break;
      }
      case "downloads":
        files = { json: r.json, csv: r.csv, trec: r.trec };
        downloads.hidden = false;
        downloads.querySelector<HTMLButtonElement>('[data-format="trec"]')!.disabled = r.trec === null;
        break;
      case "warning": {
        const p = document.createElement("p");
        p.textContent = r.message;
        warnings.append(p);
        break;
      }
      case "done":
        setState("done");
        break;
      case "error":
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

/** Starts as soon as a set of inputs is complete: qrels and at least one run, or LETOR and scores. */
function maybeStart(kind: "trec" | "letor"): void {
  if (kind === "trec") {
    const qrels = input("qrels").files?.[0];
    const runFiles = [...(input("run").files ?? [])];
    if (qrels && runFiles.length) start({ kind, qrels, runs: runFiles, settings: settings() });
  } else {
    const letor = input("letor").files?.[0];
    const scores = input("scores").files?.[0];
    if (letor && scores) start({ kind, letor, scores, settings: settings() });
  }
}

for (const name of ["qrels", "run"]) input(name).addEventListener("change", () => maybeStart("trec"));
for (const name of ["letor", "scores"]) input(name).addEventListener("change", () => maybeStart("letor"));

// New settings: the worker re-evaluates what it has read; a read still under way starts over with them.
let hasInput = false;
for (const name of ["qrels", "run", "letor", "scores"]) input(name).addEventListener("change", () => (hasInput = true));
settingsForm.addEventListener("submit", (e) => e.preventDefault());
settingsForm.addEventListener("change", (e) => {
  const target = e.target as HTMLElement;
  const preset = settingsForm.elements.namedItem("preset") as HTMLSelectElement;
  if ((target as HTMLInputElement).name === "measures") preset.value = "custom";
  if (!worker || !hasInput) return;
  if (document.body.dataset.state === "running") {
    // Still reading: start over with the new settings.
    maybeStart(input("letor").files?.[0] ? "letor" : "trec");
    return;
  }
  reset();
  worker.postMessage({ kind: "settings", settings: settings() } satisfies Job);
});
pqRuns.addEventListener("change", renderPerQuery);
pqFilter.addEventListener("input", renderPerQuery);
downloads.addEventListener("click", (e) => {
  const format = (e.target as HTMLElement).dataset.format;
  if (!files || !format) return;
  if (format === "json") save("rankeval.json", "application/json", files.json);
  else if (format === "csv") save("rankeval.csv", "text/csv", files.csv);
  else if (format === "trec" && files.trec !== null) save("rankeval.txt", "text/plain", files.trec);
});
