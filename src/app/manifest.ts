// Provenance (--manifest, evaluateFiles' `manifest`, the page): what was read and how evaluated, after
// ir-metadata.org's PONTE schema (`implementation`, `data`) plus `evaluation`. Browser-safe.
import type { Result } from "../pipeline/evaluate.js";

/** `bytes`, `sha256`: of the stored bytes (a .gz file's compressed ones, as sha256sum). */
export interface ManifestInput {
  role: "qrels" | "run";
  name: string;
  bytes: number;
  sha256: string;
  format: string;
  compression: "gzip" | "none";
}

export interface ManifestMeasure {
  name: string;
  tool: string;
  conventions: string;
}

export interface ManifestRun {
  name: string;
  runTag: string;
  queries: Result<string>["queries"];
}

export interface Manifest {
  implementation: {
    name: "rankeval";
    version: string;
    /** The CLI's arguments. */
    command?: string[];
    /** The library's or the page's options. */
    options?: Record<string, unknown>;
  };
  data: { inputs: ManifestInput[] };
  evaluation: {
    conventions: string;
    measures: ManifestMeasure[];
    runs: ManifestRun[];
    warnings: string[];
  };
}

export interface ManifestParts {
  version: string;
  command?: string[];
  options?: Record<string, unknown>;
  inputs: ManifestInput[];
  /** Conventions: the first run's. */
  rows: readonly { name: string; measure: string }[];
  runs: readonly { name: string; runTag: string; result: Result<string> }[];
  warnings: readonly string[];
}

export function manifestOf(parts: ManifestParts): Manifest {
  return {
    implementation: {
      name: "rankeval",
      version: parts.version,
      ...(parts.command ? { command: [...parts.command] } : {}),
      ...(parts.options ? { options: parts.options } : {}),
    },
    data: { inputs: parts.inputs },
    evaluation: {
      conventions: parts.runs[0]?.result.conventions ?? "",
      measures: parts.rows.map((r) => ({
        name: r.name,
        ...toolOf(parts.runs[0]?.result.measureConventions[r.measure] ?? ""),
      })),
      runs: parts.runs.map((r) => ({ name: r.name, runTag: r.runTag, queries: r.result.queries })),
      warnings: [...new Set(parts.warnings)],
    },
  };
}

/** "trec_eval: ties=docid" split at its tool. */
function toolOf(line: string) {
  const colon = line.indexOf(": ");
  return colon < 0
    ? { tool: line, conventions: "" }
    : { tool: line.slice(0, colon), conventions: line.slice(colon + 2) };
}

/** By name: .yaml/.yml, .json, else null. */
export function manifestFormat(file: string) {
  return /\.ya?ml$/i.test(file) ? "yaml" : /\.json$/i.test(file) ? "json" : null;
}

export function manifestText(m: Manifest, format: "yaml" | "json") {
  return format === "json" ? `${JSON.stringify(m, null, 2)}\n` : `${yamlLines(m, "").join("\n")}\n`;
}

type Yaml = string | number | boolean | null | undefined | readonly Yaml[] | { readonly [k: string]: Yaml };

/** YAML block style. Strings are JSON's (valid YAML), so none reads as a number, boolean or key. */
function yamlLines(v: Yaml | object, indent: string) {
  const lines: string[] = [];
  if (Array.isArray(v)) {
    for (const item of v as Yaml[]) {
      if (isBlock(item)) {
        const inner = yamlLines(item, `${indent}  `);
        lines.push(`${indent}- ${inner[0].slice(indent.length + 2)}`, ...inner.slice(1));
      } else lines.push(`${indent}- ${scalar(item)}`);
    }
    return lines;
  }
  for (const [k, x] of Object.entries(v as Record<string, Yaml>)) {
    if (x === undefined) continue;
    if (isBlock(x)) lines.push(`${indent}${key(k)}:`, ...yamlLines(x, `${indent}  `));
    else lines.push(`${indent}${key(k)}: ${scalar(x)}`);
  }
  return lines;
}

function isBlock(v: Yaml): v is readonly Yaml[] | { readonly [k: string]: Yaml } {
  return v !== null && typeof v === "object" && Object.keys(v).length > 0;
}

const key = (k: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k));

function scalar(v: Yaml) {
  if (Array.isArray(v)) return "[]";
  if (v !== null && typeof v === "object") return "{}";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : ".nan";
  return JSON.stringify(v ?? null);
}
