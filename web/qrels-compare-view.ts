// --qrels-compare's HTML report (issue 38), drawn by web/report-view.ts: per measure the runs' means under
// A and under B as the text prints them, a scatter of them, the taus (and why any is undefined); then the
// agreement of A and B and its confusion matrix.
import type { QrelsCompareReport } from "../src/output/html/data.js";
import { el } from "./charts.js";
import { h } from "./explain-view.js";

const SIZE = 260;
const PAD = 34;

/** Each run's mean under A (across) against under B (up), on one scale, with the diagonal where they agree. */
function scatter(measure: string, runs: readonly string[], points: QrelsCompareReport["measures"][number]["points"]) {
  const shown = points.flatMap((p, i) => (p ? [{ run: runs[i], a: p[0], b: p[1] }] : []));
  const values = shown.flatMap((p) => [p.a, p.b]);
  const lo = Math.min(0, ...values);
  const hi = Math.max(lo + 1e-9, ...values);
  const at = (v: number) => PAD + ((v - lo) / (hi - lo)) * (SIZE - 2 * PAD);
  const svg = el("svg", {
    viewBox: `0 0 ${SIZE} ${SIZE}`,
    role: "img",
    "aria-label": `${measure}: each run's mean under A against under B`,
  });
  const y = (v: number) => SIZE - at(v);
  svg.append(
    el("line", { class: "axis", x1: at(lo), y1: y(lo), x2: at(hi), y2: y(lo) }),
    el("line", { class: "axis", x1: at(lo), y1: y(lo), x2: at(lo), y2: y(hi) }),
    el("line", { class: "diagonal", x1: at(lo), y1: y(lo), x2: at(hi), y2: y(hi) }),
    el("text", { x: SIZE - PAD, y: SIZE - 8, "text-anchor": "end" }, `A ${hi.toFixed(2)}`),
    el("text", { x: 4, y: PAD - 8, "text-anchor": "start" }, `B ${hi.toFixed(2)}`),
    el("text", { x: PAD, y: SIZE - 8, "text-anchor": "start" }, lo.toFixed(2)),
  );
  for (const p of shown) {
    const dot = el("circle", { class: "run", cx: at(p.a), cy: y(p.b), r: 4, "data-run": p.run });
    dot.append(el("title", {}, p.run));
    svg.append(dot);
  }
  return svg;
}

export function qrelsCompareView(q: QrelsCompareReport): HTMLElement {
  const section = h("section", { id: "qrels-compare" }, h("p", { id: "qc-sets" }, `A: ${q.a}`, h("br"), `B: ${q.b}`));
  for (const m of q.measures) {
    const table = h(
      "table",
      { class: "qc-runs" },
      h("thead", {}, h("tr", {}, ...m.header.map((x, k) => h("th", { class: k === 0 ? "name" : null }, x)))),
      h(
        "tbody",
        {},
        ...m.rows.map((cells) =>
          h(
            "tr",
            { "data-run": cells[0] },
            ...cells.map((x, k) => h("td", { class: k === 0 ? "name" : null, "data-column": m.header[k] }, x)),
          ),
        ),
      ),
    );
    const taus = h(
      "table",
      { class: "qc-taus" },
      h(
        "tbody",
        {},
        ...m.taus.map((t) =>
          h(
            "tr",
            { "data-tau": t.name },
            h("td", {}, t.name),
            h("td", { class: "value" }, t.value),
            h("td", { class: "note" }, [t.note, t.why === null ? "" : `undefined: ${t.why}`].filter(Boolean).join(" ")),
          ),
        ),
      ),
    );
    section.append(
      h(
        "div",
        { class: "qc-measure", "data-measure": m.measure },
        h("h2", {}, m.measure),
        h(
          "div",
          { class: "qc-body" },
          h("div", { class: "scroll" }, table, taus),
          h(
            "figure",
            { class: "qc-scatter" },
            scatter(m.measure, q.runs, m.points),
            h(
              "figcaption",
              {},
              `${m.measure}: each run's mean under A (across) and under B (up); on the diagonal they agree`,
            ),
          ),
        ),
      ),
    );
  }
  const agreement = h(
    "table",
    { id: "qc-agreement" },
    h(
      "tbody",
      {},
      ...q.agreement.map(([name, v]) => h("tr", { "data-name": name }, h("td", {}, name), h("td", {}, v))),
    ),
  );
  section.append(
    h("h2", {}, "Agreement of A and B"),
    agreement,
    ...q.agreementNotes.map((n) => h("p", { class: "warning" }, n)),
  );
  if (q.confusion) {
    const c = q.confusion;
    section.append(
      h("p", { class: "qc-legend" }, "Confusion over the shared pairs: A's categories down the rows, B's across."),
      // Many categories (decimal labels without --bins) scroll across rather than squeeze.
      h(
        "div",
        { class: "scroll" },
        h(
          "table",
          { id: "qc-confusion" },
          h("thead", {}, h("tr", {}, h("th", {}, "A \\ B"), ...c.labels.map((l) => h("th", {}, l)))),
          h(
            "tbody",
            {},
            ...c.matrix.map((row, i) =>
              h("tr", {}, h("td", {}, c.labels[i]), ...row.map((n) => h("td", {}, String(n)))),
            ),
          ),
        ),
      ),
    );
  }
  return section;
}
