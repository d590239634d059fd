/**
 * Which named column holds the query id, the document id, the value (a run's score, a judgment's
 * label) and, in a run, the run tag: one rule for every input with named columns, the CSV/TSV header
 * (delimited.ts) and the columns of a Parquet or Arrow file (columnar.ts). Browser compatible.
 */

/**
 * Header names for each role: the first present is used. `query-id`, `corpus-id` and, in qrels,
 * `score` are BEIR's (its qrels/*.tsv: `query-id<TAB>corpus-id<TAB>score`, the score a label).
 * `tag` is a run's tag (trec_eval's runid, the last row's), read from Parquet and Arrow files only,
 * where it is optional.
 */
export const DEFAULT_COLUMNS = {
  qid: ["qid", "query", "query_id", "query-id", "topic"],
  docid: ["docid", "doc", "doc_id", "docno", "document", "corpus-id"],
  run: ["score", "rank_score", "prediction"],
  qrels: ["rel", "label", "relevance", "grade", "score"],
  tag: ["tag", "runid", "run_id", "run_tag"],
} as const;

/** Which header names hold the query id, the document id, the value (score or label) and a run's tag. */
export interface ColumnNames {
  qid?: string;
  docid?: string;
  value?: string;
  /** A run's tag (trec_eval's runid: the last row's). Parquet and Arrow files only. */
  tag?: string;
}

/**
 * The index of the column for one role among `names`: the name given (as written, else ignoring case
 * and blanks around it), or else the first of `defaults` present (ignoring case and blanks); -1 when
 * none is there.
 */
export function findColumn(names: readonly string[], given: string | undefined, defaults: readonly string[]): number {
  const norm = names.map((s) => s.trim().toLowerCase());
  if (given !== undefined) {
    const i = names.indexOf(given);
    return i >= 0 ? i : norm.indexOf(given.trim().toLowerCase());
  }
  for (const name of defaults) {
    const i = norm.indexOf(name);
    if (i >= 0) return i;
  }
  return -1;
}

/** The three roles every input has, in the order they are looked for. */
const ROLES = ["qid", "docid", "value"] as const;
export type Role = (typeof ROLES)[number];

/** A role as messages name it: "query id", "document id", "score" or "label". */
export function roleWhat(role: Role | "tag", kind: "qrels" | "run"): string {
  return role === "qid" ? "query id" : role === "docid" ? "document id" : role === "tag" ? "run tag" : kind === "qrels" ? "label" : "score";
}

/** The default names of a role, by kind. */
function defaultsOf(role: Role | "tag", kind: "qrels" | "run"): readonly string[] {
  return role === "value" ? DEFAULT_COLUMNS[kind] : DEFAULT_COLUMNS[role];
}

/**
 * The columns of each role among `names` (tag: -1 when absent, and always for judgments), or what
 * is wrong, for the caller's message: a role no column has (`missing`, with what was looked for), or
 * one column taken for two roles (`twice`).
 */
export function pickColumns(
  names: readonly string[], kind: "qrels" | "run", given: ColumnNames = {},
): { qid: number; docid: number; value: number; tag: number } | { missing: Role | "tag"; looked: string } | { twice: [Role, Role]; name: string } {
  const found: Record<string, number> = {};
  for (const role of ROLES) {
    const i = findColumn(names, given[role], defaultsOf(role, kind));
    if (i < 0) return { missing: role, looked: given[role] !== undefined ? JSON.stringify(given[role]) : defaultsOf(role, kind).join(", ") };
    for (const before of ROLES) {
      if (before === role) break;
      if (found[before] === i) return { twice: [before, role], name: names[i] };
    }
    found[role] = i;
  }
  let tag = -1;
  if (kind === "run") {
    tag = findColumn(names, given.tag, DEFAULT_COLUMNS.tag);
    if (tag < 0 && given.tag !== undefined) return { missing: "tag", looked: JSON.stringify(given.tag) };
    // A default name taken already (a column "tag" named as the document id) is no tag.
    if (given.tag === undefined && ROLES.some((r) => found[r] === tag)) tag = -1;
  }
  return { qid: found.qid, docid: found.docid, value: found.value, tag };
}
