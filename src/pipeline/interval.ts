// Result.interval: Student's t (scipy.stats.t.interval) or a seeded bootstrap percentile interval.
import { checkOptions, oneOf, PROBABILITY, SEED, usageError, type OptionType } from "../errors/errors.js";
import { kernelBootstrapSums } from "../kernel/significance-kernel.js";
import type { Aggregate } from "../measures/measure.js";
import type { IntervalOptions } from "../measures/options.js";
import { tIntervalOf } from "../stats/dists.js";
import { npMean, npVarDdof1, quantileSorted } from "../stats/numeric.js";

/** [lower, upper]; NaN where fewer than 2 queries count. */
export type Interval = readonly [number, number];

export type IntervalSettings = Required<IntervalOptions>;

export const DEFAULT_INTERVAL: Readonly<IntervalSettings> = Object.freeze({
  level: 0.95,
  method: "t",
  samples: 10_000,
  seed: 42,
});

const SAMPLES: OptionType = {
  test: (v) => typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 10_000_000,
  is: "an integer from 1 to 10000000",
};

/** "95% t interval", "90% bootstrap percentile interval (10000 resamples, seed 42)". */
export function describeInterval(settings: Readonly<IntervalSettings> = DEFAULT_INTERVAL): string {
  const level = `${+(settings.level * 100).toPrecision(10)}%`;
  return settings.method === "t"
    ? `${level} t interval`
    : `${level} bootstrap percentile interval (${settings.samples} resamples, seed ${settings.seed})`;
}

/** Made once: each call made its own (a small evaluate() built the "t" or "bootstrap" message). */
const INTERVAL_TYPES = { level: PROBABILITY, method: oneOf(["t", "bootstrap"]), samples: SAMPLES, seed: SEED };

export function intervalSettings(options: IntervalOptions | undefined): IntervalSettings {
  const o = checkOptions(options, INTERVAL_TYPES, "interval");
  if (o.method === undefined && (o.samples !== undefined || o.seed !== undefined) && options !== undefined)
    throw usageError(`interval: samples and seed are the bootstrap's: give method: "bootstrap" with them`);
  return { ...DEFAULT_INTERVAL, ...o };
}

/** The non-NaN values. */
function counted(values: ArrayLike<number>): Float64Array {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === values[i]) n++;
  if (n === values.length && values instanceof Float64Array) return values;
  const kept = new Float64Array(n);
  let j = 0;
  for (let i = 0; i < values.length; i++) if (values[i] === values[i]) kept[j++] = values[i];
  return kept;
}

/** The t interval of the non-NaN values' mean, numpy's arithmetic; under 2 values [NaN, NaN], as scipy. */
export function tInterval(values: ArrayLike<number>, level = DEFAULT_INTERVAL.level): Interval {
  const kept = counted(values);
  const n = kept.length;
  if (n < 2) return [NaN, NaN];
  const mean = npMean(kept);
  return tIntervalOf(mean, npVarDdof1(kept, mean), n, level);
}

/** Each mean's interval; bootstrap columns counting the same queries share resamples (numpy's linear quantile). */
export function intervalsOf(
  values: Readonly<Record<string, Float64Array>>,
  aggregates: (key: string) => Aggregate,
  settings: Readonly<IntervalSettings> = DEFAULT_INTERVAL,
): Record<string, Interval> {
  const out: Record<string, Interval> = {};
  if (settings.method === "t") {
    // No list of keys made: every evaluate() takes these.
    for (const k in values)
      if (Object.hasOwn(values, k) && aggregates(k) === "mean") out[k] = tInterval(values[k], settings.level);
    return out;
  }
  const keys = Object.keys(values).filter((k) => aggregates(k) === "mean");
  const groups = new Map<string, { keys: string[]; columns: Float64Array[] }>();
  for (const k of keys) {
    const v = values[k];
    const kept = counted(v);
    const signature = kept === v ? "all" : nanPattern(v);
    let g = groups.get(signature);
    if (!g) groups.set(signature, (g = { keys: [], columns: [] }));
    g.keys.push(k);
    g.columns.push(kept);
  }
  const lowerQ = (1 - settings.level) / 2;
  const upperQ = (1 + settings.level) / 2;
  for (const { keys: ks, columns } of groups.values()) {
    const n = columns[0].length;
    if (n < 2) {
      for (const k of ks) out[k] = [NaN, NaN];
      continue;
    }
    const sums = kernelBootstrapSums(columns, n, settings.samples, settings.seed);
    ks.forEach((k, c) => {
      const means = sums[c].map((s) => s / n).sort();
      out[k] = [quantileSorted(means, lowerQ), quantileSorted(means, upperQ)];
    });
  }
  return out;
}

function nanPattern(values: Float64Array): string {
  let s = "";
  for (let i = 0; i < values.length; i++) s += values[i] === values[i] ? "1" : "0";
  return s;
}

/** `result` with its intervals taken again under `settings`. */
export function withIntervals<
  R extends { values: Readonly<Record<string, Float64Array>>; interval: Record<string, Interval> },
>(result: R, settings: Readonly<IntervalSettings> = DEFAULT_INTERVAL): R {
  const values = Object.fromEntries(Object.keys(result.interval).map((k) => [k, result.values[k]]));
  return { ...result, interval: intervalsOf(values, () => "mean", settings) };
}
