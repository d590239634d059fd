// The page's drill-downs, the queries that changed most, and the HTML report of the page.
import type { CurvePoint } from "../src/app/curve.js";
import { changedMost, changes } from "../src/explain/changes.js";
import type { Explanation } from "../src/explain/explain.js";
import type { ValuePrint } from "../src/app/value-print.js";
import { REPORT_QUERIES, reportData } from "../src/output/html/data.js";
import { reportHtml } from "../src/output/html/html.js";
import { changesView, DRILLDOWN_CSS, drilldownView, h } from "./explain-view.js";
import type { Cell, Job, PerQuery, Report } from "./protocol.js";

document.head.append(h("style", {}, DRILLDOWN_CSS));

export interface PageRun {
  name: string;
  cells: Record<string, Cell>;
  perQuery: PerQuery;
  /** null: not computed. */
  curve: readonly CurvePoint[] | null;
}

export interface PageState {
  measures: readonly string[];
  runs: readonly PageRun[];
  conventions: string;
  warnings: readonly string[];
  comparison: Extract<Report, { type: "comparison" }> | null;
  /** The charts' measure and the difference plot's "minus" run. */
  measure: string;
  baseline: string;
}

export class PageDrilldowns {
  private next = 1;
  private waiting = new Map<number, { resolve: (x: Explanation[]) => void; reject: (e: Error) => void }>();
  /** The query shown and its running values' measure. */
  private shown: { qid: string; measure?: string } | null = null;

  constructor(
    private readonly send: (job: Job) => boolean,
    private readonly section: HTMLElement,
    private readonly box: HTMLElement,
    private readonly status: HTMLElement,
  ) {}

  private ask(qids: string[], depth?: number, measure?: string): Promise<Explanation[]> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      if (!this.send({ kind: "explain", id, qids, depth, measure })) {
        this.waiting.delete(id);
        reject(new Error("the files are no longer read: choose them again"));
      }
    });
  }

  /** The worker's answer; true when it was one. */
  receive(r: Report): boolean {
    if (r.type !== "explain" && r.type !== "explain-error") return false;
    const w = this.waiting.get(r.id);
    this.waiting.delete(r.id);
    if (r.type === "explain") w?.resolve(r.explanations);
    else w?.reject(new Error(r.message));
    return true;
  }

  /** Opens a query's drill-down (its running values of `measure`, a printed name), `depth` ranks. */
  async open(qid: string, measure?: string, depth?: number): Promise<void> {
    this.shown = { qid, measure };
    this.section.hidden = false;
    document.body.dataset.drilldown = "running";
    this.status.textContent = `Explaining query ${qid}\u2026`;
    try {
      const [x] = await this.ask([qid], depth, measure);
      if (this.shown?.qid !== qid) return;
      const key = x.measures.find((m) => m.name === measure)?.key;
      this.box.replaceChildren(
        drilldownView(x, { measure: key, more: (d) => void this.open(qid, this.shownMeasure() ?? measure, d) }),
      );
      this.status.textContent = "";
      document.body.dataset.drilldown = "done";
      this.section.scrollIntoView({ block: "start" });
    } catch (e) {
      this.status.textContent = e instanceof Error ? e.message : String(e);
      document.body.dataset.drilldown = "error";
    }
  }

  /** The measure picked in the drill-down shown. */
  private shownMeasure(): string | undefined {
    return this.box.querySelector<HTMLElement>(".drilldown")?.dataset.measure;
  }

  clear(): void {
    this.shown = null;
    this.box.replaceChildren();
    this.status.textContent = "";
    this.section.hidden = true;
    delete document.body.dataset.drilldown;
  }

  /** The page's report, with drill-downs of the queries that changed most. */
  async report(s: PageState): Promise<string> {
    const measure = s.runs.some((r) => r.perQuery.columns[s.measure])
      ? s.measure
      : (s.measures.find((m) => s.runs[0]?.perQuery.columns[m]) ?? "");
    const baseline = s.runs.some((r) => r.name === s.baseline) ? s.baseline : (s.runs[0]?.name ?? "");
    const columns = s.runs.map((r) => ({
      qids: r.perQuery.qids,
      values: r.perQuery.columns[measure]?.values ?? new Float64Array(r.perQuery.qids.length).fill(NaN),
    }));
    const chosen = measure
      ? changedMost(
          columns,
          Math.max(
            0,
            s.runs.findIndex((r) => r.name === baseline),
          ),
          REPORT_QUERIES,
        )
      : [];
    const explanations = chosen.length ? await this.ask(chosen, undefined, measure) : [];
    const c = s.comparison;
    const data = reportData({
      source: "the rankeval page",
      rows: s.measures,
      conventions: s.conventions,
      runs: s.runs,
      comparison: c ? { comparison: c.comparison, test: c.test } : null,
      intervals: c?.intervals ?? [],
      explained: { measure, baseline, explanations },
      warnings: s.warnings,
    });
    return reportHtml(data);
  }
}

/** changesView of run `a` to `b` on `measure`. */
export function changesLists(measure: string, a: PageRun, b: PageRun, open: (qid: string) => void): HTMLElement | null {
  const ca = a.perQuery.columns[measure];
  const cb = b.perQuery.columns[measure];
  if (!ca || !cb) return null;
  const lists = changes({ qids: a.perQuery.qids, values: ca.values }, { qids: b.perQuery.qids, values: cb.values }, 10);
  return changesView(measure, a.name, b.name, lists, cb.print as ValuePrint, open);
}
