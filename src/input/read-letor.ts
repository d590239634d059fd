// A LETOR/SVMlight file, its predictions and, without qid:, its query group sizes, read into one batch.
import { RankevalError } from "../errors/errors.js";
import { GroupParser } from "../io/query-groups.js";
import { Interner } from "../io/interner.js";
import { LetorParser } from "../io/letor.js";
import { ScoresParser } from "../io/scores.js";
import { letorRowsBatch, type LetorInput } from "../pipeline/letor-batch.js";
import type { TextInput } from "./input.js";

/** The batch of a LETOR file and its predictions. `noQid`: said when the rows have no qid: and no `groups` is given. */
export async function readLetor(letor: TextInput, scores: TextInput, groups: TextInput | null, noQid: string) {
  // Document ids kept per row (no table of every id), read by the kernel's fast path.
  const letorParser = new LetorParser({
    file: letor.name,
    qids: new Interner(),
    docids: "per-row",
    expectedBytes: letor.size,
  });
  await letor.read(letorParser);
  const data = letorParser.finish();
  const scoresParser = new ScoresParser({ file: scores.name, expectedBytes: scores.size });
  await scores.read(scoresParser);
  let sizes: LetorInput["groups"];
  // No rows at all: letorRowsBatch says so, before asking for groups the file does not need.
  if (!data.spans && data.length > 0) {
    if (!groups) throw new RankevalError("bad-input", `${letor.name} has no qid: fields; ${noQid}`);
    const groupParser = new GroupParser({ file: groups.name });
    await groups.read(groupParser);
    sizes = { sizes: groupParser.finish(), file: groups.name };
  }
  const score = scoresParser.finish();
  return letorRowsBatch({ data, file: letor.name, score, scoresFile: scores.name, groups: sizes });
}
