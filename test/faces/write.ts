// An input set written in each format the project reads: TREC text, MS MARCO (runs), CSV, TSV, JSON,
// Parquet, Arrow, and gzip of each. Every format holds the same rows, in the same order, with the
// same values: whatever a face prints for one it must print for the others.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { RecordBatchFileWriter, tableFromArrays } from "apache-arrow";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { InputSet, Judgment, Ranked, RunSet } from "./generate.js";

export const FORMATS = ["trec", "msmarco", "csv", "tsv", "json", "parquet", "arrow"] as const;
export type Format = (typeof FORMATS)[number];

export interface Written {
  readonly qrels: string;
  readonly runs: string[];
}

const EXTENSION: Record<Format, string> = {
  trec: "",
  // MS MARCO's runs come as .tsv without a header (run.dev.small.tsv): told by their first line's 3 fields.
  msmarco: ".tsv",
  csv: ".csv",
  tsv: ".tsv",
  json: ".json",
  parquet: ".parquet",
  arrow: ".arrow",
};

function delimited(sep: string, header: string[], rows: string[][]): string {
  return `${header.join(sep)}\n${rows.map((r) => r.join(sep)).join("\n")}\n`;
}

function jsonOf(rows: readonly { qid: string; docid: string }[], value: (i: number) => string): string {
  // Written by hand: the values as the other formats write them, the queries in the rows' order.
  const byQuery = new Map<string, string[]>();
  rows.forEach((r, i) => {
    let q = byQuery.get(r.qid);
    if (!q) byQuery.set(r.qid, (q = []));
    q.push(`${JSON.stringify(r.docid)}: ${value(i)}`);
  });
  return `{\n${[...byQuery].map(([qid, docs]) => `  ${JSON.stringify(qid)}: {${docs.join(", ")}}`).join(",\n")}\n}\n`;
}

function qrelsBytes(format: Format, rows: readonly Judgment[]): Uint8Array | string {
  switch (format) {
    case "trec":
    case "msmarco": // MS MARCO's judgments are TREC qrels (qrels.dev.tsv's lines: qid 0 docid label)
      return rows.map((r) => `${r.qid} 0 ${r.docid} ${r.label}\n`).join("");
    case "csv":
    case "tsv":
      return delimited(
        format === "csv" ? "," : "\t",
        ["qid", "docid", "rel"],
        rows.map((r) => [r.qid, r.docid, r.label]),
      );
    case "json":
      return jsonOf(rows, (i) => rows[i].label);
    case "parquet":
      return parquet(
        rows,
        "rel",
        rows.map((r) => Number(r.label)),
      );
    case "arrow":
      return arrow(
        rows,
        "rel",
        rows.map((r) => Number(r.label)),
      );
  }
}

function runBytes(format: Format, run: RunSet): Uint8Array | string {
  const rows: readonly Ranked[] = run.rows;
  switch (format) {
    case "trec":
      return rows.map((r) => `${r.qid} Q0 ${r.docid} ${r.rank} ${r.score} ${run.tag}\n`).join("");
    case "msmarco":
      return rows.map((r) => `${r.qid}\t${r.docid}\t${r.rank}\n`).join("");
    case "csv":
    case "tsv":
      return delimited(
        format === "csv" ? "," : "\t",
        ["qid", "docid", "score"],
        rows.map((r) => [r.qid, r.docid, r.score]),
      );
    case "json":
      return jsonOf(rows, (i) => rows[i].score);
    case "parquet":
      return parquet(
        rows,
        "score",
        rows.map((r) => Number(r.score)),
      );
    case "arrow":
      return arrow(
        rows,
        "score",
        rows.map((r) => Number(r.score)),
      );
  }
}

function parquet(rows: readonly { qid: string; docid: string }[], value: string, values: number[]): Uint8Array {
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: "qid", data: rows.map((r) => r.qid), type: "STRING" },
        { name: "docid", data: rows.map((r) => r.docid), type: "STRING" },
        { name: value, data: Float64Array.from(values), type: "DOUBLE" },
      ],
      // Several row groups past 100,000 rows: the reader's slices and batches cross them.
      rowGroupSize: 100_000,
    }),
  );
}

function arrow(rows: readonly { qid: string; docid: string }[], value: string, values: number[]): Uint8Array {
  const table = tableFromArrays({
    qid: rows.map((r) => r.qid),
    docid: rows.map((r) => r.docid),
    [value]: Float64Array.from(values),
  });
  return RecordBatchFileWriter.writeAll(table).toUint8Array(true);
}

/**
 * Writes `set` in `format` (gzipped if `gzip`) under `dir`, each file named by its role and format; the
 * runs keep their names (the faces name a run by its file). Returns the paths.
 */
export function writeSet(set: InputSet, format: Format, dir: string, gzip = false): Written {
  mkdirSync(dir, { recursive: true });
  const suffix = (ext: string) => `${ext}${gzip ? ".gz" : ""}`;
  const put = (name: string, bytes: Uint8Array | string) => {
    const path = join(dir, name);
    writeFileSync(path, gzip ? gzipSync(bytes) : bytes);
    return path;
  };
  const qrelsExt = format === "msmarco" ? "" : EXTENSION[format];
  return {
    qrels: put(`qrels${suffix(qrelsExt === "" ? ".txt" : qrelsExt)}`, qrelsBytes(format, set.qrels)),
    runs: set.runs.map((run) => put(`${run.name}${suffix(EXTENSION[format] || ".run")}`, runBytes(format, run))),
  };
}
