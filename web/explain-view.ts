// A query's drill-down (src/explain/) as HTML, and the queries that changed most: the page's and the
// report's. Tests read the data- attributes.
import type { Change } from "../src/explain/changes.js";
import type { ExplainedRow, Explanation } from "../src/explain/explain.js";
import { printValue, type ValuePrint } from "../src/app/value-print.js";

type Child = Node | string | null | undefined | false;

/** An element with attributes (null or false: left out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | null | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = String(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** A name with a <wbr> (copying leaves it out) after each "_", "@", "/", for headers to break at. */
export function breakable(name: string): (string | HTMLElement)[] {
  return name.split(/(?<=[_@/])/).flatMap((part, i) => (i ? [document.createElement("wbr"), part] : [part]));
}

/** A per-query table's sort: its column and direction. */
export type Sort = { key: string; dir: "asc" | "desc" } | null;

/** A per-query table's header cell; a click sorts by it (ascending, then descending) through `sortBy`. */
export function sortableHeader(c: { key: string; label: string }, sort: Sort, sortBy: (s: Sort) => void) {
  const th = h("th", { "data-key": c.key, "data-sort": sort?.key === c.key ? sort.dir : null }, ...breakable(c.label));
  th.addEventListener("click", () =>
    sortBy({ key: c.key, dir: sort?.key === c.key && sort.dir === "asc" ? "desc" : "asc" }),
  );
  return th;
}

const num = (v: number) => (Object.is(v, -0) ? "0" : String(v));

/** How a document moved against the other run (src/explain/text.ts's words). */
function moved(row: ExplainedRow): { text: string; cls: string } {
  if (row.otherRank === null) return { text: "new", cls: "new" };
  const d = row.otherRank - row.rank;
  return d > 0
    ? { text: `\u2191${d}`, cls: "up" }
    : d < 0
      ? { text: `\u2193${-d}`, cls: "down" }
      : { text: "=", cls: "same" };
}

export interface DrilldownOptions {
  /** The running values' measure key (default: the first). */
  measure?: string;
  /** Asks for more ranks (the page's; the report has all). */
  more?: (depth: number) => void;
}

/** As the page's per-query cells: tests read both alike. */
const cellData = (measure: string, run: string, qid: string, v: number | null) => ({
  "data-measure": measure,
  "data-run": run,
  "data-qid": qid,
  "data-query": qid,
  "data-value": v === null ? null : String(v),
});

/** A query's drill-down (a <section class="drilldown">). */
export function drilldownView(x: Explanation, o: DrilldownOptions = {}): HTMLElement {
  const measure = x.measures.find((m) => m.key === o.measure) ?? x.measures[0];
  const section = h("section", { class: "drilldown", "data-qid": x.qid, "data-measure": measure.name });
  const redraw = (key: string) => section.replaceWith(drilldownView(x, { ...o, measure: key }));
  const rule = x.rankings[measure.ranking];
  section.append(
    h("h3", {}, `Query ${x.qid}`),
    h(
      "p",
      { class: "dd-summary" },
      `${x.judged.count} judged documents, ${x.judged.relevant} relevant (label \u2265 ${rule.relevanceThreshold}). Ranked: ${rule.tieOrder}${rule.depth !== null ? `; top ${rule.depth} kept` : ""}${rule.judgedOnly ? "; judged documents only" : ""}; gain ${rule.gain}.`,
    ),
  );
  if (x.measures.length > 1) {
    const select = h(
      "select",
      { name: "dd-measure" },
      ...x.measures.map((m) => h("option", { value: m.key, selected: m.key === measure.key }, m.name)),
    );
    select.addEventListener("change", () => redraw(select.value));
    section.append(h("label", { class: "dd-pick" }, h("span", {}, "running value of "), select));
  }
  const values = h("table", { class: "dd-values" });
  values.append(
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "measure"),
        ...x.runs.map((r) => h("th", {}, r.name)),
        ...x.runs.slice(1).map((r) => h("th", {}, `${r.name} \u2212 ${x.runs[0].name}`)),
      ),
    ),
  );
  const vbody = h("tbody");
  for (const m of x.measures) {
    const tr = h("tr", { class: m.key === measure.key ? "chosen" : null }, h("td", {}, m.name));
    for (const r of x.runs)
      tr.append(
        h("td", cellData(m.name, r.name, x.qid, r.values[m.key]), r.printed[m.key] || (r.inRun ? "" : "not in run")),
      );
    for (const r of x.runs.slice(1)) {
      const a = x.runs[0].values[m.key];
      const b = r.values[m.key];
      const d = a === null || b === null ? null : b - a;
      tr.append(
        h(
          "td",
          { class: d === null ? null : d > 0 ? "up" : d < 0 ? "down" : null },
          d === null
            ? ""
            : `${d > 0 ? "+" : d < 0 ? "\u2212" : ""}${printValue(Math.abs(d), m.print === "long" ? "long" : "table")}`,
        ),
      );
    }
    vbody.append(tr);
  }
  values.append(vbody);
  section.append(h("div", { class: "scroll" }, values));

  const scroll = (run: string, rows: readonly ExplainedRow[], other: string | null, tieOrder: string) =>
    h(
      "div",
      { class: "scroll" },
      rankingTable(x, run, rows, measure.key, measure.print, measure.cutoff, other, tieOrder),
    );
  const rankings = h("div", { class: "dd-rankings" });
  x.runs.forEach((run, r) => {
    const ranking = run.rankings[measure.ranking];
    const other = x.other[r] === null ? null : x.runs[x.other[r]!].name;
    const shown = ranking.rows.length;
    const u = run.unretrieved;
    rankings.append(
      h(
        "div",
        { class: "dd-run", "data-run": run.name },
        h(
          "h4",
          {},
          run.name,
          " ",
          h("span", { class: "dd-value" }, `${measure.name} ${run.printed[measure.key] || "\u2014"}`),
        ),
        h(
          "p",
          { class: "dd-note" },
          run.inRun
            ? `${run.retrieved} retrieved${ranking.length !== run.retrieved ? `, ${ranking.length} ranked` : ""}; ranks 1\u2013${shown}${shown < ranking.length ? ` of ${ranking.length}` : ""}${run.unjudgedShown ? `; ${run.unjudgedShown} unjudged` : ""}.`
            : `No line for this query${run.values[measure.key] !== null ? ": evaluated as an empty ranking (-c)" : ": left out of this run's numbers"}.`,
        ),
        run.inRun && scroll(run.name, ranking.rows, other, rule.tieOrder),
        h(
          "p",
          { class: "dd-missing" },
          u.count === 0
            ? "Every judged document is retrieved."
            : `Judged but not retrieved: ${u.count}, ${u.relevantCount} relevant${u.relevantCount ? ": " : "."}`,
          ...u.relevant.flatMap((d, i) => [
            i ? ", " : "",
            h(
              "span",
              { class: "dd-doc", "data-docid": d.docid, "data-label": d.label },
              `${d.docid} (${num(d.label)})`,
            ),
          ]),
          u.relevantCount > u.relevant.length ? ", \u2026" : "",
        ),
      ),
    );
  });
  const idealValue = x.ideal.values[measure.key];
  rankings.append(
    h(
      "div",
      { class: "dd-run dd-ideal", "data-run": "ideal" },
      h(
        "h4",
        {},
        "ideal ranking ",
        h(
          "span",
          { class: "dd-value" },
          `${measure.name} ${idealValue === null ? "\u2014" : printValue(idealValue, measure.print)}`,
        ),
      ),
      h(
        "p",
        { class: "dd-note" },
        `The judged documents, higher labels first; ranks 1\u2013${x.ideal.rows.length} of ${x.ideal.length}.`,
      ),
      measure.ranking === 0 && scroll("ideal", x.ideal.rows, null, ""),
    ),
  );
  section.append(rankings);

  // A hovered document lit in every ranking.
  section.addEventListener("mouseover", (e) => {
    const docid = (e.target as Element).closest<HTMLElement>("[data-docid]")?.dataset.docid;
    for (const el of section.querySelectorAll<HTMLElement>(".lit")) el.classList.remove("lit");
    if (docid === undefined) return;
    for (const el of section.querySelectorAll<HTMLElement>("[data-docid]"))
      if (el.dataset.docid === docid) el.classList.add("lit");
  });
  const longest = Math.max(x.ideal.length, ...x.runs.map((r) => r.rankings[measure.ranking].length));
  if (o.more && x.depth < longest) {
    const button = h(
      "button",
      { type: "button", class: "dd-more" },
      `Show ${Math.min(x.depth, longest - x.depth)} more ranks`,
    );
    button.addEventListener("click", () => o.more!(Math.min(longest, 2 * x.depth)));
    section.append(button);
  }
  section.append(
    h(
      "p",
      { class: "dd-legend" },
      "Running value at rank i: the measure for the ranking cut after rank i (the value itself from its cutoff on). ",
      "Label \u2013: no judgment (unjudged). t1, t2, \u2026: equal scores. \u2191k / \u2193k: k ranks higher / lower than in the other run; new: not ranked there. The line under a rank: the measure's cutoff.",
    ),
  );
  return section;
}

function rankingTable(
  x: Explanation,
  run: string,
  rows: readonly ExplainedRow[],
  key: string,
  print: ValuePrint,
  cutoff: number,
  other: string | null,
  tieOrder: string,
): HTMLTableElement {
  const ideal = run === "ideal";
  const table = h("table", { class: "dd-ranking", "data-run": run });
  const name = x.measures.find((m) => m.key === key)!.name;
  const heads = [
    "rank",
    "docid",
    ...(ideal ? [] : ["score"]),
    "label",
    "gain",
    ...(ideal ? [] : ["tie"]),
    ...(other !== null ? ["other"] : []),
  ];
  table.append(
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ...heads.map((t) => h("th", { title: t === "other" ? `its rank in ${other}, and how far it moved` : null }, t)),
        h("th", { title: "the running value" }, name),
      ),
    ),
  );
  const body = h("tbody");
  for (const d of rows) {
    const m = moved(d);
    const classes = [
      d.relevant ? "rel" : "",
      d.label === null ? "unjudged" : "",
      d.tie !== null ? "tie" : "",
      d.rank === cutoff ? "cutoff" : "",
      other !== null && m.cls !== "same" ? "moved" : "",
    ]
      .filter(Boolean)
      .join(" ");
    const v = d.running[key];
    body.append(
      h(
        "tr",
        {
          class: classes || null,
          "data-rank": d.rank,
          "data-docid": d.docid,
          "data-label": d.label === null ? "" : num(d.label),
        },
        h("td", {}, String(d.rank)),
        h("td", { class: "docid" }, d.docid),
        ideal ? null : h("td", {}, num(d.score)),
        h("td", { title: d.label === null ? "no judgment" : null }, d.label === null ? "\u2013" : num(d.label)),
        h("td", {}, num(d.gain)),
        ideal
          ? null
          : h("td", { class: "tie-mark", title: d.tie !== null ? tieOrder : null }, d.tie === null ? "" : `t${d.tie}`),
        other !== null
          ? h("td", { class: `move ${m.cls}` }, d.otherRank === null ? "new" : `${d.otherRank} ${m.text}`)
          : null,
        h("td", { class: "running", ...cellData(name, run, x.qid, v) }, v === null ? "" : printValue(v, print)),
      ),
    );
  }
  table.append(body);
  return table;
}

/** The queries that lost and gained most, each a button to `open` its drill-down (where `has`). */
export function changesView(
  measure: string,
  baseline: string,
  run: string,
  lists: { lost: readonly Change[]; gained: readonly Change[] },
  print: ValuePrint,
  open: (qid: string) => void,
  has: (qid: string) => boolean = () => true,
): HTMLElement {
  const list = (title: string, kind: string, items: readonly Change[]) => {
    const table = h("table", {
      class: `changes ${kind}`,
      "data-measure": measure,
      "data-baseline": baseline,
      "data-run": run,
    });
    table.append(h("caption", {}, title));
    table.append(
      h("thead", {}, h("tr", {}, h("th", {}, "qid"), h("th", {}, baseline), h("th", {}, run), h("th", {}, "diff"))),
    );
    const body = h("tbody");
    for (const c of items) {
      const button = h(
        "button",
        {
          type: "button",
          class: "qid-link",
          "data-qid": c.qid,
          disabled: !has(c.qid),
          title: has(c.qid) ? "open its drill-down" : "no drill-down of this query here",
        },
        c.qid,
      );
      button.addEventListener("click", () => open(c.qid));
      body.append(
        h(
          "tr",
          { "data-qid": c.qid },
          h("td", {}, button),
          h("td", {}, printValue(c.baseline, print)),
          h("td", {}, printValue(c.run, print)),
          h(
            "td",
            { class: c.difference > 0 ? "up" : "down" },
            `${c.difference > 0 ? "+" : "\u2212"}${printValue(Math.abs(c.difference), print === "long" ? "long" : "table")}`,
          ),
        ),
      );
    }
    if (!items.length) body.append(h("tr", {}, h("td", { colspan: 4 }, "none")));
    table.append(body);
    return table;
  };
  return h(
    "div",
    { class: "changes-lists" },
    list(`${run} lost most against ${baseline} (${measure})`, "lost", lists.lost),
    list(`${run} gained most against ${baseline} (${measure})`, "gained", lists.gained),
  );
}

/** The drill-downs' style (page and report). */
export const DRILLDOWN_CSS = `
.drilldown { border-top: 2px solid #2a6df4; margin-top: 1rem; padding-top: 0.5rem; }
.drilldown h3 { margin: 0.3rem 0; font-size: 1.05rem; }
.drilldown .dd-summary, .drilldown .dd-note, .drilldown .dd-legend, .drilldown .dd-missing { color: #555; font-size: 0.85rem; margin: 0.3rem 0; }
.drilldown .dd-rankings { display: flex; flex-wrap: wrap; gap: 1.2rem; align-items: flex-start; }
.drilldown .dd-run { flex: 0 1 auto; min-width: 0; }
.drilldown h4 { margin: 0.6rem 0 0.2rem; font-size: 0.95rem; font-family: ui-monospace, monospace; }
.drilldown .dd-value { font-weight: normal; color: #2a6df4; }
.drilldown table { font-size: 0.8rem; margin-top: 0.3rem; }
.drilldown th, .drilldown td { padding: 0.1rem 0.35rem; white-space: nowrap; }
.drilldown td.docid { text-align: left; }
.drilldown tr.rel td:first-child { box-shadow: inset 3px 0 #2e8540; }
.drilldown tr.unjudged td { color: #888; font-style: italic; }
.drilldown td.tie-mark { color: #8a5a00; }
.drilldown tr.cutoff td { border-bottom: 2px solid #2a6df4; }
.drilldown tr.moved td.move { font-weight: 600; }
.drilldown td.move.up, .drilldown td.up { color: #2e8540; }
.drilldown td.move.down, .drilldown td.down { color: #c0392b; }
.drilldown td.move.new { color: #2a6df4; }
.drilldown .lit td, .drilldown .dd-doc.lit { background: #fff3c4; }
.drilldown tr.chosen td { font-weight: 600; }
.drilldown .dd-more { margin-top: 0.5rem; }
.changes-lists { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.changes { font-size: 0.85rem; }
.changes caption { text-align: left; color: #555; font-size: 0.85rem; padding-bottom: 0.2rem; }
.changes td.up { color: #2e8540; } .changes td.down { color: #c0392b; }
button.qid-link { font: inherit; font-family: ui-monospace, monospace; background: none; border: none; padding: 0; color: #2a6df4; cursor: pointer; text-decoration: underline; }
button.qid-link:disabled { color: #555; text-decoration: none; cursor: default; }
`;
