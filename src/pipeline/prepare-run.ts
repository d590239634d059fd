/**
 * Run preparations (issue 38), applied where a run's rows become the join's (joinParsed), so every face,
 * format and path gets the same rows: passages rolled up to their documents (`rollup`), then each
 * document whose id is its query's left out (`dropSelf`). Rolling up first: with both, a passage of the
 * query's own document goes too (ArguAna's and Quora's queries are documents of the corpus). Browser-safe.
 */
import { counted } from "../errors/counted.js";
import { badInput, InputError, RankevalError, shown, usageError } from "../errors/errors.js";
import { docidString, lineOfRow, rowHash, type RowLines } from "../io/rows.js";
import { duplicate } from "./join-kernel.js";
import type { JoinRun } from "./join-memory.js";

export type RollupMethod = "max" | "sum" | "first";
export const ROLLUP_METHODS: readonly RollupMethod[] = ["max", "sum", "first"];

/** What is done to a run before the join; made by runPreparation. */
export interface RunPreparation {
  /** A row's document is its id cut at the last `separator` (`doc#3` is `doc`); its score by `method`. */
  readonly rollup?: { readonly separator: string; readonly method: RollupMethod };
  readonly dropSelf?: boolean;
}

/** What the preparations did to a run (`Result.prepared`); blocks' counts add up. */
export interface RunPrepared {
  /** The run's rows as read. */
  readonly rows: number;
  /** Rows whose id held the rollup's separator (0 without `rollup`). */
  readonly passages: number;
  /** Rows after the rollup: a document of its query each (`rows` without `rollup`). */
  readonly documents: number;
  /** Documents left out as their query's own id (0 without `dropSelf`). */
  readonly selfDropped: number;
}

/** The preparation's options as the library, the command line and the page name them. */
export interface PreparationOptions {
  rollup?: string;
  rollupMethod?: string;
  dropSelf?: boolean;
}

/**
 * The refusal of a preparation with subtopic judgments, which no run is joined to by its rows; `name`
 * spells the first option asked as the caller's face does (one sentence for every face).
 */
export function notForSubtopics(
  prepare: RunPreparation,
  name: (key: keyof PreparationOptions) => string = (k) => k,
): RankevalError {
  return new RankevalError(
    "bad-option",
    `${name(prepare.rollup ? "rollup" : "dropSelf")} prepares runs joined to qrels judgments, not to subtopic judgments (diversity measures)`,
  );
}

/**
 * The preparation asked, checked (undefined: none); `name` spells an option as the caller's face does
 * (`--rollup` on the command line). The one place these options are read.
 */
export function runPreparation(
  given: PreparationOptions,
  name: (key: keyof PreparationOptions) => string = (k) => k,
): RunPreparation | undefined {
  const { rollup, rollupMethod, dropSelf } = given;
  if (rollup !== undefined && (typeof rollup !== "string" || rollup === ""))
    throw usageError(
      `${name("rollup")} must be the separator of a passage's number in its id (as "#" for doc#3), not ${shown(rollup)}`,
    );
  if (rollupMethod !== undefined && !ROLLUP_METHODS.includes(rollupMethod as RollupMethod))
    throw usageError(
      `${name("rollupMethod")} must be one of ${ROLLUP_METHODS.join(", ")} (a document's score: its best passage's, their sum, its first passage's), not ${shown(rollupMethod)}`,
    );
  if (rollupMethod !== undefined && rollup === undefined)
    throw usageError(`${name("rollupMethod")} ${rollupMethod} needs ${name("rollup")} SEP (the passages' separator)`);
  if (dropSelf !== undefined && typeof dropSelf !== "boolean")
    throw usageError(`${name("dropSelf")} must be true or false, not ${shown(dropSelf)}`);
  if (rollup === undefined && !dropSelf) return undefined;
  return {
    ...(rollup !== undefined ? { rollup: { separator: rollup, method: (rollupMethod ?? "max") as RollupMethod } } : {}),
    ...(dropSelf ? { dropSelf: true } : {}),
  };
}

export const NOTHING_PREPARED: RunPrepared = Object.freeze({ rows: 0, passages: 0, documents: 0, selfDropped: 0 });

export function addPrepared(a: RunPrepared, b: RunPrepared): RunPrepared {
  return {
    rows: a.rows + b.rows,
    passages: a.passages + b.passages,
    documents: a.documents + b.documents,
    selfDropped: a.selfDropped + b.selfDropped,
  };
}

/** What the CLI says on stderr and the page in its notes, a line each preparation. */
export function preparedNotes(name: string, prep: RunPreparation, done: RunPrepared): string[] {
  const notes: string[] = [];
  if (prep.rollup) {
    const { separator, method } = prep.rollup;
    const none = done.passages === 0 ? `: no id holds ${JSON.stringify(separator)}, so none was rolled up` : "";
    notes.push(
      `${name}: rollup ${JSON.stringify(separator)} (${method}): ${counted(done.rows, "row")} rolled up into ${counted(done.documents, "document")}${none}`,
    );
  }
  if (prep.dropSelf)
    notes.push(
      `${name}: drop-self: ${counted(done.selfDropped, "document")} whose id is ${done.selfDropped === 1 ? "its" : "their"} query's left out of the ranking`,
    );
  return notes;
}

/** A prepared run, `from[i]` the row of `run` that row i stands for, `emptied` the queries left with no row. */
export interface PreparedRun {
  run: JoinRun;
  from: Int32Array;
  emptied: number[];
  counts: RunPrepared;
}

const encoder = new TextEncoder();

/** Where the last `sep` in bytes[a, b) starts, or -1. */
function lastIndexOf(bytes: Uint8Array, a: number, b: number, sep: Uint8Array): number {
  const n = sep.length;
  for (let i = b - n; i >= a; i--) {
    let k = 0;
    while (k < n && bytes[i + k] === sep[k]) k++;
    if (k === n) return i;
  }
  return -1;
}

/** The passage number after a separator (row i's id from byte `from`): digits, else a clear error at its line. */
function passageNumberOf(run: JoinRun, i: number, from: number): number {
  const { bytes, offsets } = run.docids;
  const end = offsets[i + 1];
  let number = 0;
  for (let k = from; k < end; k++) {
    const c = bytes[k] - 48;
    if (c < 0 || c > 9) number = Number.NaN;
    number = number * 10 + c;
  }
  if (from < end && number === number) return number;
  const reason = `--rollup-method first takes a document's passage of least number: the passage ${JSON.stringify(
    docidString(run.docids, i),
  )} has no number after its separator (expected digits, as doc#0)`;
  throw run.lines
    ? new InputError(run.file, lineOfRow(run.lines, i), 0, reason)
    : badInput(`${run.file} row ${i}: ${reason}`);
}

/**
 * The run as the join should see it. A document's row stands where its first best-scored passage stood
 * (the place its best-ranked passage has under any tie order: ties by id compare documents' ids after
 * the rollup, `input` ties read the rows' order), its line that passage's; its score: `max` the best
 * passage's, `sum` the passages' sum; `first` (FirstP) its first passage's: the one whose number after the
 * separator is least (`doc#0` before `doc#3`; the document's own id, without a number, before any), and
 * the document stands where that passage stood. A passage's non-finite score stays the document's, for
 * the finite check. An id without the separator (or with nothing before it) is its own document.
 */
export function prepareRun(run: JoinRun, prep: RunPreparation): PreparedRun {
  const n = run.length;
  const { bytes, offsets } = run.docids;
  const qid = run.qid;
  const score = run.score;
  // Per document (first-seen order): the row standing for it, its score, its id's length and hash.
  const rep = new Int32Array(n);
  const value = new Float64Array(n);
  const idLength = new Int32Array(n);
  const idHash = new Int32Array(n);
  let docs = 0;
  let passages = 0;
  if (prep.rollup) {
    const sep = encoder.encode(prep.rollup.separator);
    const sum = prep.rollup.method === "sum";
    const first = prep.rollup.method === "first";
    // FirstP: each document's least passage number so far (-1: the document's own id).
    const passageNumber = first ? new Float64Array(n) : null;
    // Open addressing on (query, id hash), a document's index + 1 a slot: a string key a row was 25 times the join.
    let bits = 4;
    while (1 << bits < 2 * n) bits++;
    const mask = (1 << bits) - 1;
    const shift = 32 - bits;
    const slots = new Int32Array(1 << bits);
    // Each document's passages, latest first: a passage twice in a query is an error, as a document twice is.
    const lastRow = new Int32Array(n);
    const previousRow = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const a = offsets[i];
      let end = offsets[i + 1];
      const cut = lastIndexOf(bytes, a, end, sep);
      let number = -1;
      if (cut > a) {
        end = cut;
        passages++;
        if (passageNumber) number = passageNumberOf(run, i, cut + sep.length);
      }
      const len = end - a;
      const h = rowHash(bytes, a, end);
      const q = qid[i];
      let slot = Math.imul(h ^ Math.imul(q, 0x85ebca6b), 0x9e3779b1) >>> shift;
      let d = -1;
      for (;;) {
        const k = slots[slot] - 1;
        if (k < 0) break;
        if (idHash[k] === h && idLength[k] === len && qid[rep[k]] === q && sameId(bytes, offsets[rep[k]], a, len)) {
          d = k;
          break;
        }
        slot = (slot + 1) & mask;
      }
      const s = score[i];
      if (d < 0) {
        slots[slot] = docs + 1;
        lastRow[docs] = i;
        previousRow[i] = -1;
        rep[docs] = i;
        value[docs] = s;
        if (passageNumber) passageNumber[docs] = number;
        idHash[docs] = h;
        idLength[docs++] = len;
        continue;
      }
      const whole = offsets[i + 1] - a;
      for (let r = lastRow[d]; r >= 0; r = previousRow[r])
        if (offsets[r + 1] - offsets[r] === whole && sameId(bytes, offsets[r], a, whole))
          duplicate(run, i, run.qidNames, q);
      previousRow[i] = lastRow[d];
      lastRow[d] = i;
      const best = score[rep[d]];
      if (passageNumber) {
        // NaN first, as below; else the least number.
        if (best === best && (s !== s || number < passageNumber[d])) {
          rep[d] = i;
          value[d] = s;
          passageNumber[d] = s !== s ? -2 : number;
        }
        continue;
      }
      if (sum) value[d] += s;
      // NaN first: the finite check names that row.
      if (best === best && (s !== s || s > best)) {
        rep[d] = i;
        if (!sum) value[d] = s;
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      rep[i] = i;
      value[i] = score[i];
      idLength[i] = offsets[i + 1] - offsets[i];
      idHash[i] = run.docids.hashes[i];
    }
    docs = n;
  }
  // Documents in their rows' order: a row stands for one document at most.
  const docAt = new Int32Array(n).fill(-1);
  for (let d = 0; d < docs; d++) docAt[rep[d]] = d;
  let selfDropped = 0;
  if (prep.dropSelf) {
    const names = run.qidNames.pool();
    for (let d = 0; d < docs; d++) {
      const i = rep[d];
      const q = qid[i];
      const qa = names.offsets[q];
      const len = names.offsets[q + 1] - qa;
      if (idLength[d] !== len) continue;
      const a = offsets[i];
      let k = 0;
      while (k < len && bytes[a + k] === names.bytes[qa + k]) k++;
      if (k === len) {
        docAt[i] = -1;
        selfDropped++;
      }
    }
  }
  const m = docs - selfDropped;
  const outQid = new Int32Array(m);
  const outScore = new Float64Array(m);
  const from = new Int32Array(m);
  const outOffsets = new Int32Array(m + 1);
  const hashes = new Int32Array(m);
  let poolBytes = 0;
  for (let i = 0; i < n; i++) if (docAt[i] >= 0) poolBytes += idLength[docAt[i]];
  const pool = new Uint8Array(poolBytes);
  const rowsIn = new Int32Array(run.qidNames.size);
  const rowsOut = new Int32Array(run.qidNames.size);
  let at = 0;
  let row = 0;
  for (let i = 0; i < n; i++) {
    const q = qid[i];
    rowsIn[q]++;
    const d = docAt[i];
    if (d < 0) continue;
    // Ids are short: a loop, not a subarray a row.
    for (let a = offsets[i], b = a + idLength[d]; a < b; a++) pool[at++] = bytes[a];
    outOffsets[row + 1] = at;
    hashes[row] = idHash[d];
    outQid[row] = q;
    rowsOut[q]++;
    outScore[row] = value[d];
    from[row++] = i;
  }
  const emptied: number[] = [];
  for (let q = 0; q < rowsIn.length; q++) if (rowsIn[q] > 0 && rowsOut[q] === 0) emptied.push(q);
  const { spans: _spans, lines, ...rest } = run;
  const prepared: JoinRun = {
    ...rest,
    qid: outQid,
    score: outScore,
    docids: { bytes: pool, offsets: outOffsets, hashes },
    length: m,
    ...(lines ? { lines: linesOf(lines, from) } : {}),
  };
  return {
    run: prepared,
    from,
    emptied,
    counts: { rows: n, passages, documents: docs, selfDropped },
  };
}

/** Whether bytes[a, a + len) and bytes[b, b + len) are the same. */
function sameId(bytes: Uint8Array, a: number, b: number, len: number): boolean {
  for (let k = 0; k < len; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
}

/** Each row's line as its source row's, sparsely as RowLines keeps them. */
function linesOf(lines: RowLines, from: Int32Array): RowLines {
  const rows: number[] = [0];
  const shifts: number[] = [from.length ? lineOfRow(lines, from[0]) : 1];
  for (let i = 1; i < from.length; i++) {
    const shift = lineOfRow(lines, from[i]) - i;
    if (shift !== shifts[shifts.length - 1]) {
      rows.push(i);
      shifts.push(shift);
    }
  }
  return { rows: Int32Array.from(rows), shifts: Int32Array.from(shifts) };
}
