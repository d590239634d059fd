// Flat Parquet columns decoded page by page (hyparquet's page-level pieces) into ColumnarRows' layouts, no
// object per row: the general reader's string per value made GC most of a large run's read time. Columns
// fastKind does not take (DECIMAL, fixed-length bytes, ...) go to the general reader (parquet.ts).
import type { ColumnMetaData, CompressionCodec, SchemaElement } from "hyparquet";
import { grow } from "./rows.js";

export interface PageFunctions {
  parquetHeader: typeof import("hyparquet/src/column.js").parquetHeader;
  decompressPage: typeof import("hyparquet/src/datapage.js").decompressPage;
  readRleBitPackedHybrid: typeof import("hyparquet/src/encoding.js").readRleBitPackedHybrid;
  byteStreamSplit: typeof import("hyparquet/src/encoding.js").byteStreamSplit;
  deltaBinaryUnpack: typeof import("hyparquet/src/delta.js").deltaBinaryUnpack;
  readPlain: typeof import("hyparquet/src/plain.js").readPlain;
  compressors: Record<string, ((input: Uint8Array, outputLength: number) => Uint8Array) | undefined>;
}

export async function pageFunctions(): Promise<PageFunctions> {
  const [column, datapage, encoding, delta, plain, c] = await Promise.all([
    import("hyparquet/src/column.js"),
    import("hyparquet/src/datapage.js"),
    import("hyparquet/src/encoding.js"),
    import("hyparquet/src/delta.js"),
    import("hyparquet/src/plain.js"),
    import("hyparquet-compressors"),
  ]);
  return {
    parquetHeader: column.parquetHeader,
    decompressPage: datapage.decompressPage,
    readRleBitPackedHybrid: encoding.readRleBitPackedHybrid,
    byteStreamSplit: encoding.byteStreamSplit,
    deltaBinaryUnpack: delta.deltaBinaryUnpack,
    readPlain: plain.readPlain,
    compressors: c.compressors as PageFunctions["compressors"],
  };
}

type Kind = "bytes" | "int32" | "uint32" | "int64" | "uint64" | "float" | "double";

const ENCODINGS = new Set([
  "PLAIN",
  "PLAIN_DICTIONARY",
  "RLE_DICTIONARY",
  "RLE",
  "BIT_PACKED",
  "DELTA_BINARY_PACKED",
  "BYTE_STREAM_SPLIT",
  "DELTA_LENGTH_BYTE_ARRAY",
  "DELTA_BYTE_ARRAY",
]);
const CODECS = new Set(["UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4", "LZ4_RAW"]);

/** The kind a column decodes to here, or null for the general reader. */
export function fastKind(e: SchemaElement, meta: ColumnMetaData | undefined): Kind | null {
  if (!meta || e.num_children || (e.repetition_type !== "REQUIRED" && e.repetition_type !== "OPTIONAL")) return null;
  if (!meta.encodings.every((x) => ENCODINGS.has(x)) || !CODECS.has(meta.codec)) return null;
  const logical = e.logical_type;
  const converted = e.converted_type;
  if (e.type === "BYTE_ARRAY") {
    const ok =
      (!logical || logical.type === "STRING" || logical.type === "ENUM") &&
      (!converted || converted === "UTF8" || converted === "ENUM");
    return ok ? "bytes" : null;
  }
  const intOk = (!logical || logical.type === "INTEGER") && (!converted || /^U?INT_(8|16|32|64)$/.test(converted));
  const unsigned = (logical?.type === "INTEGER" && !logical.isSigned) || converted?.startsWith("UINT_") === true;
  if (e.type === "INT32") return intOk ? (unsigned ? "uint32" : "int32") : null;
  if (e.type === "INT64") return intOk ? (unsigned ? "uint64" : "int64") : null;
  if (logical || converted) return null;
  if (e.type === "FLOAT") return "float";
  if (e.type === "DOUBLE") return "double";
  return null;
}

/** One column's decoded rows, growing page by page, taken from the front in batches. */
export class ColumnBuffer {
  length = 0;
  /** Row i is bytes[offsets[i], offsets[i + 1]) (bytes), or numbers[i]. */
  bytes = new Uint8Array(1 << 16);
  offsets = new Int32Array(1 << 12);
  usedBytes = 0;
  numbers: Float64Array | BigInt64Array | BigUint64Array;

  constructor(readonly kind: Kind) {
    this.numbers =
      kind === "int64"
        ? new BigInt64Array(1 << 12)
        : kind === "uint64"
          ? new BigUint64Array(1 << 12)
          : new Float64Array(1 << 12);
  }

  reserve(rows: number, bytes = 0) {
    const need = this.length + rows;
    if (this.kind === "bytes") {
      if (need + 1 > this.offsets.length)
        this.offsets = grow(this.offsets, Math.max(need + 1, 2 * this.offsets.length), this.length + 1);
      if (this.usedBytes + bytes > this.bytes.length)
        this.bytes = grow(this.bytes, Math.max(this.usedBytes + bytes, 2 * this.bytes.length), this.usedBytes);
    } else if (need > this.numbers.length) {
      this.numbers = grow(this.numbers, Math.max(need, 2 * this.numbers.length), this.length);
    }
  }

  addBytes(src: Uint8Array, start: number, end: number) {
    const len = end - start;
    if (this.usedBytes + len > this.bytes.length) this.reserve(0, len + (1 << 16));
    const b = this.bytes;
    let at = this.usedBytes;
    if (len <= 32) for (let i = start; i < end; i++) b[at++] = src[i];
    else {
      b.set(src.subarray(start, end), at);
      at += len;
    }
    this.usedBytes = at;
    this.offsets[++this.length] = at;
  }

  take(
    n: number,
  ):
    | { kind: "utf8"; bytes: Uint8Array; offsets: Int32Array }
    | { kind: "values"; values: Float64Array | BigInt64Array | BigUint64Array } {
    if (this.kind === "bytes") {
      const cut = this.offsets[n];
      const out = { kind: "utf8" as const, bytes: this.bytes.slice(0, cut), offsets: this.offsets.slice(0, n + 1) };
      this.bytes.copyWithin(0, cut, this.usedBytes);
      this.usedBytes -= cut;
      for (let i = n; i <= this.length; i++) this.offsets[i - n] = this.offsets[i] - cut;
      this.length -= n;
      return out;
    }
    const out = {
      kind: "values" as const,
      values: this.numbers.slice(0, n) as Float64Array | BigInt64Array | BigUint64Array,
    };
    this.numbers.copyWithin(0, n, this.length);
    this.length -= n;
    return out;
  }
}

/** A null at `row` of the column chunk. */
export class NullValue extends Error {
  constructor(readonly row: number) {
    super(`a null at row ${row}`);
  }
}

/** A column chunk's pages (`bytes`: from its dictionary page, if any). */
export class ColumnPages {
  private readonly reader: { view: DataView; offset: number };
  private dictionary:
    | { bytes: Uint8Array; offsets: Int32Array }
    | Float64Array
    | BigInt64Array
    | BigUint64Array
    | null = null;
  rows = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly element: SchemaElement,
    private readonly kind: Kind,
    private readonly codec: CompressionCodec,
    private readonly f: PageFunctions,
  ) {
    this.reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  }

  get done(): boolean {
    return this.reader.offset >= this.bytes.length;
  }

  /** Decodes the next data page (and a dictionary page before it) into `out`; returns its rows. */
  next(out: ColumnBuffer): number {
    const f = this.f;
    for (;;) {
      if (this.done) return 0;
      const header = f.parquetHeader(this.reader);
      const start = this.reader.offset;
      const compressed = this.bytes.subarray(start, start + header.compressed_page_size);
      this.reader.offset = start + header.compressed_page_size;
      if (header.type === "DICTIONARY_PAGE") {
        const page = f.decompressPage(compressed, header.uncompressed_page_size, this.codec, f.compressors as never);
        this.dictionary = this.plain(page, header.dictionary_page_header!.num_values);
        continue;
      }
      if (header.type === "DATA_PAGE") {
        const h = header.data_page_header!;
        const page = f.decompressPage(compressed, header.uncompressed_page_size, this.codec, f.compressors as never);
        const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
        const r = { view, offset: 0 };
        let nulls = 0;
        if (this.element.repetition_type === "OPTIONAL") {
          const levels = new Uint8Array(h.num_values);
          f.readRleBitPackedHybrid(r, 1, levels);
          nulls = this.checkLevels(levels);
        }
        this.values(page, r, h.encoding, h.num_values - nulls, out);
        this.rows += h.num_values;
        return h.num_values;
      }
      if (header.type === "DATA_PAGE_V2") {
        const h = header.data_page_header_v2!;
        const levelBytes = h.repetition_levels_byte_length + h.definition_levels_byte_length;
        if (this.element.repetition_type === "OPTIONAL" && h.definition_levels_byte_length > 0) {
          const levels = new Uint8Array(h.num_values);
          const view = new DataView(
            compressed.buffer,
            compressed.byteOffset + h.repetition_levels_byte_length,
            h.definition_levels_byte_length,
          );
          f.readRleBitPackedHybrid({ view, offset: 0 }, 1, levels, h.definition_levels_byte_length);
          this.checkLevels(levels);
        } else if (h.num_nulls > 0) throw new NullValue(this.rows);
        let page = compressed.subarray(levelBytes);
        if (h.is_compressed !== false)
          page = f.decompressPage(page, header.uncompressed_page_size - levelBytes, this.codec, f.compressors as never);
        const r = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
        this.values(page, r, h.encoding, h.num_values - h.num_nulls, out);
        this.rows += h.num_values;
        return h.num_values;
      }
      // An index page, or another kind.
    }
  }

  /** Throws NullValue at the first null; returns 0 (the nulls). */
  private checkLevels(levels: Uint8Array) {
    for (let i = 0; i < levels.length; i++) if (levels[i] !== 1) throw new NullValue(this.rows + i);
    return 0;
  }

  /** A dictionary page's PLAIN values. */
  private plain(page: Uint8Array, n: number) {
    const r = { view: new DataView(page.buffer, page.byteOffset, page.byteLength), offset: 0 };
    if (this.kind === "bytes") {
      const b = new ColumnBuffer("bytes");
      this.values(page, r, "PLAIN", n, b);
      return { bytes: b.bytes, offsets: b.offsets };
    }
    return this.numbersOf(this.f.readPlain(r, this.element.type!, n, undefined) as ArrayLike<number | bigint>, n);
  }

  private numbersOf(v: ArrayLike<number | bigint>, n: number): Float64Array | BigInt64Array | BigUint64Array {
    if (this.kind === "int64") return v instanceof BigInt64Array ? v : BigInt64Array.from(v as ArrayLike<bigint>);
    if (this.kind === "uint64")
      return v instanceof BigInt64Array
        ? new BigUint64Array(v.buffer, v.byteOffset, n)
        : BigUint64Array.from(v as ArrayLike<bigint>);
    const out = new Float64Array(n);
    if (this.kind === "uint32") for (let i = 0; i < n; i++) out[i] = (v[i] as number) >>> 0;
    else for (let i = 0; i < n; i++) out[i] = v[i] as number;
    return out;
  }

  /** A page's `n` values (from `r`, past its levels). */
  private values(
    page: Uint8Array,
    r: { view: DataView; offset: number },
    encoding: string,
    n: number,
    out: ColumnBuffer,
  ) {
    const f = this.f;
    if (encoding === "PLAIN_DICTIONARY" || encoding === "RLE_DICTIONARY") {
      const d = this.dictionary;
      if (d === null) throw new Error("a dictionary-encoded page without a dictionary page before it");
      const bitWidth = page[r.offset++];
      const indices = new Int32Array(n);
      if (bitWidth) f.readRleBitPackedHybrid(r, bitWidth, indices, page.length - r.offset);
      if ("offsets" in d) {
        out.reserve(n);
        for (let i = 0; i < n; i++) out.addBytes(d.bytes, d.offsets[indices[i]], d.offsets[indices[i] + 1]);
        return;
      }
      out.reserve(n);
      const nums = out.numbers as unknown as (number | bigint)[];
      const dict = d as unknown as (number | bigint)[];
      for (let i = 0; i < n; i++) nums[out.length + i] = dict[indices[i]];
      out.length += n;
      return;
    }
    if (this.kind === "bytes" && (encoding === "DELTA_LENGTH_BYTE_ARRAY" || encoding === "DELTA_BYTE_ARRAY")) {
      // Delta-encoded lengths (DELTA_BYTE_ARRAY: first those of the prefix shared with the value before), then the suffixes' bytes.
      const prefix = new Int32Array(n);
      if (encoding === "DELTA_BYTE_ARRAY") f.deltaBinaryUnpack(r, n, prefix);
      const lengths = new Int32Array(n);
      f.deltaBinaryUnpack(r, n, lengths);
      out.reserve(n, page.length - r.offset + prefix.reduce((a, b) => a + b, 0));
      let at = r.offset;
      for (let i = 0; i < n; i++) {
        const p = prefix[i];
        if (p > 0) {
          // The value before's first p bytes, then the suffix.
          const prevStart = out.offsets[out.length - 1];
          const b = out.bytes;
          b.copyWithin(out.usedBytes, prevStart, prevStart + p);
          b.set(page.subarray(at, at + lengths[i]), out.usedBytes + p);
          out.usedBytes += p + lengths[i];
          out.offsets[++out.length] = out.usedBytes;
        } else out.addBytes(page, at, at + lengths[i]);
        at += lengths[i];
      }
      r.offset = at;
      return;
    }
    if (this.kind === "bytes") {
      if (encoding !== "PLAIN") throw new Error(`byte arrays encoded ${encoding}`);
      out.reserve(n, page.length - r.offset);
      const view = r.view;
      let at = r.offset;
      for (let i = 0; i < n; i++) {
        const len = view.getUint32(at, true);
        out.addBytes(page, at + 4, at + 4 + len);
        at += 4 + len;
      }
      r.offset = at;
      return;
    }
    let v: ArrayLike<number | bigint>;
    if (encoding === "PLAIN") v = f.readPlain(r, this.element.type!, n, undefined) as ArrayLike<number | bigint>;
    else if (encoding === "DELTA_BINARY_PACKED") {
      const a = this.element.type === "INT32" ? new Int32Array(n) : new BigInt64Array(n);
      f.deltaBinaryUnpack(r, n, a);
      v = a;
    } else if (encoding === "BYTE_STREAM_SPLIT")
      v = f.byteStreamSplit(r, n, this.element.type!, undefined) as ArrayLike<number | bigint>;
    else throw new Error(`numbers encoded ${encoding}`);
    const nums = this.numbersOf(v, n);
    out.reserve(n);
    (out.numbers as Float64Array).set(nums as Float64Array, out.length);
    out.length += n;
  }
}
