// Rows as `{ qid: { docid: value } }` (readQrels, readRun, --rbo); apart from rankeval/node, which the CLI
// does not load. Browser-safe.
import { documentTwice, setOwn } from "../errors/errors.js";
import type { QrelsRows } from "../io/qrels.js";
import type { RunRows } from "../io/run.js";
import { docidString, lineOfRow, type RowDocids } from "../io/rows.js";
import { asRowError, type PlaceOf } from "./input.js";

type IdValues = Record<string, Record<string, number>>;

/** Every row's docid: one decode of the whole pool when it is ASCII. */
export function docidStrings(docids: RowDocids, n: number) {
  const { bytes, offsets } = docids;
  const out = new Array<string>(n);
  let bits = 0;
  for (let i = offsets[0], end = offsets[n]; i < end; i++) bits |= bytes[i];
  if (bits >= 0x80) {
    for (let i = 0; i < n; i++) out[i] = docidString(docids, i);
    return out;
  }
  const text = new TextDecoder().decode(bytes.subarray(offsets[0], offsets[n]));
  const base = offsets[0];
  for (let i = 0; i < n; i++) out[i] = text.slice(offsets[i] - base, offsets[i + 1] - base);
  return out;
}

/** idValues, a columnar row's error said as its file's row. */
export function idValuesAt(rows: QrelsRows | RunRows, values: Float64Array, placeOf?: PlaceOf) {
  try {
    return idValues(rows, values);
  } catch (e) {
    throw placeOf ? asRowError(e, rows.file, { placeOf }) : e;
  }
}

function idValues(rows: QrelsRows | RunRows, values: Float64Array) {
  const names = rows.qidNames.stringsOf(Array.from({ length: rows.qidNames.size }, (_, i) => i));
  const docids = docidStrings(rows.docids, rows.length);
  const out: IdValues = {};
  const qid = rows.qid;
  let prev = -1;
  let docs: Record<string, number> = {};
  for (let i = 0; i < rows.length; i++) {
    const q = qid[i];
    if (q !== prev) {
      prev = q;
      if (Object.hasOwn(out, names[q])) docs = out[names[q]];
      else setOwn(out, names[q], (docs = {}));
    }
    const d = docids[i];
    if (Object.hasOwn(docs, d)) {
      throw documentTwice(d, names[q], { file: rows.file, line: lineOfRow(rows.lines, i) });
    }
    setOwn(docs, d, values[i]);
  }
  return out;
}
