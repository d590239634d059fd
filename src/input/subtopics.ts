// ndeval's subtopic judgments (`qid subtopic docno judgment`): sniffed, read, joined to runs. Browser-safe.
import { joinDiversity, SubtopicShape } from "../pipeline/join-subtopics.js";
import { noQueryInCommon, RankevalError, type QuerySample } from "../errors/errors.js";
import { GroupQrelsParser } from "../io/group-qrels.js";
import { Interner } from "../io/interner.js";
import { docidString } from "../io/rows.js";
import { readFirstLines, type ParserChoice } from "./formats.js";
import type { ChunkSink } from "./formats.js";
import { readRows, type Input, type TextInput } from "./input.js";

export const SNIFF_BYTES = 1 << 20;

/** Whether the first MiB judges a document under two subtopics (a failed read: no). */
export async function subtopicShaped(read: (sink: ChunkSink) => Promise<void>) {
  const shape = new SubtopicShape();
  try {
    await readFirstLines(read, (line) => shape.line(line), SNIFF_BYTES);
  } catch {
    return false;
  }
  return shape.found;
}

export interface SubtopicJudgments {
  qrels: { qid: string[]; subtopic: string[]; docid: string[]; rel: Float64Array };
  sample: QuerySample;
}

function sampleOf(name: string, qids: readonly string[]) {
  const distinct = [...new Set(qids)];
  return { name, queries: distinct.length, some: distinct.slice(0, 3) };
}

export async function readSubtopicJudgments(input: TextInput): Promise<SubtopicJudgments> {
  const parser = new GroupQrelsParser({ file: input.name, groupName: "subtopic", valueName: "judgment" });
  await input.read(parser);
  const q = parser.finish();
  if (q.length === 0) {
    throw new RankevalError("bad-input", `${input.name}: no judgments in it (qid subtopic docno judgment)`);
  }
  const qrels = { qid: q.qid, subtopic: q.group, docid: q.docno, rel: q.value };
  return { qrels, sample: sampleOf(input.name, q.qid) };
}

/** `complete`: ndeval -c. */
export async function joinSubtopicRun(
  judgments: SubtopicJudgments,
  input: Input,
  choice: ParserChoice,
  complete?: boolean,
) {
  const { rows: run } = await readRows("run", input, new Interner(), choice);
  if (run.length === 0) throw new RankevalError("bad-input", `${input.name}: the run has no rankings`);
  const qid = Array.from(run.qid, (id) => run.qidNames.stringOf(id));
  const docid = Array.from({ length: run.length }, (_, i) => docidString(run.docids, i));
  const joined = joinDiversity(judgments.qrels, { qid, docid, score: run.score }, { complete });
  if (joined.qids.length === 0) throw noQueryInCommon(sampleOf(input.name, qid), judgments.sample);
  return { joined, runTag: run.runTag, qids: qid };
}
