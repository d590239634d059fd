// The page: picks up the files, hands them to the worker (which reads and evaluates them) and shows
// its progress and the aggregate table, runs side by side. Nothing is uploaded.
import type { Cell, Job, Report } from "./protocol.js";

const form = document.querySelector<HTMLFormElement>("#inputs")!;
const input = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const progressList = document.querySelector<HTMLUListElement>("#progress")!;
const errorBox = document.querySelector<HTMLDivElement>("#error")!;
const warnings = document.querySelector<HTMLDivElement>("#warnings")!;
const results = document.querySelector<HTMLDivElement>("#results")!;
const conventions = document.querySelector<HTMLParagraphElement>("#conventions")!;

let worker: Worker | null = null;
let measures: string[] = [];
let runs: { name: string; cells: Record<string, Cell> }[] = [];
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
}

function start(job: Job): void {
  worker?.terminate();
  measures = [];
  runs = [];
  progressItems.clear();
  progressList.replaceChildren();
  errorBox.textContent = "";
  warnings.replaceChildren();
  results.replaceChildren();
  conventions.textContent = "";
  setState("running");
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
        conventions.textContent = `conventions: ${r.conventions}`;
        break;
      case "run":
        runs.push({ name: r.name, cells: r.cells });
        render();
        break;
      case "warning": {
        const p = document.createElement("p");
        p.textContent = r.message;
        warnings.append(p);
        break;
      }
      case "done":
        setState("done");
        w.terminate();
        break;
      case "error":
        errorBox.textContent = r.message;
        setState("error");
        w.terminate();
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
    if (qrels && runFiles.length) start({ kind, qrels, runs: runFiles });
  } else {
    const letor = input("letor").files?.[0];
    const scores = input("scores").files?.[0];
    if (letor && scores) start({ kind, letor, scores });
  }
}

for (const name of ["qrels", "run"]) input(name).addEventListener("change", () => maybeStart("trec"));
for (const name of ["letor", "scores"]) input(name).addEventListener("change", () => maybeStart("letor"));
