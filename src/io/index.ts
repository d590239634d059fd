// Streaming parsers: push(chunk) any number of times, then finish(). No Node built-ins (browser compatible).
export { Interner } from "./interner.js";
export { Float64Column, Int32Column } from "./columns.js";
export {
  QrelsParser,
  type Qrels,
  type QrelsRows,
  type QrelsOf,
  type QrelsParserOptions,
  type DocidMode,
} from "./qrels.js";
export { RunParser, type Run, type RunRows, type RunOf, type RunParserOptions } from "./run.js";
export {
  lineOfRow,
  docidBytes,
  docidString,
  rowHash,
  type RowDocids,
  type RowLines,
  type SkippedRows,
} from "./rows.js";
export { LetorParser, type Letor, type LetorRows, type LetorOf, type LetorParserOptions } from "./letor.js";
export type { QuerySpans } from "./rows.js";
export { ScoresParser, type ScoresParserOptions } from "./scores.js";
export { GroupParser, type GroupParserOptions } from "./query-groups.js";
export { JsonParser, type JsonParserOptions, type RowsKind, type RowsOf } from "./json.js";
export { JsonlParser, type JsonlParserOptions } from "./jsonl.js";
export { DelimitedParser, DEFAULT_COLUMNS, type ColumnNames, type DelimitedParserOptions } from "./delimited.js";
export { GroupQrelsParser, type GroupQrels, type GroupQrelsParserOptions } from "./group-qrels.js";
export { PrefsParser, type Prefs, type PrefsParserOptions } from "./prefs.js";
export { ZscoresParser, type Zscores, type ZscoresParserOptions } from "./zscores.js";
// Parquet (hyparquet) and Arrow IPC (apache-arrow), each loaded when first used.
export {
  ColumnarRows,
  RowError,
  bytesSource,
  columnarFormatOf,
  columnarRows,
  readColumnarSource,
  type ByteSource,
  type ColumnBatch,
  type ColumnValues,
  type ColumnarFormat,
  type ColumnarReadOptions,
} from "./columnar.js";
