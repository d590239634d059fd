// Shared by the JSON and CSV/TSV parser tests: run a parser over chunks, describe its per-row result
// with strings (query ids, document ids, lines), and check every way of splitting the input agrees.
import fc from "fast-check";
import { expect } from "vitest";
import { InputError } from "../../src/errors/errors.js";
import { DelimitedParser, type DelimitedParserOptions } from "../../src/io/delimited.js";
import { Interner } from "../../src/io/interner.js";
import { JsonParser, type RowsKind } from "../../src/io/json.js";
import { docidString, lineOfRow, rowHash } from "../../src/io/rows.js";

export type Format = "json" | "csv";
export type Extra = Partial<Pick<DelimitedParserOptions<RowsKind>, "delimiter" | "columns" | "hint">>;

const encoder = new TextEncoder();
export const bytes = (s: string): Uint8Array => encoder.encode(s);

/** Parses the chunks with a fresh parser; ids as strings, each row's line, the hashes checked. */
export function parseRows(
  format: Format,
  kind: RowsKind,
  chunks: Uint8Array[],
  extra: Extra = {},
): Record<string, unknown> {
  const qids = new Interner();
  const file = format === "json" ? "in.json" : "in.csv";
  const p =
    format === "json"
      ? new JsonParser({ file, qids, kind, runTag: "t" })
      : new DelimitedParser({ file, qids, kind, runTag: "t", ...extra });
  for (const c of chunks) p.push(c);
  const r = p.finish();
  const d = r.docids;
  expect(d.offsets.length).toBe(r.length + 1);
  for (let i = 0; i < r.length; i++) expect(d.hashes[i]).toBe(rowHash(d.bytes, d.offsets[i], d.offsets[i + 1]));
  expect(r.file).toBe(file);
  expect(r.qidNames).toBe(qids);
  const values = "rel" in r ? { rel: Array.from(r.rel) } : { score: Array.from(r.score), runTag: r.runTag };
  return {
    qid: Array.from(r.qid, (q) => qids.stringOf(q)),
    docid: Array.from({ length: r.length }, (_, i) => docidString(d, i)),
    ...values,
    lines: Array.from({ length: r.length }, (_, i) => lineOfRow(r.lines, i)),
  };
}

export type Outcome = { ok: Record<string, unknown> } | { error: string };

/** The result, or the InputError's message; anything else thrown fails the test. */
export function outcome(format: Format, kind: RowsKind, chunks: Uint8Array[], extra: Extra = {}): Outcome {
  try {
    return { ok: parseRows(format, kind, chunks, extra) };
  } catch (e) {
    if (e instanceof InputError) return { error: e.message };
    throw e;
  }
}

/** Whole, split in two at every offset, in three at every pair (small inputs), one byte at a time: all agree. */
export function splitsAgree(
  format: Format,
  kind: RowsKind,
  input: string | Uint8Array,
  extra: Extra = {},
  maxThree = 60,
): Outcome {
  const b = typeof input === "string" ? bytes(input) : input;
  const whole = outcome(format, kind, [b], extra);
  const same = (o: Outcome, what: string) => {
    if (JSON.stringify(o) !== JSON.stringify(whole)) expect(o, what).toEqual(whole);
  };
  for (let i = 0; i <= b.length; i++)
    same(outcome(format, kind, [b.subarray(0, i), b.subarray(i)], extra), `split at ${i}`);
  if (b.length <= maxThree) {
    for (let i = 0; i <= b.length; i++) {
      for (let j = i; j <= b.length; j++)
        same(outcome(format, kind, [b.subarray(0, i), b.subarray(i, j), b.subarray(j)], extra), `split at ${i}, ${j}`);
    }
  }
  const bytewise: Uint8Array[] = [];
  for (let i = 0; i < b.length; i++) bytewise.push(b.subarray(i, i + 1), new Uint8Array(0));
  same(outcome(format, kind, bytewise, extra), "one byte per chunk");
  return whole;
}

export function parseOk(
  format: Format,
  kind: RowsKind,
  input: string | Uint8Array,
  extra: Extra = {},
): Record<string, unknown> {
  const o = splitsAgree(format, kind, input, extra);
  if ("error" in o) throw new Error(`unexpected error: ${o.error}`);
  return o.ok;
}

export function parseError(format: Format, kind: RowsKind, input: string | Uint8Array, extra: Extra = {}): string {
  const o = splitsAgree(format, kind, input, extra);
  if ("ok" in o) throw new Error(`expected an error, got ${JSON.stringify(o.ok)}`);
  return o.error;
}

/** Splits b at the given fractions of its length. */
export function splitAt(b: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * (b.length + 1))))].sort((x, y) => x - y);
  const chunks: Uint8Array[] = [];
  let prev = 0;
  for (const a of at) {
    chunks.push(b.subarray(prev, a));
    prev = a;
  }
  chunks.push(b.subarray(prev));
  return chunks;
}

/** A random edit of an input: insert, delete or replace a byte (drawn from `byteArb`) somewhere. */
export const mutationArb = (byteArb: fc.Arbitrary<number>) =>
  fc.tuple(
    fc.constantFrom("insert", "delete", "replace"),
    fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
    byteArb,
  );

/** `text` as bytes with the edits applied in order. */
export function mutate(text: string, muts: readonly (readonly [string, number, number])[]): Uint8Array {
  const arr = Array.from(new TextEncoder().encode(text));
  for (const [op, where, byte] of muts) {
    const i = Math.floor(where * (arr.length + 1));
    if (op === "insert") arr.splice(i, 0, byte);
    else if (op === "delete") arr.splice(i, 1);
    else if (i < arr.length) arr[i] = byte;
  }
  return Uint8Array.from(arr);
}
