// A run's provenance (--manifest, evaluateFiles' `manifest`, the page's download): what rankeval read
// and how it evaluated it, in ir_metadata's spirit (ir-metadata.org, the PONTE schema: `implementation`
// for the software, `data` for what it read) with `evaluation` for the measures and their outcome.
// Browser-safe: the faces hash and describe their inputs; this builds the one object and writes it as
// YAML or JSON (the same keys).
import type { Result } from "../pipeline/evaluate.js";

/** One input as read: its name as given, its stored bytes' size and SHA-256 (a .gz file's compressed bytes, as sha256sum's). */
export interface ManifestInput {
  role: "qrels" | "run";
  name: string;
  bytes: number;
  sha256: string;
  /** The format it was parsed as (trec, json, csv, tsv, parquet, arrow, msmarco). */
  format: string;
  compression: "gzip" | "none";
}

/** A measure as computed: its name as reported, its tool, its conventions (measureConventions, split at the tool). */
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
    /** The command line's arguments (after `rankeval`). */
    command?: string[];
    /** The library's or the page's options, as given. */
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

/** What a face knows after its evaluation, for `manifestOf`. */
export interface ManifestParts {
  version: string;
  command?: string[];
  options?: Record<string, unknown>;
  inputs: ManifestInput[];
  /** The plan's rows reported (their conventions: the first run's measureConventions). */
  rows: readonly { name: string; measure: string }[];
  runs: readonly { name: string; runTag: string; result: Result<string> }[];
  warnings: readonly string[];
}

/** The manifest of one evaluation: the same object whatever face made it. */
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
      // Each said once, in the order first said.
      warnings: [...new Set(parts.warnings)],
    },
  };
}

/** A measureConventions line split at its tool: "trec_eval: ties=docid" is trec_eval's, with "ties=docid". */
function toolOf(line: string): { tool: string; conventions: string } {
  const colon = line.indexOf(": ");
  return colon < 0
    ? { tool: line, conventions: "" }
    : { tool: line.slice(0, colon), conventions: line.slice(colon + 2) };
}

/** The manifest's formats, by a file's name: YAML (.yaml, .yml) or JSON (.json); null for another name. */
export function manifestFormat(file: string): "yaml" | "json" | null {
  return /\.ya?ml$/i.test(file) ? "yaml" : /\.json$/i.test(file) ? "json" : null;
}

/** The manifest as written, in `format`, ending with a newline. */
export function manifestText(m: Manifest, format: "yaml" | "json"): string {
  return format === "json" ? `${JSON.stringify(m, null, 2)}\n` : `${yamlLines(m, "").join("\n")}\n`;
}

type Yaml = string | number | boolean | null | undefined | readonly Yaml[] | { readonly [k: string]: Yaml };

/**
 * YAML's block style of a JSON value. Every string is double-quoted as JSON writes it (a JSON string
 * is a YAML double-quoted scalar), so no name or warning can be read as a number, a boolean or a key.
 */
function yamlLines(v: Yaml | object, indent: string): string[] {
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

/** A non-empty array or object: written as a block below its key. */
function isBlock(v: Yaml): v is readonly Yaml[] | { readonly [k: string]: Yaml } {
  return v !== null && typeof v === "object" && Object.keys(v).length > 0;
}

const key = (k: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k));

function scalar(v: Yaml): string {
  if (Array.isArray(v)) return "[]";
  if (v !== null && typeof v === "object") return "{}";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : ".nan";
  return JSON.stringify(v ?? null);
}
