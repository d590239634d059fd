import { describe, expect, it } from "vitest";
import { Interner } from "../../src/io/index.js";
import { bytes } from "./_helpers.js";

describe("Interner", () => {
  it("gives dense ids in order of first appearance", () => {
    const it_ = new Interner();
    const b = bytes("d1 d2 d1 d10 d2");
    expect([
      it_.intern(b, 0, 2),
      it_.intern(b, 3, 5),
      it_.intern(b, 6, 8),
      it_.intern(b, 9, 12),
      it_.intern(b, 13, 15),
    ]).toEqual([0, 1, 0, 2, 1]);
    expect(it_.size).toBe(3);
    expect(it_.stringOf(2)).toBe("d10");
    expect(Array.from(it_.bytesOf(1))).toEqual(Array.from(bytes("d2")));
  });

  it("interns strings as their UTF-8 bytes, and the empty string", () => {
    const it_ = new Interner();
    expect(it_.internString("caf\u00e9")).toBe(0);
    expect(it_.intern(bytes("xcaf\u00e9"), 1, 6)).toBe(0);
    expect(it_.internString("")).toBe(1);
    expect(it_.intern(bytes("abc"), 2, 2)).toBe(1);
    expect(it_.stringOf(1)).toBe("");
    expect(it_.stringOf(0)).toBe("caf\u00e9");
  });

  it("grows its table and pool past many ids, keeping every id", () => {
    const it_ = new Interner(4, 8);
    const n = 200_000;
    let wrong = 0;
    for (let i = 0; i < n; i++) if (it_.internString(`doc-${i}`) !== i) wrong++;
    expect(it_.size).toBe(n);
    for (let i = 0; i < n; i++) if (it_.internString(`doc-${i}`) !== i) wrong++;
    expect(wrong).toBe(0);
    expect(it_.stringOf(n - 1)).toBe(`doc-${n - 1}`);
    // A long id (past the short-copy path).
    const long = "L".repeat(1000);
    expect(it_.internString(long)).toBe(n);
    expect(it_.internString(long)).toBe(n);
    expect(it_.stringOf(n)).toBe(long);
  });

  it("makes room up front (reserve) and keeps every id, before and after", () => {
    const t = new Interner(4, 8);
    const enc = new TextEncoder();
    const add = (i: number) => {
      const b = enc.encode(`doc-${i}`);
      return t.intern(b, 0, b.length);
    };
    for (let i = 0; i < 100; i++) expect(add(i)).toBe(i);
    t.reserve(5000, 50_000);
    for (let i = 0; i < 100; i++) expect(add(i)).toBe(i); // found again after the rehash
    for (let i = 100; i < 20_000; i++) expect(add(i)).toBe(i); // past the room reserved: doubles again
    expect(t.size).toBe(20_000);
    for (let i = 0; i < 20_000; i += 997) expect(t.stringOf(i)).toBe(`doc-${i}`);
  });

  it("tells apart ids whose hashes collide", () => {
    // Two strings with the same 32-bit FNV-1a hash, found by a birthday search (~80k strings): only
    // their bytes tell them apart.
    const it_ = new Interner();
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    const fnv = (s: string) => {
      let h = 0x811c9dc5 | 0;
      for (const c of bytes(s)) h = Math.imul(h ^ c, 16777619);
      return h;
    };
    for (let i = 0; !pair; i++) {
      const s = `k${i}`;
      const h = fnv(s);
      const other = seen.get(h);
      if (other !== undefined) pair = [other, s];
      else seen.set(h, s);
    }
    const a = it_.internString(pair[0]);
    const b = it_.internString(pair[1]);
    expect(a).not.toBe(b);
    expect(it_.internString(pair[0])).toBe(a);
    expect(it_.internString(pair[1])).toBe(b);
  });

  it("exposes the pool as bytes and size + 1 offsets", () => {
    const it_ = new Interner();
    for (const s of ["b", "aa", "", "c\u00e9"]) it_.internString(s);
    const { bytes: pool, offsets } = it_.pool();
    expect(Array.from(offsets)).toEqual([0, 1, 3, 3, 6]);
    expect(new TextDecoder().decode(pool)).toBe("baac\u00e9");
    for (let i = 0; i < it_.size; i++) {
      expect(Array.from(pool.subarray(offsets[i], offsets[i + 1]))).toEqual(Array.from(it_.bytesOf(i)));
    }
  });

  it("compares ids byte-wise like strcmp", () => {
    const it_ = new Interner();
    const ids = ["D0-9", "D0-10", "d3", "d2", "d", "", "\u00e9", "z"].map((s) => it_.internString(s));
    const [d09, d010, d3, d2, d, empty, eacute, z] = ids;
    expect(Math.sign(it_.compareBytes(d09, d010))).toBe(1); // '9' > '1'
    expect(Math.sign(it_.compareBytes(d3, d2))).toBe(1);
    expect(Math.sign(it_.compareBytes(d, d2))).toBe(-1); // prefix first
    expect(Math.sign(it_.compareBytes(empty, d))).toBe(-1);
    expect(it_.compareBytes(d3, d3)).toBe(0);
    expect(Math.sign(it_.compareBytes(eacute, z))).toBe(1); // 0xC3 > 'z': bytes, not UTF-16
    const sorted = [...ids].sort((a, b) => it_.compareBytes(a, b)).map((i) => it_.stringOf(i));
    expect(sorted).toEqual(["", "D0-10", "D0-9", "d", "d2", "d3", "z", "\u00e9"]);
  });

  it("decodes many ids at once as stringOf does each, ASCII or not", () => {
    const it_ = new Interner();
    for (const s of ["q1", "", "301", "a b\t#"]) it_.internString(s);
    expect(it_.stringsOf([3, 0, 1, 2, 0])).toEqual(["a b\t#", "q1", "", "301", "q1"]);
    expect(it_.stringsOf([])).toEqual([]);
    it_.internString("caf\u00e9");
    it_.intern(new Uint8Array([0x71, 0xff]), 0, 2); // not UTF-8: U+FFFD, as stringOf
    const ids = [0, 4, 5, 2];
    expect(it_.stringsOf(ids)).toEqual(ids.map((id) => it_.stringOf(id)));
    expect(it_.stringsOf([4])).toEqual(["caf\u00e9"]);
    expect(() => it_.stringsOf([0, 6])).toThrow(/is not an id of this interner/);
  });

  it("rejects ids it never gave", () => {
    const it_ = new Interner();
    it_.internString("a");
    expect(() => it_.stringOf(1)).toThrow(/is not an id of this interner/);
    expect(() => it_.bytesOf(-1)).toThrow(/is not an id of this interner/);
    expect(() => it_.compareBytes(0, 0.5)).toThrow(/is not an id of this interner/);
  });

  it("interns a batch like single calls", () => {
    const text = "a b a c b d a";
    const b = bytes(text);
    const starts = new Int32Array([0, 2, 4, 6, 8, 10, 12]);
    const ends = starts.map((s) => s + 1);
    const fnv = (s: number, e: number) => {
      let h = 0x811c9dc5 | 0;
      for (let i = s; i < e; i++) h = Math.imul(h ^ b[i], 16777619);
      return h;
    };
    const hashes = starts.map((s, i) => fnv(s, ends[i]));
    const it_ = new Interner();
    it_.internString("c");
    const out = new Int32Array(7);
    it_.internBatch(b, starts, ends, hashes, 7, out);
    expect(Array.from(out)).toEqual([1, 2, 1, 0, 2, 3, 1]);
  });
});
