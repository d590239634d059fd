// The precision-recall figure (page and report) of src/app/curve.ts's curves.
import type { CurvePoint } from "../src/app/curve.js";
import { counted } from "../src/errors/counted.js";
import { fixed } from "../src/trec/format.js";
import { el } from "./charts.js";

/** null: not computed, left out. */
interface NamedCurve {
  readonly name: string;
  readonly curve?: readonly CurvePoint[] | null;
}

const W = 480;
const PAD = { left: 52, right: 12, top: 10, bottom: 40 };
const PLOT_H = 240;
const LEGEND_LINE = 16;
/** Run colours, in order (then again, dashed). */
const COLOURS = ["#2a6df4", "#c0392b", "#2e8540", "#8a5a00", "#7b3fb5", "#0f8a8a", "#555555"];

/** Per run a line and a circle per level (`data-precision`: unrounded); NaN: no circle, a break. */
function precisionRecallSvg(curves: readonly { name: string; curve: readonly CurvePoint[] }[]): SVGSVGElement {
  const plotW = W - PAD.left - PAD.right;
  const legendTop = PAD.top + PLOT_H + PAD.bottom;
  const H = legendTop + curves.length * LEGEND_LINE + 4;
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": "interpolated precision at 11 recall levels, by run",
    "data-chart": "precision-recall",
  });
  const x = (recall: number) => PAD.left + recall * plotW;
  const y = (precision: number) => PAD.top + (1 - precision) * PLOT_H;
  for (let t = 0; t <= 5; t++) {
    const v = t / 5;
    svg.append(
      el("line", { class: "grid", x1: x(0), y1: y(v), x2: x(1), y2: y(v) }),
      el("text", { x: x(0) - 4, y: y(v) + 4, "text-anchor": "end" }, v.toFixed(1)),
      el("text", { x: x(v), y: y(0) + 14, "text-anchor": "middle" }, v.toFixed(1)),
    );
  }
  svg.append(
    el("line", { class: "axis", x1: x(0), y1: y(0), x2: x(1), y2: y(0) }),
    el("line", { class: "axis", x1: x(0), y1: y(0), x2: x(0), y2: y(1) }),
    el("text", { class: "axis-label", x: x(0.5), y: y(0) + 32, "text-anchor": "middle" }, "recall"),
  );
  const yMid = y(0.5);
  svg.append(
    el(
      "text",
      { class: "axis-label", x: 14, y: yMid, "text-anchor": "middle", transform: `rotate(-90 14 ${yMid})` },
      "interpolated precision",
    ),
  );
  curves.forEach((c, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const dash: Record<string, string> = i >= COLOURS.length ? { "stroke-dasharray": "5 3" } : {};
    let d = "";
    let pen = "M";
    for (const p of c.curve) {
      if (Number.isNaN(p.precision)) pen = "M";
      else {
        d += `${pen}${x(p.recall).toFixed(1)},${y(p.precision).toFixed(1)}`;
        pen = "L";
      }
    }
    svg.append(el("path", { class: "pr-line", d, fill: "none", stroke: colour, "stroke-width": 1.5, ...dash }));
    for (const p of c.curve) {
      if (Number.isNaN(p.precision)) continue;
      const dot = el("circle", {
        class: "pr-point",
        cx: x(p.recall).toFixed(1),
        cy: y(p.precision).toFixed(1),
        r: 3,
        fill: colour,
        "data-run": c.name,
        "data-recall": p.recall,
        "data-precision": p.precision,
      });
      dot.append(el("title", {}, `${c.name}: precision ${fixed(p.precision)} at recall ${fixed(p.recall, 2)}`));
      svg.append(dot);
    }
    const ly = legendTop + i * LEGEND_LINE;
    const item = el("g", { class: "legend", "data-run": c.name });
    item.append(
      el("line", { x1: x(0), y1: ly + 8, x2: x(0) + 18, y2: ly + 8, stroke: colour, "stroke-width": 2, ...dash }),
      el("text", { x: x(0) + 24, y: ly + 12 }, c.name),
    );
    svg.append(item);
  });
  return svg;
}

/** The runs' curves (all or none have one: shared options) and caption; null where none. */
export function precisionRecallFigure(runs: readonly NamedCurve[]): { svg: SVGSVGElement; caption: string } | null {
  const drawn = runs.flatMap((r) => (r.curve ? [{ name: r.name, curve: r.curve }] : []));
  if (!drawn.length) return null;
  const caption =
    `Interpolated precision at recall 0, 0.1, …, 1 (trec_eval's iprec_at_recall_0.00 … _1.00): ` +
    `the mean over each run's queries, ${counted(drawn.length, "run")}.`;
  return { svg: precisionRecallSvg(drawn), caption };
}
