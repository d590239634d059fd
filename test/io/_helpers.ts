// Shared by the parser tests: run a parser over chunks, describe its result with strings instead of
// interned ids, and check that every way of splitting the input into chunks gives the same outcome.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { InputError } from "../../src/errors/errors.js";
import {
  GroupParser,
  GroupQrelsParser,
  Interner,
  LetorParser,
  QrelsParser,
  RunParser,
  PrefsParser,
  ScoresParser,
  ZscoresParser,
} from "../../src/io/index.js";

export type Kind = "qrels" | "run" | "letor" | "scores" | "group" | "group-qrels" | "prefs" | "zscores";
export const KINDS: Kind[] = ["qrels", "run", "letor", "scores", "group", "group-qrels", "prefs", "zscores"];

const encoder = new TextEncoder();
export const bytes = (s: string): Uint8Array => encoder.encode(s);

/** ../shared beside the repository, where the golden files live (absent on some machines). */
export const SHARED = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "shared");
export const sharedPath = (...parts: string[]): string => join(SHARED, ...parts);
export function haveShared(...parts: string[]): boolean {
  const ok = existsSync(sharedPath(...parts));
  if (!ok) console.warn(`skipping: ${sharedPath(...parts)} not found (golden files live in ../shared)`);
  return ok;
}

const strings = (ids: Int32Array | null, interner: Interner): string[] | null =>
  ids === null ? null : Array.from(ids, (id) => interner.stringOf(id));

/** Parses the chunks with a fresh parser of that kind; ids are given as their strings. */
export function parseChunks(kind: Kind, chunks: Uint8Array[], file = "in.txt"): Record<string, unknown> {
  const qids = new Interner();
  const docids = new Interner();
  switch (kind) {
    case "qrels": {
      const p = new QrelsParser({ file, qids, docids });
      for (const c of chunks) p.push(c);
      const r = p.finish();
      return { qid: strings(r.qid, qids), docid: strings(r.docid, docids), rel: Array.from(r.rel), length: r.length };
    }
    case "run": {
      const p = new RunParser({ file, qids, docids });
      for (const c of chunks) p.push(c);
      const r = p.finish();
      return {
        qid: strings(r.qid, qids),
        docid: strings(r.docid, docids),
        score: Array.from(r.score),
        runTag: r.runTag,
        length: r.length,
      };
    }
    case "letor": {
      const p = new LetorParser({ file, qids, docids });
      for (const c of chunks) p.push(c);
      const r = p.finish();
      return { qid: strings(r.qid, qids), rel: Array.from(r.rel), docid: strings(r.docid, docids), length: r.length };
    }
    case "scores": {
      const p = new ScoresParser({ file });
      for (const c of chunks) p.push(c);
      return { score: Array.from(p.finish()) };
    }
    case "group": {
      const p = new GroupParser({ file });
      for (const c of chunks) p.push(c);
      return { size: Array.from(p.finish()) };
    }
    case "group-qrels": {
      const p = new GroupQrelsParser({ file });
      for (const c of chunks) p.push(c);
      const r = p.finish();
      return {
        qid: r.qid,
        group: r.group,
        docno: r.docno,
        value: Array.from(r.value),
        long: Array.from(r.long),
        lines: Array.from(r.lines),
        length: r.length,
      };
    }
    case "prefs": {
      const p = new PrefsParser({ file });
      for (const c of chunks) p.push(c);
      const r = p.finish();
      return {
        qid: r.qid,
        jg: r.jg,
        jsg: r.jsg,
        docno: r.docno,
        rel: Array.from(r.rel),
        lines: Array.from(r.lines),
        length: r.length,
      };
    }
    case "zscores": {
      const p = new ZscoresParser({ file });
      for (const c of chunks) p.push(c);
      const r = p.finish();
      return {
        qid: r.qid,
        measure: r.measure,
        mean: Array.from(r.mean),
        stddev: Array.from(r.stddev),
        lines: Array.from(r.lines),
        length: r.length,
      };
    }
  }
}

export type Outcome = { ok: Record<string, unknown> } | { error: string };

/** The result, or the message of the InputError; anything else thrown fails the test. */
export function outcome(kind: Kind, chunks: Uint8Array[], file = "in.txt"): Outcome {
  try {
    return { ok: parseChunks(kind, chunks, file) };
  } catch (e) {
    if (e instanceof InputError) return { error: e.message };
    throw e;
  }
}

/**
 * Parses the input whole, then split into two chunks at every offset and into three at every pair of
 * offsets (the latter only for inputs up to `maxThree` bytes), and checks that all outcomes agree.
 */
export function splitsAgree(kind: Kind, input: string | Uint8Array, maxThree = 120): Outcome {
  const b = typeof input === "string" ? bytes(input) : input;
  const whole = outcome(kind, [b]);
  for (let i = 0; i <= b.length; i++) {
    const two = outcome(kind, [b.subarray(0, i), b.subarray(i)]);
    if (JSON.stringify(two) !== JSON.stringify(whole)) expect(two, `split at ${i}`).toEqual(whole);
  }
  if (b.length <= maxThree) {
    for (let i = 0; i <= b.length; i++) {
      for (let j = i; j <= b.length; j++) {
        const three = outcome(kind, [b.subarray(0, i), b.subarray(i, j), b.subarray(j)]);
        if (JSON.stringify(three) !== JSON.stringify(whole)) expect(three, `split at ${i}, ${j}`).toEqual(whole);
      }
    }
  }
  // One byte at a time, with empty chunks in between.
  const bytewise: Uint8Array[] = [];
  for (let i = 0; i < b.length; i++) bytewise.push(b.subarray(i, i + 1), new Uint8Array(0));
  expect(outcome(kind, bytewise), "one byte per chunk").toEqual(whole);
  return whole;
}

/** Parses with every split and returns the result; fails if the input is rejected. */
export function parseOk(kind: Kind, input: string | Uint8Array): Record<string, unknown> {
  const o = splitsAgree(kind, input);
  if ("error" in o) throw new Error(`unexpected error: ${o.error}`);
  return o.ok;
}

/** Parses with every split and returns the error message; fails if the input is accepted. */
export function parseError(kind: Kind, input: string | Uint8Array): string {
  const o = splitsAgree(kind, input);
  if ("ok" in o) throw new Error(`expected an error, got ${JSON.stringify(o.ok)}`);
  return o.error;
}
