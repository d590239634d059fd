// Holes filled (issue 38): judgments `base` with another set's labels (`extra`, as an LLM's) only where the
// base has none, for the queries the base judges; and how many holes each run's top `depth` has under the
// base, how many the extra set fills, how many remain. A hole: a document ranked with no row in the base
// (any label, as ir_measures' Judged@k counts judged; trec_eval's unj@k also counts a negative label).
// Browser-safe.
import { badInput, checkOptions, ANY, shown, type OptionType } from "../errors/errors.js";
import { Interner } from "../io/interner.js";
import { sortedOrder } from "../c/strings.js";
import type { Qrels, Run } from "../pipeline/join-memory.js";
import { inTrecOrder, Scratch } from "./pools.js";
import { groupSource, QueryDocs, readSource, type Source } from "./query-docs.js";

export interface FillHolesOptions {
  /** Runs whose holes to count (`{ qid: { docid: score } }` or columns, as `evaluateRun` reads them). */
  readonly runs?: readonly Run[];
  /** Each run's top `depth` documents are counted. @default 10 */
  readonly depth?: number;
}

export interface RunHoles {
  /** The run's index in `runs`. */
  readonly run: number;
  /** The run's top `depth` documents over the queries the base judges (fewer where a query ranks fewer). */
  readonly ranked: number;
  /** Of those, the documents the base has no row for. */
  readonly holes: number;
  /** Of the holes, those the extra set labels. */
  readonly filled: number;
  /** holes - filled: still unjudged under the filled judgments. */
  readonly remaining: number;
}

export interface FilledJudgments {
  /** The base's rows as given, then the extra set's rows whose (qid, docid) the base lacks, in their order. */
  readonly qrels: { qid: string[]; docid: string[]; rel: number[] };
  /** Rows taken from the extra set. */
  readonly filled: number;
  /** The extra set's rows for queries the base does not judge: left out. */
  readonly skipped: number;
  readonly depth: number;
  /** Per run of `runs`, in their order (empty without runs). */
  readonly runs: RunHoles[];
}

const FILL_OPTIONS: Readonly<Record<keyof FillHolesOptions, OptionType>> = {
  runs: ANY,
  depth: {
    test: (v) => v === Infinity || (typeof v === "number" && Number.isSafeInteger(v) && v >= 1),
    is: "an integer >= 1 or Infinity",
  },
};

const JUDGED = 1;
const FILLED = 2;
const decoder = new TextDecoder();

function docidOf(s: Source, row: number): string {
  const { bytes, offsets } = s.ids;
  return decoder.decode(bytes.subarray(offsets[row], offsets[row + 1]));
}

/**
 * `base` with `extra`'s labels where the base has no row for the document, for the queries the base
 * judges only: a query the base lacks is not evaluated under it, and labels of it alone would add it
 * (changing which queries a mean is over); LLM labels are made for the judged topics' unjudged documents.
 * Judgments are `{ qid: { docid: label } }` or columns, as `evaluateRun` reads them; a document twice in
 * one input is an error, named by the input (`base`, `extra`, `runs[0]`).
 */
export function fillHoles(base: Qrels, extra: Qrels, options: FillHolesOptions = {}): FilledJudgments {
  const o = checkOptions(options, FILL_OPTIONS, "fillHoles");
  const depth = o.depth ?? 10;
  const runs = o.runs ?? [];
  if (!Array.isArray(runs)) throw badInput(`fillHoles: runs must be an array of runs, not ${shown(runs)}`);
  const names = new Interner(1024);
  const b = readSource(base, "base", "rel", names);
  const judgedQueries = names.size;
  const x = readSource(extra, "extra", "rel", names);
  const sources: Source[] = [b, x, ...runs.map((run, r) => readSource(run, `runs[${r}]`, "score", names))];
  for (const s of sources) groupSource(s, names.size);
  const R = runs.length;

  const table = new QueryDocs(sources);
  const scratch = new Scratch();
  let flags = new Uint8Array(0);
  const taken: number[] = [];
  let skipped = 0;
  const counts = Array.from({ length: R }, () => ({ ranked: 0, holes: 0, filled: 0 }));
  const qids = names.stringsOf(Array.from({ length: names.size }, (_, q) => q));
  for (const q of sortedOrder(qids)) {
    const judged = q < judgedQueries;
    let rows = 0;
    for (const s of judged ? sources : [x]) rows += s.begin[q + 1] - s.begin[q];
    table.reset(rows);
    if (flags.length < rows) flags = new Uint8Array(rows);
    else flags.fill(0, 0, rows);
    for (let i = b.begin[q]; i < b.begin[q + 1]; i++) flags[table.add(0, b.order[i], q)] |= JUDGED;
    for (let i = x.begin[q]; i < x.begin[q + 1]; i++) {
      const u = table.add(1, x.order[i], q);
      if (!judged) skipped++;
      else if (!(flags[u] & JUDGED)) {
        flags[u] |= FILLED;
        taken.push(x.order[i]);
      }
    }
    if (!judged) continue;
    for (let r = 0; r < R; r++) {
      const run = sources[2 + r];
      const ranked = run.order.slice(run.begin[q], run.begin[q + 1]);
      inTrecOrder(run, ranked, scratch);
      const c = counts[r];
      for (let i = 0; i < ranked.length; i++) {
        const u = table.add(2 + r, ranked[i], q);
        if (i >= depth) continue;
        c.ranked++;
        if (flags[u] & JUDGED) continue;
        c.holes++;
        if (flags[u] & FILLED) c.filled++;
      }
    }
  }

  taken.sort((i, j) => i - j);
  const n = b.qid.length;
  const qrels = { qid: new Array<string>(n), docid: new Array<string>(n), rel: new Array<number>(n) };
  for (let i = 0; i < n; i++) {
    qrels.qid[i] = qids[b.qid[i]];
    qrels.docid[i] = docidOf(b, i);
    qrels.rel[i] = b.value[i];
  }
  for (const i of taken) {
    qrels.qid.push(qids[x.qid[i]]);
    qrels.docid.push(docidOf(x, i));
    qrels.rel.push(x.value[i]);
  }
  return {
    qrels,
    filled: taken.length,
    skipped,
    depth,
    runs: counts.map((c, run) => ({ run, ...c, remaining: c.holes - c.filled })),
  };
}
