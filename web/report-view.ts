// The HTML report's script (scripts/embed-viewer.mjs): draws data.ts's data as the page does; body's
// data-state: "done" once drawn, "error" if unreadable.
import { counted } from "../src/errors/counted.js";
import { changes } from "../src/explain/changes.js";
import type { Explanation } from "../src/explain/explain.js";
import { nameColumn, storedNumber, storedText, type ReportData, type StoredColumn } from "../src/output/html/data.js";
import { intervalText } from "../src/output/table.js";
import { differenceFigure, histogramFigure, sortRows } from "./charts.js";
import { changesView, DRILLDOWN_CSS, drilldownView, h, type Sort, sortableHeader } from "./explain-view.js";
import { precisionRecallFigure } from "./pr-chart.js";
import { qrelsCompareView } from "./qrels-compare-view.js";

/** Per-query rows shown at most, as the page's. */
const MAX_ROWS = 200;
const CHANGES = 10;

async function readData(): Promise<ReportData> {
  const el = document.getElementById("report-data")!;
  const binary = atob((el.textContent ?? "").trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes])
    .stream()
    .pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
  return JSON.parse(await new Response(stream).text()) as ReportData;
}

interface Column extends StoredColumn {
  numbers: Float64Array;
}

function draw(data: ReportData): void {
  document.head.append(h("style", {}, DRILLDOWN_CSS));
  const root = document.getElementById("report")!;
  if (data.qrelsCompare) {
    root.append(qrelsCompareView(data.qrelsCompare));
    document.body.dataset.state = "done";
    return;
  }
  const runs = data.runs.map((r) => r.name);
  const columns: Column[] = data.perQuery.columns.map((c) => ({
    ...c,
    numbers: Float64Array.from(c.values, (v) => storedNumber(v, c.scale)),
  }));
  const column = (measure: string, run: number) => columns.find((c) => c.measure === measure && c.run === run);
  const measures = [...new Set(columns.map((c) => c.measure))];
  const qids = data.perQuery.qids;
  const explained = new Map<string, Explanation>(data.explained.explanations.map((x) => [x.qid, x]));
  const drill = h("div", { id: "drilldown" });

  const open = (qid: string, measure?: string) => {
    const x = explained.get(qid);
    if (!x) {
      drill.replaceChildren(
        h(
          "p",
          { class: "dd-none", "data-qid": qid },
          `No drill-down of query ${qid} in this report: it has those of the ${counted(data.explained.explanations.length, "query", "queries")} that changed most. `,
          h("code", {}, `rankeval --explain ${qid} QRELS RUN ...`),
          " shows any.",
        ),
      );
    } else {
      const key =
        x.measures.find((m) => m.name === measure)?.key ??
        x.measures.find((m) => m.name === data.explained.measure)?.key;
      drill.replaceChildren(drilldownView(x, { measure: key }));
    }
    drill.scrollIntoView({ block: "start" });
  };

  const table = h("table", { id: "results-table" });
  table.append(
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "measure"),
        ...runs.map((r) => h("th", { "data-baseline": data.comparison?.baseline === r ? true : null }, r)),
      ),
    ),
  );
  const body = h("tbody");
  for (const row of data.rows) {
    const tr = h("tr", {}, h("td", {}, row));
    for (const r of data.runs) {
      const [text, value, interval] = r.cells[row] ?? ["", null];
      const mark = data.marks[row]?.[r.name];
      tr.append(
        h(
          "td",
          {
            "data-measure": row,
            "data-run": r.name,
            "data-value": value === null ? null : String(value),
            "data-significant": mark?.mark ?? null,
            title: mark?.title ?? null,
          },
          text,
          interval
            ? h(
                "span",
                { class: "interval", "data-lo": String(interval[0]), "data-hi": String(interval[1]) },
                intervalText(interval),
              )
            : null,
        ),
      );
    }
    body.append(tr);
  }
  table.append(body);
  root.append(h("div", { id: "results", class: "scroll" }, table));
  if (data.comparison)
    root.append(h("p", { id: "compare-legend" }, data.comparison.legend.replace(/^\+ \/ -: /, "\u25B2 / \u25BC: ")));
  root.append(h("p", { id: "conventions" }, `conventions: ${data.conventions}`));
  for (const w of data.warnings) root.append(h("p", { class: "warning" }, w));

  if (data.comparison) {
    const c = data.comparison;
    const t = h("table");
    t.append(h("thead", {}, h("tr", {}, ...c.header.map((x) => h("th", { class: nameColumn(x) }, x)))));
    const tb = h("tbody");
    c.rows.forEach((cells, i) =>
      tb.append(
        h(
          "tr",
          { "data-measure": cells[0], "data-run": cells[2] },
          ...cells.map((x, k) =>
            h("td", { class: k === cells.length - 1 && c.significant[i] ? "significant" : nameColumn(c.header[k]) }, x),
          ),
        ),
      ),
    );
    t.append(tb);
    root.append(
      h(
        "section",
        { id: "compare-section" },
        h("h2", {}, "Comparison"),
        h("div", { id: "comparison", class: "scroll" }, t),
        h("p", { id: "compare-notes" }, c.notes),
      ),
    );
  }

  const curves = precisionRecallFigure(data.runs);
  if (curves)
    root.append(
      h(
        "section",
        { id: "pr-section" },
        h("h2", {}, "Precision-recall"),
        h("figure", { id: "pr-curve" }, curves.svg, h("figcaption", { id: "pr-caption" }, curves.caption)),
      ),
    );

  if (!measures.length) {
    document.body.dataset.state = "done";
    return;
  }
  const select = (id: string, names: readonly string[], chosen: number) =>
    h("select", { id }, ...names.map((n, i) => h("option", { value: String(i), selected: i === chosen }, n)));
  // The drill-downs' measure, else the page's default, else the first.
  const chartMeasure = select(
    "chart-measure",
    measures,
    [
      measures.indexOf(data.explained.measure),
      measures.findIndex((m) => /^(map|ndcg@10|ndcg_cut_10)$/.test(m)),
      0,
    ].find((i) => i >= 0)!,
  );
  const baselineIndex = Math.max(0, runs.indexOf(data.explained.baseline));
  const histRun = select("hist-run", runs, 0);
  const diffA = select("diff-a", runs, baselineIndex);
  const diffB = select("diff-b", runs, runs.length > 1 ? (baselineIndex === 0 ? 1 : 0) : 0);
  const histogram = h("div", { id: "histogram" });
  const histCaption = h("figcaption", { id: "hist-caption" });
  const difference = h("div", { id: "difference" });
  const diffCaption = h("figcaption", { id: "diff-caption" });
  const changesBox = h("div", { id: "changes" });
  root.append(
    h(
      "section",
      { id: "charts-section" },
      h("h2", {}, "Per-query values"),
      h("label", {}, h("span", {}, "measure "), chartMeasure),
      h(
        "div",
        { id: "charts" },
        h("figure", {}, h("label", {}, h("span", {}, "run "), histRun), histogram, histCaption),
        h("figure", {}, h("label", {}, h("span", {}, "difference "), diffB, " minus ", diffA), difference, diffCaption),
      ),
      changesBox,
    ),
  );
  const renderCharts = () => {
    const measure = measures[Number(chartMeasure.value)];
    const hc = column(measure, Number(histRun.value));
    if (hc) {
      const figure = histogramFigure(
        hc.numbers.filter((_, i) => hc.values[i] !== null),
        `${measure} of ${runs[hc.run]}`,
      );
      histogram.replaceChildren(figure.svg);
      histCaption.textContent = figure.caption;
    } else {
      histogram.replaceChildren();
      histCaption.textContent = "";
    }
    const a = Number(diffA.value);
    const b = Number(diffB.value);
    const ca = column(measure, a);
    const cb = column(measure, b);
    if (a !== b && ca && cb) {
      const figure = differenceFigure(
        measure,
        { name: runs[a], qids, values: ca.numbers },
        { name: runs[b], qids, values: cb.numbers },
        data.intervals,
        (q) => open(q, measure),
      );
      difference.replaceChildren(figure.svg);
      diffCaption.textContent = `${figure.caption} (values as printed, to 4 decimals). Click a query to open it.`;
      changesBox.replaceChildren(
        changesView(
          measure,
          runs[a],
          runs[b],
          changes({ qids, values: ca.numbers }, { qids, values: cb.numbers }, CHANGES),
          cb.print,
          (q) => open(q, measure),
          (q) => explained.has(q),
        ),
      );
    } else {
      difference.replaceChildren();
      diffCaption.textContent = runs.length < 2 ? "One run: no difference to plot." : "Choose two different runs.";
      changesBox.replaceChildren();
    }
  };
  for (const s of [chartMeasure, histRun, diffA, diffB]) s.addEventListener("change", renderCharts);
  renderCharts();

  const list = h(
    "p",
    { id: "explained" },
    `Drill-downs of the ${counted(explained.size, "query", "queries")} that changed most on ${data.explained.measure}${runs.length > 1 ? ` against ${data.explained.baseline}` : " (one run: its lowest values)"}: `,
  );
  [...explained.keys()].forEach((q, i) => {
    const b = h("button", { type: "button", class: "qid-link", "data-qid": q }, q);
    b.addEventListener("click", () => open(q));
    list.append(i ? ", " : "", b);
  });
  root.append(h("section", { id: "drilldown-section" }, h("h2", {}, "Drill-down"), list, drill));

  const pqRuns = h(
    "select",
    { id: "pq-runs", multiple: true, size: Math.min(4, runs.length) },
    ...runs.map((r, i) => h("option", { value: String(i), selected: true }, r)),
  );
  const pqFilter = h("input", { id: "pq-filter", type: "text", placeholder: "qid contains" });
  const pqNote = h("p", { id: "pq-note" });
  const pqTable = h("div", { id: "perquery", class: "scroll" });
  root.append(
    h(
      "section",
      { id: "perquery-section" },
      h("h2", {}, "Per query"),
      h("label", {}, h("span", {}, "runs "), pqRuns),
      h("label", {}, h("span", {}, "qid filter "), pqFilter),
      pqNote,
      pqTable,
    ),
  );
  let sort: Sort = null;
  const renderPerQuery = () => {
    const chosen = [...pqRuns.selectedOptions].map((o) => Number(o.value));
    const cols = measures.flatMap((m) => chosen.map((r) => column(m, r)).filter((c): c is Column => c !== undefined));
    const keyOf = (c: Column) => `${c.measure}\u0000${c.run}`;
    const filter = pqFilter.value.trim().toLowerCase();
    let rows = qids.map((_, k) => k);
    if (filter) rows = rows.filter((k) => qids[k].toLowerCase().includes(filter));
    if (sort) {
      const s = sort;
      const col = cols.find((c) => keyOf(c) === s.key);
      sortRows(rows, qids, col ? (k) => col.numbers[k] : null, s.dir);
    }
    pqNote.textContent =
      rows.length > MAX_ROWS
        ? `Showing the first ${MAX_ROWS} of ${rows.length.toLocaleString("en")} queries: sort or filter to see others.`
        : "";
    const t = h("table");
    const head = h("tr");
    for (const c of [
      { key: "qid", label: "qid" },
      ...cols.map((c) => ({ key: keyOf(c), label: chosen.length > 1 ? `${c.measure} (${runs[c.run]})` : c.measure })),
    ]) {
      head.append(
        sortableHeader(c, sort, (by) => {
          sort = by;
          renderPerQuery();
        }),
      );
    }
    t.append(h("thead", {}, head));
    const tb = h("tbody");
    for (const k of rows.slice(0, MAX_ROWS)) {
      const q = qids[k];
      const qcell = explained.has(q)
        ? h(
            "td",
            {},
            h("button", { type: "button", class: "qid-link", "data-qid": q, title: "open its drill-down" }, q),
          )
        : h("td", {}, q);
      qcell.querySelector("button")?.addEventListener("click", () => open(q));
      const tr = h("tr", {}, qcell);
      for (const c of cols) {
        const v = c.values[k];
        tr.append(
          h(
            "td",
            {
              "data-measure": c.measure,
              "data-run": runs[c.run],
              "data-qid": q,
              "data-query": q,
              "data-value": Number.isNaN(c.numbers[k]) ? null : String(c.numbers[k]),
            },
            storedText(v, c.scale),
          ),
        );
      }
      tb.append(tr);
    }
    t.append(tb);
    pqTable.replaceChildren(t);
  };
  pqRuns.addEventListener("change", renderPerQuery);
  pqFilter.addEventListener("input", renderPerQuery);
  renderPerQuery();
  document.body.dataset.state = "done";
}

readData().then(draw, (e: unknown) => {
  document
    .getElementById("report")!
    .append(
      h("p", { class: "error" }, `This report's data could not be read: ${e instanceof Error ? e.message : String(e)}`),
    );
  document.body.dataset.state = "error";
});
