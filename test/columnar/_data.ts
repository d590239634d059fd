// Test data as columnar files, written at test time by the engines users write them with: DuckDB
// (@duckdb/node-api, a real engine writing the layout Spark writes) and apache-arrow itself. Nothing
// here is committed data: every file is made from text in the test or from ../shared's golden sets.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { RecordBatchFileWriter, RecordBatchStreamWriter, tableFromArrays, type Table } from "apache-arrow";

/** A TREC qrels or run file's rows, its fields split on blanks as trec_eval splits them. */
export interface TrecRows {
  qid: string[];
  docid: string[];
  value: number[];
  /** The valuetext as written (the score or label), for engines that parse it themselves. */
  text: string[];
  /** A run's tag, per row. */
  tag: string[];
}

export function trecRows(text: string, kind: "qrels" | "run"): TrecRows {
  const out: TrecRows = { qid: [], docid: [], value: [], text: [], tag: [] };
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || line.trim().startsWith("#")) continue;
    out.qid.push(f[0]);
    out.docid.push(f[2]);
    const v = kind === "qrels" ? f[3] : f[4];
    out.text.push(v);
    out.value.push(Number(v));
    out.tag.push(kind === "run" ? f[5] : "");
  }
  return out;
}

let instance: Promise<DuckDBInstance> | null = null;

/** One in-memory DuckDB for the tests of a file. */
export async function duck(): Promise<DuckDBConnection> {
  instance ??= DuckDBInstance.create(":memory:");
  return (await instance).connect();
}

/**
 * Rows written by DuckDB as Parquet: to `path` as one file, or, with `buckets`, as a Hive-partitioned
 * dataset directory `path/bucket=K/data_0.parquet` with K = hash(qid) % buckets (DuckDB's COPY ...
 * PARTITION_BY, the layout Spark's partitionBy writes). Ids are VARCHAR, values DOUBLE (as DuckDB
 * parses the text, so the numbers are the text's), and a run's tag a `tag` column.
 */
export async function duckParquet(
  rows: TrecRows,
  path: string,
  o: { kind: "qrels" | "run"; buckets?: number; columns?: Record<string, string>; types?: Record<string, string> },
): Promise<void> {
  const c = await duck();
  const tsv = `${path}.tsv`;
  mkdirSync(dirname(path), { recursive: true });
  const lines = ["qid\tdocid\tvalue\ttag"];
  for (let i = 0; i < rows.qid.length; i++)
    lines.push(`${rows.qid[i]}\t${rows.docid[i]}\t${rows.text[i]}\t${rows.tag[i]}`);
  writeFileSync(tsv, `${lines.join("\n")}\n`);
  const names = { qid: "qid", docid: "docid", value: o.kind === "qrels" ? "rel" : "score", tag: "tag", ...o.columns };
  const types = { qid: "VARCHAR", docid: "VARCHAR", value: "DOUBLE", ...o.types };
  const select = `SELECT qid::${types.qid} AS "${names.qid}", docid::${types.docid} AS "${names.docid}", value::${types.value} AS "${names.value}"${o.kind === "run" ? `, tag AS "${names.tag}"` : ""}${o.buckets ? `, hash(qid) % ${o.buckets} AS bucket` : ""} FROM read_csv('${tsv}', delim='\t', header=true, quote='', escape='', columns={'qid': 'VARCHAR', 'docid': 'VARCHAR', 'value': 'VARCHAR', 'tag': 'VARCHAR'})`;
  if (o.buckets)
    await c.run(`COPY (${select}) TO '${path}' (FORMAT parquet, PARTITION_BY (bucket), OVERWRITE_OR_IGNORE true)`);
  else await c.run(`COPY (${select}) TO '${path}' (FORMAT parquet)`);
}

/** Rows as an Arrow table: string ids (dictionary-encoded, as tableFromArrays makes them) and Float64 values. */
export function arrowTable(rows: TrecRows, kind: "qrels" | "run"): Table {
  return tableFromArrays({
    qid: rows.qid,
    docid: rows.docid,
    [kind === "qrels" ? "rel" : "score"]: Float64Array.from(rows.value),
    ...(kind === "run" ? { tag: rows.tag } : {}),
  });
}

/** An Arrow table written by apache-arrow as an IPC file (`.arrow`) or stream (`.arrows`). */
export function writeArrow(table: Table, path: string, format: "file" | "stream"): string {
  mkdirSync(dirname(path), { recursive: true });
  const writer = format === "file" ? RecordBatchFileWriter.writeAll(table) : RecordBatchStreamWriter.writeAll(table);
  writeFileSync(path, writer.toUint8Array(true));
  return path;
}

export const here = (dir: string, name: string) => join(dir, name);
