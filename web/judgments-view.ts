// The page's judgments (issue 38): the command line's --qrels-stats, --agreement, --pool, --fill and
// --qrels-compare on files chosen or dropped in #judgments-section, computed in a worker of their own
// (src/judgments/on-files.ts, as the command line), shown as tables of the values its text lines name
// (--qrels-compare: its text), with its text to download (--qrels-compare: its HTML report too). --fill's evaluation is the page's own, of
// the filled judgments as the command line evaluates them (the same TREC qrels text, as a File).
import { h } from "./explain-view.js";
import type { JudgmentsJob, JudgmentsResult, Report } from "./protocol.js";
import { COVERAGE_HEADER, HOLES_HEADER } from "../src/judgments/on-files.js";
import { formatOf } from "../src/input/formats.js";
import { qrelsCompareReportData } from "../src/output/html/data.js";
import { reportHtml } from "../src/output/html/html.js";
import { onDrop } from "./drop.js";

export interface JudgmentsHooks {
  /** A page worker (its script given). */
  worker: () => Worker;
  save: (name: string, type: string, text: string) => void;
  /** Each dropped file's input by its name and first line, as the evaluation's drop tells them. */
  roles: (files: File[]) => Promise<("qrels" | "run" | null)[]>;
  /** The page's evaluation of `runs` under `qrels` (--fill: the filled judgments). */
  evaluate: (qrels: File, runs: File[]) => void;
}

type Action = JudgmentsJob["kind"];

export function startJudgments(hooks: JudgmentsHooks): void {
  const section = document.querySelector<HTMLElement>("#judgments-section")!;
  const form = section.querySelector<HTMLFormElement>("#judgments-form")!;
  const status = section.querySelector<HTMLElement>("#judgments-status")!;
  const errorBox = section.querySelector<HTMLElement>("#judgments-error")!;
  const notes = section.querySelector<HTMLElement>("#judgments-notes")!;
  const results = section.querySelector<HTMLElement>("#judgments-results")!;
  const downloads = section.querySelector<HTMLElement>("#judgments-downloads")!;
  const field = <T extends HTMLInputElement | HTMLSelectElement = HTMLInputElement>(name: string) =>
    form.elements.namedItem(name) as T;
  const action = field<HTMLSelectElement>("action");
  const files = (name: string) => [...(field(name).files ?? [])];
  let worker: Worker | null = null;
  let shown: { action: Action; result: JudgmentsResult } | null = null;
  /** The job shown or running: a field left unchanged (its change event at a later click) starts none. */
  let last: JudgmentsJob | null = null;

  const setState = (s: "idle" | "running" | "done" | "error") => (section.dataset.state = s);

  /** The job the form asks for, or what it still lacks. */
  function job(): JudgmentsJob | string {
    const kind = action.value as Action;
    const qrels = files("judgments-qrels");
    const threshold = field("judgments-threshold").value.trim();
    const l = threshold === "" ? 1 : Number(threshold);
    const perQuery = field("judgments-per-query").checked;
    const number = (name: string) => {
      const text = field(name).value.trim();
      return text === "" ? null : Number(text);
    };
    const binsText = field("bins").value.trim();
    const bins =
      binsText === ""
        ? null
        : binsText
            .split(/[\s,]+/)
            .filter(Boolean)
            .map(Number);
    const runs = files("judgments-runs");
    if (kind === "qrels-stats")
      return qrels.length === 1
        ? { kind, qrels: qrels[0], threshold: l, perQuery }
        : `Choose or drop one qrels file for its statistics${qrels.length ? ` (${qrels.length} are chosen)` : ""}.`;
    if (kind === "agreement") {
      if (qrels.length < 2) return "Choose or drop two or more qrels files to see how they agree.";
      return { kind, qrels, threshold: l, bins, perQuery };
    }
    if (kind === "fill") {
      const extra = files("extra")[0];
      if (qrels.length !== 1 || !extra || !runs.length)
        return "Choose or drop one qrels file, the extra labels to fill its holes with, and one or more runs.";
      return { kind, qrels: qrels[0], extra, runs, depth: number("fill-depth") ?? 10 };
    }
    if (kind === "qrels-compare") {
      if (qrels.length !== 2 || runs.length < 2)
        return "Choose or drop two qrels files and two or more runs to see the systems under each.";
      const measures = field("judgments-measures").value.split(/\s+/).filter(Boolean);
      return { kind, qrels: [qrels[0], qrels[1]], runs, measures, threshold: number("judgments-threshold"), bins };
    }
    if (!runs.length) return "Choose or drop one or more runs to pool.";
    const budget = field("budget").value.trim();
    const combine = field<HTMLSelectElement>("combine").value;
    return {
      kind,
      runs,
      method: field("method").value.trim(),
      budget: budget === "" ? null : Number(budget),
      combine: combine === "" ? null : (combine as "sum" | "max"),
      judged: files("judged")[0] ?? null,
      depth: number("pool-depth"),
      coverageDepth: number("coverage-depth"),
    };
  }

  function clear(): void {
    shown = null;
    errorBox.textContent = "";
    notes.replaceChildren();
    results.replaceChildren();
    downloads.hidden = true;
  }

  function run(): void {
    const j = job();
    if (typeof j !== "string" && last && sameJob(j, last) && section.dataset.state !== "error") return;
    last = typeof j === "string" ? null : j;
    worker?.terminate();
    worker = null;
    clear();
    if (typeof j === "string") {
      status.textContent = j;
      setState("idle");
      return;
    }
    status.textContent = "Reading\u2026";
    setState("running");
    const w = hooks.worker();
    worker = w;
    w.onmessage = (e: MessageEvent<Report>) => {
      if (w !== worker) return;
      const r = e.data;
      if (r.type === "progress") status.textContent = `Reading ${r.file}\u2026`;
      else if (r.type === "error") fail(r.message);
      else if (r.type === "judgments-result") {
        status.textContent = "";
        show(j, r);
        setState("done");
      }
    };
    w.onerror = (e) => fail(e.message || "the worker failed");
    w.postMessage(j);
  }

  function fail(message: string): void {
    last = null;
    worker?.terminate();
    worker = null;
    clear();
    status.textContent = "";
    errorBox.textContent = message;
    setState("error");
  }

  /** Name and value of each of the command line's lines `NAME\tQID\tVALUE` (the query too, `perQuery`). */
  function valuesTable(text: string, caption: string, perQuery: boolean): HTMLTableElement {
    const table = h("table", { class: "judgments-values" }, h("caption", {}, caption));
    table
      .createTHead()
      .insertRow()
      .append(h("th", {}, "name"), ...(perQuery ? [h("th", {}, "query")] : []), h("th", {}, "value"));
    const body = table.createTBody();
    for (const line of text.split("\n").filter(Boolean)) {
      const [name, qid, value] = line.split("\t");
      const tr = body.insertRow();
      tr.dataset.name = name.trim();
      tr.append(h("td", {}, name.trim()), ...(perQuery ? [h("td", {}, qid.trim())] : []), h("td", {}, value.trim()));
    }
    return table;
  }

  /** A table of counts: its title, header and rows, the run's name last. */
  function countsTable(className: string, caption: string, header: readonly string[], rows: string[][]) {
    const table = h("table", { class: className }, h("caption", {}, caption));
    table
      .createTHead()
      .insertRow()
      .append(...header.map((n) => h("th", { class: n === "run" ? "name" : null }, n)));
    const body = table.createTBody();
    for (const row of rows)
      body.insertRow().append(...row.map((x, i) => h("td", { class: i === row.length - 1 ? "name" : null }, x)));
    return table;
  }

  function show(j: JudgmentsJob, r: JudgmentsResult): void {
    const kind = j.kind;
    const perQuery = (j.kind === "qrels-stats" || j.kind === "agreement") && j.perQuery;
    shown = { action: kind, result: r };
    notes.replaceChildren(...r.notes.map((n) => h("p", {}, n)));
    const parts: HTMLElement[] = [];
    if (kind === "qrels-stats") parts.push(valuesTable(r.text, "As rankeval --qrels-stats prints them", perQuery));
    if (kind === "agreement") {
      parts.push(
        valuesTable(r.text, "As rankeval --agreement prints them (a set's counts by its index from 0)", perQuery),
      );
      if (r.confusion) {
        const qrels = files("judgments-qrels");
        const table = h(
          "table",
          { class: "confusion" },
          h("caption", {}, `Confusion: ${qrels[0]?.name} down, ${qrels[1]?.name} across`),
        );
        table
          .createTHead()
          .insertRow()
          .append(h("th"), ...r.confusion.labels.map((l) => h("th", {}, l)));
        const body = table.createTBody();
        r.confusion.matrix.forEach((row, i) => {
          const tr = body.insertRow();
          tr.append(h("th", {}, r.confusion!.labels[i]), ...row.map((n) => h("td", {}, String(n))));
        });
        parts.push(table);
      }
    }
    if (kind === "pool" && r.pool)
      parts.push(countsTable("coverage", r.pool.summary, COVERAGE_HEADER, r.pool.coverage));
    if (kind === "fill" && r.fill) {
      parts.push(countsTable("holes", r.fill.summary, HOLES_HEADER, r.fill.holes));
      parts.push(h("p", { class: "evaluated" }, `The runs are evaluated above under ${r.fill.name}.`));
      // The page's evaluation, as the command line's of its temporary file: the same text.
      if (j.kind === "fill") hooks.evaluate(new File([r.fill.qrels], evaluatedName(r.fill.name)), j.runs);
    }
    if (kind === "qrels-compare") parts.push(h("pre", { class: "qrels-compare" }, r.text));
    results.replaceChildren(...parts);
    const button = (format: string) => downloads.querySelector<HTMLButtonElement>(`[data-format="${format}"]`)!;
    button("text").textContent =
      kind === "pool" ? "pool as qid docid lines" : kind === "fill" ? "holes (as on stderr)" : "text";
    button("qrels").textContent = kind === "fill" ? "filled judgments as qrels lines" : "pool as qrels lines";
    button("qrels").hidden = kind !== "pool" && kind !== "fill";
    button("json").hidden = r.json === null;
    button("report").hidden = !r.qrelsCompare;
    downloads.hidden = false;
  }

  /** The action follows the files given, until the user chooses it. */
  function follow(kind: Action): void {
    if (action.dataset.chosen !== "user") action.value = kind;
  }

  /** What the files given ask for: `fallback` unless they make a fill's or a comparison's inputs. */
  const filesAction = (fallback: Action): Action => {
    const [qrels, runs] = [files("judgments-qrels").length, files("judgments-runs").length];
    if (qrels === 1 && runs && files("extra").length) return "fill";
    if (qrels === 2 && runs >= 2) return "qrels-compare";
    return fallback;
  };
  const qrelsAction = () => filesAction(files("judgments-qrels").length >= 2 ? "agreement" : "qrels-stats");
  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("change", (e) => {
    const name = (e.target as HTMLInputElement).name;
    if (name === "action") action.dataset.chosen = "user";
    else if (name === "judgments-qrels") follow(qrelsAction());
    else if (name === "judgments-runs" || name === "judged") follow(filesAction("pool"));
    else if (name === "extra") follow("fill");
    run();
  });
  downloads.addEventListener("click", (e) => {
    const format = (e.target as HTMLElement).dataset.format;
    if (!shown || !format) return;
    const base = `rankeval-${shown.action}`;
    if (format === "text") hooks.save(`${base}.txt`, "text/plain", shown.result.text);
    else if (format === "json" && shown.result.json !== null)
      hooks.save(`${base}.json`, "application/json", shown.result.json);
    else if (format === "qrels" && shown.result.pool)
      hooks.save(`${base}.qrels`, "text/plain", shown.result.pool.qrels);
    else if (format === "qrels" && shown.result.fill)
      hooks.save(`${base}.qrels`, "text/plain", shown.result.fill.qrels);
    else if (format === "report" && shown.result.qrelsCompare) {
      // --qrels-compare --report's file: the same data and viewer (the page's report's, already here).
      const data = qrelsCompareReportData("the rankeval page", shown.result.qrelsCompare);
      void reportHtml(data).then((html) => hooks.save(`${base}.html`, "text/html", html));
    }
  });

  // Dropped on an input's row: to it; elsewhere: judgments to the qrels, runs to the runs.
  onDrop(form, async (dropped, target) => {
    const byInput = new Map<string, File[]>();
    const roles = target ? [] : await hooks.roles(dropped);
    for (const [i, file] of dropped.entries()) {
      const name = target?.name ?? (roles[i] === "run" ? "judgments-runs" : "judgments-qrels");
      byInput.set(name, [...(byInput.get(name) ?? []), file]);
    }
    for (const [name, list] of byInput) {
      const dt = new DataTransfer();
      for (const f of list.slice(0, field(name).multiple ? undefined : 1)) dt.items.add(f);
      field(name).files = dt.files;
    }
    if (byInput.has("extra")) follow("fill");
    else if (byInput.has("judgments-runs") || byInput.has("judged")) follow(filesAction("pool"));
    else follow(qrelsAction());
    run();
  });
}

/** Whether two jobs are the same: their options, and the same Files. */
function sameJob(a: JudgmentsJob, b: JudgmentsJob): boolean {
  const files = (x: unknown) => (Array.isArray(x) ? x : [x]);
  return (Object.keys(a) as (keyof JudgmentsJob)[]).every((k) => {
    const [x, y] = [a[k] as unknown, b[k] as unknown];
    if (x instanceof File || Array.isArray(x))
      return files(x).length === files(y).length && files(x).every((f, i) => f === files(y)[i]);
    return x === y || JSON.stringify(x) === JSON.stringify(y);
  });
}

/**
 * The filled judgments' File name: QRELS+QRELS_EXTRA as the command line's notes say it, read as TREC
 * text as the command line reads its temporary file; where the name would say another format (an extra
 * set in CSV), ".qrels" after it.
 */
function evaluatedName(name: string): string {
  return formatOf(name) === "trec" ? name : `${name}.qrels`;
}
