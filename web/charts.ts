// The charts as plain SVG; bins and differences are plain functions, tested without a browser.
import { counted } from "../src/errors/counted.js";
import type { MeanDifference } from "../src/output/html/data.js";
import { fixed, signed } from "../src/trec/format.js";

export interface Bin {
  lo: number;
  hi: number;
  count: number;
}

/** `values` (NaN left out) in `count` bins over [0, 1] if all lie there, else [min, max]; the last closed. */
export function histogramBins(values: ArrayLike<number>, count = 20): { bins: Bin[]; nan: number } {
  let min = Infinity;
  let max = -Infinity;
  let nan = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) nan++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min === Infinity) return { bins: [], nan };
  const [lo, hi] = min >= 0 && max <= 1 ? [0, 1] : [min, max];
  const n = hi > lo ? count : 1;
  const width = (hi - lo) / n || 1;
  const bins: Bin[] = Array.from({ length: n }, (_, i) => ({
    lo: lo + i * width,
    hi: i === n - 1 ? hi : lo + (i + 1) * width,
    count: 0,
  }));
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isNaN(v)) bins[Math.min(n - 1, Math.floor((v - lo) / width))].count++;
  }
  return { bins, nan };
}

export interface Differences {
  /** b − a where both have a number, largest first. */
  sorted: Float64Array;
  qids: string[];
  better: number;
  worse: number;
  equal: number;
  mean: number;
}

/** Per-query b − a over the shared qids (NaN left out). */
export function differences(
  a: { qids: readonly string[]; values: ArrayLike<number> },
  b: { qids: readonly string[]; values: ArrayLike<number> },
): Differences {
  const index = new Map<string, number>();
  a.qids.forEach((q, i) => index.set(q, i));
  const out: number[] = [];
  const at: number[] = [];
  for (let j = 0; j < b.qids.length; j++) {
    const i = index.get(b.qids[j]);
    if (i === undefined) continue;
    const d = b.values[j] - a.values[i];
    if (!Number.isNaN(d)) {
      out.push(d);
      at.push(j);
    }
  }
  // Stable: ties in b's order.
  const order = out.map((_, k) => k).sort((x, y) => out[y] - out[x]);
  const sorted = Float64Array.from(order, (k) => out[k]);
  const qids = order.map((k) => b.qids[at[k]]);
  let better = 0;
  let worse = 0;
  let sum = 0;
  for (const d of sorted) {
    if (d > 0) better++;
    else if (d < 0) worse++;
    sum += d;
  }
  return {
    sorted,
    qids,
    better,
    worse,
    equal: sorted.length - better - worse,
    mean: sorted.length ? sum / sorted.length : NaN,
  };
}

/** The Differences.sorted index drawn at `clientX`, or null outside the plot. */
export function differenceAt(svg: SVGSVGElement, clientX: number, n: number): number | null {
  const box = svg.getBoundingClientRect();
  if (!box.width || n === 0) return null;
  const x = ((clientX - box.left) / box.width) * W;
  const plotW = W - PAD.left - PAD.right;
  if (x < PAD.left || x > PAD.left + plotW) return null;
  return Math.min(n - 1, Math.floor(((x - PAD.left) / plotW) * n));
}

const SVG = "http://www.w3.org/2000/svg";
const W = 480;
const H = 200;
const PAD = { left: 44, right: 8, top: 8, bottom: 24 };
const plotW = W - PAD.left - PAD.right;
const plotH = H - PAD.top - PAD.bottom;
const yLabel = (y: number, text: string) => el("text", { x: PAD.left - 4, y, "text-anchor": "end" }, text);

/** An SVG element with attributes and text. */
export function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

const label = (v: number) => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));

export function histogramSvg(bins: readonly Bin[]): SVGSVGElement {
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "histogram of per-query values" });
  const peak = Math.max(1, ...bins.map((b) => b.count));
  const bw = plotW / Math.max(1, bins.length);
  bins.forEach((b, i) => {
    const h = (b.count / peak) * plotH;
    const rect = el("rect", {
      class: "bar",
      x: PAD.left + i * bw + 0.5,
      y: PAD.top + plotH - h,
      width: Math.max(1, bw - 1),
      height: h,
      "data-lo": b.lo,
      "data-hi": b.hi,
      "data-count": b.count,
    });
    rect.append(el("title", {}, `${label(b.lo)} to ${label(b.hi)}: ${counted(b.count, "query", "queries")}`));
    svg.append(rect);
  });
  svg.append(el("line", { class: "axis", x1: PAD.left, y1: PAD.top + plotH, x2: W - PAD.right, y2: PAD.top + plotH }));
  if (bins.length) {
    svg.append(
      el("text", { x: PAD.left, y: H - 6, "text-anchor": "start" }, label(bins[0].lo)),
      el("text", { x: W - PAD.right, y: H - 6, "text-anchor": "end" }, label(bins[bins.length - 1].hi)),
    );
  }
  svg.append(yLabel(PAD.top + 10, String(peak)), yLabel(PAD.top + plotH, "0"));
  return svg;
}

/** b − a's mean and 95% t interval, from intervals holding each pair once (reversed: negated). */
export function intervalOf(intervals: readonly MeanDifference[], measure: string, a: string, b: string) {
  for (const x of intervals) {
    if (x.measure !== measure) continue;
    if (x.baseline === a && x.run === b) return x;
    if (x.baseline === b && x.run === a) {
      return { ...x, baseline: a, run: b, difference: -x.difference, ci95: [-x.ci95[1], -x.ci95[0]] as const };
    }
  }
  return undefined;
}

/**
 * The sorted differences as areas above and below zero, sampled per pixel column when dense. `mean`: a
 * dashed line and a 95% band, clipped (from few queries it can be wider than the differences).
 */
export function differenceSvg(d: Differences, mean?: MeanDifference): SVGSVGElement {
  const interval = mean && { mean: mean.difference, lo: mean.ci95[0], hi: mean.ci95[1] };
  const svg = el("svg", {
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": "per-query differences",
    "data-better": d.better,
    "data-worse": d.worse,
    "data-equal": d.equal,
    "data-n": d.sorted.length,
  });
  const n = d.sorted.length;
  let span = 0;
  for (const v of d.sorted) span = Math.max(span, Math.abs(v));
  span ||= 1;
  const y = (v: number) => PAD.top + plotH / 2 - (v / span) * (plotH / 2);
  const zero = y(0);
  const steps = Math.min(n, plotW * 2);
  const points: [number, number][] = [];
  for (let s = 0; s < steps; s++) {
    const i = Math.floor((s * n) / steps);
    points.push([PAD.left + (s / steps) * plotW, d.sorted[i]]);
    points.push([PAD.left + ((s + 1) / steps) * plotW, d.sorted[i]]);
  }
  const area = (keep: (v: number) => boolean) => {
    let path = "";
    for (const [x, v] of points) path += `${path ? "L" : "M"}${x.toFixed(1)},${(keep(v) ? y(v) : zero).toFixed(1)}`;
    return path ? `${path}L${(PAD.left + plotW).toFixed(1)},${zero.toFixed(1)}L${PAD.left},${zero.toFixed(1)}Z` : "";
  };
  svg.append(
    el("path", { class: "better", d: area((v) => v > 0) }),
    el("path", { class: "worse", d: area((v) => v < 0) }),
    el("line", { class: "axis", x1: PAD.left, y1: zero, x2: W - PAD.right, y2: zero }),
  );
  if (interval && Number.isFinite(interval.mean)) {
    const clip = (v: number) => Math.min(PAD.top + plotH, Math.max(PAD.top, y(v)));
    if (Number.isFinite(interval.lo) && Number.isFinite(interval.hi)) {
      const top = clip(interval.hi);
      const band = el("path", {
        class: "interval",
        d: `M${PAD.left},${top.toFixed(1)}H${W - PAD.right}V${clip(interval.lo).toFixed(1)}H${PAD.left}Z`,
        "data-lo": interval.lo,
        "data-hi": interval.hi,
      });
      band.append(
        el("title", {}, `95% interval of the mean difference: [${fixed(interval.lo)}, ${fixed(interval.hi)}]`),
      );
      svg.append(band);
    }
    const at = clip(interval.mean).toFixed(1);
    const line = el("line", {
      class: "mean",
      x1: PAD.left,
      y1: at,
      x2: W - PAD.right,
      y2: at,
      "data-mean": interval.mean,
    });
    line.append(el("title", {}, `mean difference: ${fixed(interval.mean)}`));
    svg.append(line);
  }
  svg.append(
    yLabel(PAD.top + 10, `+${label(span)}`),
    yLabel(PAD.top + plotH, `−${label(span)}`),
    yLabel(zero + 4, "0"),
    el(
      "text",
      { x: W - PAD.right, y: H - 6, "text-anchor": "end" },
      `${counted(n, "query", "queries")}, most improved first`,
    ),
  );
  return svg;
}

/** Sorts rows (indexes into `qids`) in place by `value` (missing or NaN last), else by qid. */
export function sortRows(
  rows: number[],
  qids: readonly string[],
  value: ((k: number) => number | undefined) | null,
  dir: "asc" | "desc",
) {
  const byQid = new Intl.Collator(undefined, { numeric: true }).compare;
  const missing = (v: number | undefined) => v === undefined || Number.isNaN(v);
  const cmp = (a: number, b: number): number => {
    if (!value) return byQid(qids[a], qids[b]);
    const x = value(a);
    const y = value(b);
    if (missing(x) || missing(y)) return missing(x) === missing(y) ? 0 : missing(x) ? 1 : -1;
    return x! - y!;
  };
  return rows.sort((a, b) => (dir === "asc" ? cmp(a, b) : -cmp(a, b)));
}

export function histogramFigure(values: ArrayLike<number>, what: string): { svg: SVGSVGElement; caption: string } {
  const { bins, nan } = histogramBins(values);
  const caption = `${what} over ${counted(values.length - nan, "query", "queries")}${nan ? ` (${nan} NaN not shown)` : ""}`;
  return { svg: histogramSvg(bins), caption };
}

/** Run b minus a per query (a click calls `open`), with the mean and interval from `intervals`. */
export function differenceFigure(
  measure: string,
  a: { name: string; qids: readonly string[]; values: ArrayLike<number> },
  b: { name: string; qids: readonly string[]; values: ArrayLike<number> },
  intervals: readonly MeanDifference[],
  open: (qid: string) => void,
): { svg: SVGSVGElement; caption: string } {
  const d = differences(a, b);
  const interval = intervalOf(intervals, measure, a.name, b.name);
  const svg = differenceSvg(d, interval);
  svg.addEventListener("click", (e) => {
    const i = differenceAt(svg, e.clientX, d.sorted.length);
    if (i !== null) open(d.qids[i]);
  });
  svg.style.cursor = "pointer";
  const mean = interval
    ? `; mean difference ${signed(interval.difference)}, 95% interval [${fixed(interval.ci95[0])}, ${fixed(interval.ci95[1])}] (t, n = ${interval.n})`
    : Number.isNaN(d.mean)
      ? ""
      : `; mean difference ${signed(d.mean)}`;
  const caption = `${measure}: ${b.name} minus ${a.name}: better on ${d.better}, worse on ${d.worse}, equal on ${counted(d.equal, "query", "queries")}${mean}`;
  return { svg, caption };
}
