// Every size where the code reading and evaluating files changes what it does, read from the code:
// test/faces.test.ts draws its inputs on both sides of each, and checks that each line quoted here is
// still in its file (a changed value fails until the table and the sizes follow) and that no new size
// constant has appeared in those directories without being listed here or in NOT_PATHS.
//
// A new threshold: add a row (file, the line's code as written, what changes there, its unit and
// value), then make sure SIZES in test/faces.test.ts has a set below and one above it.

export interface Threshold {
  /** The file, from the repository's root. */
  readonly file: string;
  /** The code that sets it, exactly as in the file. */
  readonly code: string;
  readonly what: string;
  readonly unit: "rows" | "bytes" | "workers";
  readonly value: number;
}

export const THRESHOLDS: readonly Threshold[] = [
  // | file                                  | code                                          | value         |
  // | src/io/rows.ts                        | this.qid = new Int32Array(256)                | 256 rows      |
  // | src/io/rows.ts                        | this.pool = new Uint8Array(4096)              | 4,096 B       |
  // | src/io/kernel-line-parser.ts          | this.place(256, 4096)                         | 256 rows      |
  // | src/io/columns.ts                     | const FIRST_BLOCK = 256                       | 256 rows      |
  // | src/io/columns.ts                     | const MAX_BLOCK = 1 << 14                     | 16,384 rows   |
  // | src/io/rows.ts                        | before >= 1 << 16                             | 64 KiB        |
  // | src/input/formats.ts                  | const FIRST_LINE_MAX = 1 << 16                | 64 KiB        |
  // | src/io/run.ts                         | const SMALL_ROWS = 1 << 16                    | 65,536 rows   |
  // | src/io/parquet.ts                     | const BATCH_ROWS = 1 << 18                    | 262,144 rows  |
  // | src/io/parquet.ts                     | const SLICE_ROWS = 1 << 20                    | 1 Mi rows     |
  // | src/pipeline/blocks.ts                | const IN_THREAD_BLOCK_ROWS = 1 << 15          | 32,768 rows   |
  // | src/pipeline/blocks.ts                | const READER_BLOCK_ROWS = 1 << 18             | 262,144 rows  |
  // | src/pipeline/blocks.ts                | const BLOCK_ROWS = 1 << 20                    | 1 Mi rows     |
  // | src/node/file-read.ts                 | const CHUNK = 1 << 20                         | 1 MiB         |
  // | src/io/arrow.ts                       | const CHUNK = 1 << 20                         | 1 MiB         |
  // | src/input/subtopics.ts                | const SNIFF_BYTES = 1 << 20                   | 1 MiB         |
  // | web/read-file.ts                      | const CHUNK = 1 << 20                         | 1 MiB         |
  // | src/pipeline/partition-coordinator.ts | chunkBytes: 256 KiB to 4 MiB                  | 256 KiB       |
  // | src/node/file-read.ts                 | const READ_AT_ONCE = 4 << 20                  | 4 MiB         |
  // | src/node/files.ts                     | const THREAD_MIN_BYTES = BLOCK_ROWS * 12      | 12 MiB        |
  // | src/io/line-parser.ts                 | const PIECE = 16 << 20                        | 16 MiB        |
  // | src/pipeline/partition-coordinator.ts | PARTITION_MIN_BYTES = 32 << 20                | 32 MiB        |
  // | src/pipeline/partition-coordinator.ts | PARTITION_MIN_WORKERS = 4                     | 4 workers     |
  {
    file: "src/io/rows.ts",
    code: "this.qid = new Int32Array(256);",
    what: "a RowsBuilder's first capacity (MS MARCO's rows past it were lost)",
    unit: "rows",
    value: 256,
  },
  {
    file: "src/io/rows.ts",
    code: "this.pool = new Uint8Array(4096);",
    what: "a RowsBuilder's first pool of id bytes",
    unit: "bytes",
    value: 4096,
  },
  {
    file: "src/io/kernel-line-parser.ts",
    code: "this.place(256, 4096);",
    what: "the kernel parser's first rows and id bytes",
    unit: "rows",
    value: 256,
  },
  {
    file: "src/io/columns.ts",
    code: "const FIRST_BLOCK = 256;",
    what: "a column's first block",
    unit: "rows",
    value: 256,
  },
  {
    file: "src/io/columns.ts",
    code: "const MAX_BLOCK = 1 << 14;",
    what: "a column's largest block",
    unit: "rows",
    value: 1 << 14,
  },
  {
    file: "src/io/rows.ts",
    code: "before >= 1 << 16",
    what: "columns grown from an estimate of the whole input, not doubled",
    unit: "bytes",
    value: 1 << 16,
  },
  {
    file: "src/input/formats.ts",
    code: "const FIRST_LINE_MAX = 1 << 16;",
    what: "the first line's bytes read to tell a file's shape",
    unit: "bytes",
    value: 1 << 16,
  },
  {
    file: "src/io/run.ts",
    code: "const SMALL_ROWS = 1 << 16;",
    what: "a per-row run's copies handed out and its kernel kept, below",
    unit: "rows",
    value: 1 << 16,
  },
  {
    file: "src/io/parquet.ts",
    code: "const BATCH_ROWS = 1 << 18;",
    what: "Parquet rows decoded at once",
    unit: "rows",
    value: 1 << 18,
  },
  {
    file: "src/io/parquet.ts",
    code: "const SLICE_ROWS = 1 << 20;",
    what: "Parquet rows a slice holds",
    unit: "rows",
    value: 1 << 20,
  },
  {
    file: "src/pipeline/blocks.ts",
    code: "export const IN_THREAD_BLOCK_ROWS = 1 << 15;",
    what: "run rows read, joined and evaluated a block at a time in one thread (a partition's owner too)",
    unit: "rows",
    value: 1 << 15,
  },
  {
    file: "src/pipeline/blocks.ts",
    code: "export const READER_BLOCK_ROWS = 1 << 18;",
    what: "run rows a block a reader thread or worker hands over",
    unit: "rows",
    value: 1 << 18,
  },
  {
    file: "src/pipeline/blocks.ts",
    code: "export const BLOCK_ROWS = 1 << 20;",
    what: "columnar rows a block on the page; the reader thread's threshold's measure",
    unit: "rows",
    value: 1 << 20,
  },
  {
    file: "src/node/file-read.ts",
    code: "const CHUNK = 1 << 20;",
    what: "the command line's and library's read chunk",
    unit: "bytes",
    value: 1 << 20,
  },
  {
    file: "src/io/arrow.ts",
    code: "const CHUNK = 1 << 20;",
    what: "Arrow bytes read at once",
    unit: "bytes",
    value: 1 << 20,
  },
  {
    file: "src/input/subtopics.ts",
    code: "export const SNIFF_BYTES = 1 << 20;",
    what: "the judgments' first MiB read to tell subtopic qrels",
    unit: "bytes",
    value: 1 << 20,
  },
  {
    file: "web/read-file.ts",
    code: "const CHUNK = 1 << 20;",
    what: "the page's read chunk",
    unit: "bytes",
    value: 1 << 20,
  },
  {
    file: "src/pipeline/partition-coordinator.ts",
    code: "Math.max(256 << 10, Math.ceil(size / (4 * parts)))",
    what: "a partition worker's chunk, at least",
    unit: "bytes",
    value: 256 << 10,
  },
  {
    file: "src/node/file-read.ts",
    code: "const READ_AT_ONCE = 4 << 20;",
    what: "files read whole, below",
    unit: "bytes",
    value: 4 << 20,
  },
  {
    file: "src/node/files.ts",
    code: "const THREAD_MIN_BYTES = BLOCK_ROWS * 12;",
    what: "a run parsed by a reader thread, from (RANKEVAL_THREAD_MIN_BYTES)",
    unit: "bytes",
    value: (1 << 20) * 12,
  },
  {
    file: "src/io/line-parser.ts",
    code: "const PIECE = 16 << 20;",
    what: "a line reader's piece",
    unit: "bytes",
    value: 16 << 20,
  },
  {
    file: "src/pipeline/partition-coordinator.ts",
    code: "export const PARTITION_MIN_BYTES = 32 << 20;",
    what: "files split among partition threads or workers, from (RANKEVAL_THREAD_MIN_BYTES, ?partition-bytes)",
    unit: "bytes",
    value: 32 << 20,
  },
  {
    file: "src/pipeline/partition-coordinator.ts",
    code: "export const PARTITION_MIN_WORKERS = 4;",
    what: "threads or workers needed to partition at the default threshold",
    unit: "workers",
    value: 4,
  },
];

/**
 * Size constants of those directories that choose no path for the inputs drawn here: memory headroom
 * and limits no test input reaches (a 64 MiB line, 192 MiB of join room), masks, and the page's rows
 * kept for new settings (8M).
 */
export const NOT_PATHS: readonly string[] = [
  // SHA-256's rotations (S0, S1): bit shifts, not sizes.
  "src/io/sha256.ts:S0",
  "src/io/sha256.ts:S1",
  "src/io/interner.ts:ID_MASK",
  "src/io/line-parser.ts:MAX_LINE_BYTES",
  "src/io/decimal.ts:TWO53",
  "src/io/kernel-line-parser.ts:SPARE_BYTES",
  "src/io/qrels.ts:JOIN_ROOM",
  "src/pipeline/join-kernel.ts:HEADROOM",
  "web/worker.ts:KEEP_ROWS",
  "web/partitions.ts:CHUNK_MOST",
  "src/pipeline/aggregate.ts:MIN_GEO_MEAN",
  // How large a scratch of labels evaluateRun keeps from call to call: memory kept, not a path
  // (test/small-calls.test.ts joins past it).
  "src/pipeline/join-memory.ts:SCRATCH_KEPT",
];

/** The directories scanned for size constants. */
export const SCANNED = [
  "src/io",
  "src/input",
  "src/pipeline",
  "src/node/files.ts",
  "src/node/file-read.ts",
  "src/node/partitioned.ts",
  "web/partitions.ts",
  "web/read-file.ts",
  "web/worker.ts",
];

/** A size constant: `const NAME = ...` with a shift, a long number or BLOCK_ROWS. */
export const SIZE_CONSTANT =
  /(?:export )?const ([A-Z][A-Z0-9_]*)\s*(?::\s*number)?\s*=\s*([^;]*(?:<<|\d_\d{3}|\b\d{4,}\b|BLOCK_ROWS)[^;]*);/g;
