// The Parquet page decoder (src/io/parquet-pages.ts) against hyparquet's general reader, on files
// DuckDB and hyparquet-writer write with every encoding, codec, page version and row group size they
// offer for such columns: the same rows, ids and values; a null's row named the same.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bytesSource, columnarRows } from "../../src/io/columnar.js";
import { Interner } from "../../src/io/interner.js";
import { parquetGroupsRead } from "../../src/io/parquet.js";
import { docidString } from "../../src/io/rows.js";
import { duck } from "./_data.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-pages-"));

/** A run read from Parquet bytes, by the page decoder or the general reader, as plain arrays. */
async function read(bytes: Uint8Array, generic: boolean, kind: "run" | "qrels" = "run") {
  const qids = new Interner();
  const rows = await columnarRows(bytesSource(bytes), { file: "x.parquet", qids, kind, generic });
  const values = "score" in rows ? rows.score : rows.rel;
  return {
    qid: Array.from(rows.qid, (q) => qids.stringOf(q)),
    docid: Array.from({ length: rows.length }, (_, i) => docidString(rows.docids, i)),
    value: Array.from(values),
    tag: "runTag" in rows ? rows.runTag : "",
  };
}

/** The same rows from both readers; returns them. */
async function same(path: string, kind: "run" | "qrels" = "run") {
  const bytes = readFileSync(path);
  const before = parquetGroupsRead.general;
  const fast = await read(bytes, false, kind);
  // Every row group by the page decoder.
  expect(parquetGroupsRead.general, path).toBe(before);
  const general = await read(bytes, true, kind);
  expect(fast.value.length).toBeGreaterThan(0);
  expect(fast).toEqual(general);
  return fast;
}

// 30,000 rows: 600 queries of 1 to 99 documents, ids of every length (and non-ASCII), scores with
// ties and negative zero, labels 0-4.
const SELECT = `SELECT 'q' || (r // 50)::VARCHAR AS qid, CASE WHEN r % 7 = 0 THEN 'doc-é-' ELSE 'd' END || repeat('x', (r * 13) % 40) || r::VARCHAR AS docid,
  CASE WHEN r % 11 = 0 THEN '-0.0'::DOUBLE ELSE round(((r * 7919) % 1000) / 37.0, 2)::DOUBLE END AS score, (r % 5) AS rel, 'tag' || (r % 3)::VARCHAR AS tag FROM range(30000) t(r)`;

describe("the Parquet page decoder reads what hyparquet's general reader reads", () => {
  it.each([
    ["DuckDB's defaults", ""],
    ["uncompressed", ", COMPRESSION uncompressed"],
    ["zstd", ", COMPRESSION zstd"],
    ["gzip", ", COMPRESSION gzip"],
    ["lz4", ", COMPRESSION lz4_raw"],
    ["brotli", ", COMPRESSION brotli"],
    ["small row groups", ", ROW_GROUP_SIZE 1000"],
    ["format version 2 (data page v2, delta and byte-stream-split encodings)", ", PARQUET_VERSION v2"],
    ["version 2 in small groups, zstd", ", PARQUET_VERSION v2, ROW_GROUP_SIZE 777, COMPRESSION zstd"],
    ["no dictionaries", ", DICTIONARY_SIZE_LIMIT 1"],
  ])("%s", async (_, options) => {
    const c = await duck();
    const path = join(dir, `duck-${options.replace(/\W+/g, "_")}.parquet`);
    await c.run(`COPY (${SELECT}) TO '${path}' (FORMAT parquet${options})`);
    const r = await same(path);
    expect(r.qid[0]).toBe("q0");
    expect(r.docid[7]).toBe("doc-é-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx7".slice(0, 6 + ((7 * 13) % 40)) + "7");
    expect(Object.is(r.value[0], -0)).toBe(true);
    expect(r.tag).toBe("tag2"); // the last row's: 29999 % 3
    await same(path, "qrels");
  });

  it("integer ids of every width and sign, float and integer values", async () => {
    const c = await duck();
    for (const [qid, docid, score] of [
      ["INTEGER", "BIGINT", "FLOAT"],
      ["UINTEGER", "UBIGINT", "INTEGER"],
      ["SMALLINT", "TINYINT", "BIGINT"],
      ["USMALLINT", "UTINYINT", "DOUBLE"],
    ]) {
      const path = join(dir, `ints-${qid}-${docid}-${score}.parquet`);
      await c.run(
        `COPY (SELECT (r // 20)::${qid} AS qid, (r % 100)::${docid} AS docid, ((r * 31) % 17 - 8)::${score} AS score FROM range(2000) t(r)) TO '${path}' (FORMAT parquet)`,
      );
      const r = await same(path);
      expect(r.qid[20]).toBe("1");
      expect(r.docid[99]).toBe("99");
    }
    // Past 2^31 and 2^63: exact, as text would hold them.
    const big = join(dir, "big.parquet");
    await c.run(
      `COPY (SELECT * FROM (VALUES (4294967295::UINTEGER, 18446744073709551615::UBIGINT, 1.5::DOUBLE), (4294967295::UINTEGER, 9223372036854775807::UBIGINT, 0.5::DOUBLE)) t(qid, docid, score)) TO '${big}' (FORMAT parquet)`,
    );
    expect((await same(big)).docid).toEqual(["18446744073709551615", "9223372036854775807"]);
    // DECIMAL values: hyparquet's general reader (the page decoder takes none).
    const decimal = join(dir, "decimal.parquet");
    await c.run(
      `COPY (SELECT * FROM (VALUES ('q1', 'd1', 1.5), ('q1', 'd2', 0.25)) t(qid, docid, score)) TO '${decimal}' (FORMAT parquet)`,
    );
    const before = parquetGroupsRead.general;
    expect((await read(readFileSync(decimal), false)).value).toEqual([1.5, 0.25]);
    expect(parquetGroupsRead.general).toBe(before + 1);
  });

  it("hyparquet-writer's files, REQUIRED and OPTIONAL columns, and a null named at its row by both readers", async () => {
    const { parquetWriteBuffer } = await import("hyparquet-writer");
    const n = 5000;
    const columnData = (nullable: boolean) => [
      {
        name: "qid",
        data: Array.from({ length: n }, (_, i) => `q${Math.floor(i / 40)}`),
        type: "STRING" as const,
        nullable,
      },
      { name: "docid", data: Array.from({ length: n }, (_, i) => `d${i}`), type: "STRING" as const, nullable },
      {
        name: "score",
        data: Float64Array.from({ length: n }, (_, i) => (i * 37) % 101),
        type: "DOUBLE" as const,
        nullable,
      },
    ];
    for (const nullable of [false, true]) {
      const path = join(dir, `hw-${nullable}.parquet`);
      writeFileSync(
        path,
        new Uint8Array(parquetWriteBuffer({ columnData: columnData(nullable), rowGroupSize: [1000, 1500] })),
      );
      await same(path);
    }
    const withNull = columnData(true);
    (withNull[1].data as (string | null)[])[3456] = null;
    const path = join(dir, "hw-null.parquet");
    writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData: withNull, rowGroupSize: 1000 })));
    for (const generic of [false, true]) {
      await expect(read(readFileSync(path), generic)).rejects.toThrow(
        'x.parquet: row 3457 (column "docid"): the document id is null',
      );
    }
  });
});
