// The page's judgments (issue 38): the command line's --qrels-stats, --agreement and --pool on files
// chosen or dropped in #judgments-section, computed in a worker of their own (src/judgments/on-files.ts,
// as the command line), shown as tables of the values its text lines name, with its text to download.
import { h } from "./explain-view.js";
import type { JudgmentsJob, JudgmentsResult, Report } from "./protocol.js";
import { onDrop } from "./drop.js";

export interface JudgmentsHooks {
  /** A page worker (its script given). */
  worker: () => Worker;
  save: (name: string, type: string, text: string) => void;
  /** Each dropped file's input by its name and first line, as the evaluation's drop tells them. */
  roles: (files: File[]) => Promise<("qrels" | "run" | null)[]>;
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
    if (kind === "qrels-stats")
      return qrels.length === 1
        ? { kind, qrels: qrels[0], threshold: l }
        : `Choose or drop one qrels file for its statistics${qrels.length ? ` (${qrels.length} are chosen)` : ""}.`;
    if (kind === "agreement") {
      if (qrels.length < 2) return "Choose or drop two or more qrels files to see how they agree.";
      const text = field("bins").value.trim();
      const bins =
        text === ""
          ? null
          : text
              .split(/[\s,]+/)
              .filter(Boolean)
              .map(Number);
      return { kind, qrels, threshold: l, bins };
    }
    const runs = files("judgments-runs");
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
        show(j.kind, r);
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

  /** Name and value of each of the command line's lines `NAME\tall\tVALUE`. */
  function valuesTable(text: string, caption: string): HTMLTableElement {
    const table = h("table", { class: "judgments-values" }, h("caption", {}, caption));
    table
      .createTHead()
      .insertRow()
      .append(h("th", {}, "name"), h("th", {}, "value"));
    const body = table.createTBody();
    for (const line of text.split("\n").filter(Boolean)) {
      const [name, , value] = line.split("\t");
      const tr = body.insertRow();
      tr.dataset.name = name.trim();
      tr.append(h("td", {}, name.trim()), h("td", {}, value.trim()));
    }
    return table;
  }

  function show(kind: Action, r: JudgmentsResult): void {
    shown = { action: kind, result: r };
    notes.replaceChildren(...r.notes.map((n) => h("p", {}, n)));
    const parts: HTMLElement[] = [];
    if (kind === "qrels-stats") parts.push(valuesTable(r.text, "As rankeval --qrels-stats prints them"));
    if (kind === "agreement") {
      parts.push(valuesTable(r.text, "As rankeval --agreement prints them (a set's counts by its index from 0)"));
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
    if (kind === "pool" && r.pool) {
      const table = h("table", { class: "coverage" }, h("caption", {}, r.pool.summary));
      table
        .createTHead()
        .insertRow()
        .append(
          ...["share", "covered", "ranked", "run"].map((n) => h("th", { class: n === "run" ? "name" : null }, n)),
        );
      const body = table.createTBody();
      for (const row of r.pool.coverage)
        body.insertRow().append(...row.map((x, i) => h("td", { class: i === 3 ? "name" : null }, x)));
      parts.push(table);
    }
    results.replaceChildren(...parts);
    downloads.querySelector<HTMLButtonElement>('[data-format="text"]')!.textContent =
      kind === "pool" ? "pool as qid docid lines" : "text";
    downloads.querySelector<HTMLButtonElement>('[data-format="qrels"]')!.hidden = kind !== "pool";
    downloads.hidden = false;
  }

  /** The action follows the files given, until the user chooses it. */
  function follow(kind: Action): void {
    if (action.dataset.chosen !== "user") action.value = kind;
  }

  const qrelsAction = () => (files("judgments-qrels").length >= 2 ? "agreement" : "qrels-stats");
  form.addEventListener("submit", (e) => e.preventDefault());
  form.addEventListener("change", (e) => {
    const name = (e.target as HTMLInputElement).name;
    if (name === "action") action.dataset.chosen = "user";
    else if (name === "judgments-qrels") follow(qrelsAction());
    else if (name === "judgments-runs" || name === "judged") follow("pool");
    run();
  });
  downloads.addEventListener("click", (e) => {
    const format = (e.target as HTMLElement).dataset.format;
    if (!shown || !format) return;
    const base = `rankeval-${shown.action}`;
    if (format === "json") hooks.save(`${base}.json`, "application/json", shown.result.json);
    else if (format === "text") hooks.save(`${base}.txt`, "text/plain", shown.result.text);
    else if (format === "qrels" && shown.result.pool)
      hooks.save(`${base}.qrels`, "text/plain", shown.result.pool.qrels);
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
    if (byInput.has("judgments-runs") || byInput.has("judged")) follow("pool");
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
