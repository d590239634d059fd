import { RankevalError } from "../errors/errors.js";
import { GroupParser } from "../io/query-groups.js";
import { Interner } from "../io/interner.js";
import { LetorParser } from "../io/letor.js";
import { ScoresParser } from "../io/scores.js";
import { letorRowsBatch, type LetorInput } from "../pipeline/letor-batch.js";
import type { TextInput } from "./input.js";

/** A LETOR/SVMlight file and its predictions (and group sizes, without qid:) as one batch. `noQid`: said when needed and missing. */
export async function readLetor(letor: TextInput, scores: TextInput, groups: TextInput | null, noQid: string) {
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
  // No rows: letorRowsBatch says so.
  if (!data.spans && data.length > 0) {
    if (!groups) throw new RankevalError("bad-input", `${letor.name} has no qid: fields; ${noQid}`);
    const groupParser = new GroupParser({ file: groups.name });
    await groups.read(groupParser);
    sizes = { sizes: groupParser.finish(), file: groups.name };
  }
  const score = scoresParser.finish();
  return letorRowsBatch({ data, file: letor.name, score, scoresFile: scores.name, groups: sizes });
}
