/** Names for each role, the first present used (`query-id`, `corpus-id`, qrels' `score`: BEIR's; `judgment`: UMBRELA's). `tag`: a run's tag (trec_eval's runid, the last row's), optional, Parquet and Arrow only. */
export const DEFAULT_COLUMNS = {
  qid: ["qid", "query", "query_id", "query-id", "topic"],
  docid: ["docid", "doc", "doc_id", "docno", "document", "corpus-id"],
  run: ["score", "rank_score", "prediction"],
  qrels: ["rel", "label", "relevance", "grade", "judgment", "score"],
  tag: ["tag", "runid", "run_id", "run_tag"],
} as const;

/** UMBRELA's field: 1 where the judge's answer was parsed; otherwise its label is a fallback 0, not a judgment (JSON lines skip such rows). */
export const RESULT_STATUS = "result_status";

export interface ColumnNames {
  qid?: string;
  docid?: string;
  value?: string;
  tag?: string;
}

/** The column given (as written, else ignoring case and blanks) or the first default; or -1. */
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

const ROLES = ["qid", "docid", "value"] as const;
export type Role = (typeof ROLES)[number];

/** A role as messages name it: "query id", "document id", "score" or "label". */
export function roleWhat(role: Role | "tag", kind: "qrels" | "run"): string {
  return role === "qid"
    ? "query id"
    : role === "docid"
      ? "document id"
      : role === "tag"
        ? "run tag"
        : kind === "qrels"
          ? "label"
          : "score";
}

function defaultsOf(role: Role | "tag", kind: "qrels" | "run"): readonly string[] {
  return role === "value" ? DEFAULT_COLUMNS[kind] : DEFAULT_COLUMNS[role];
}

/** The columns of each role among `names` (tag -1: none), or a role `missing` or a column taken `twice`. */
export function pickColumns(
  names: readonly string[],
  kind: "qrels" | "run",
  given: ColumnNames = {},
):
  | { qid: number; docid: number; value: number; tag: number }
  | { missing: Role | "tag"; looked: string }
  | { twice: [Role, Role]; name: string } {
  const found: Record<string, number> = {};
  for (const role of ROLES) {
    const i = findColumn(names, given[role], defaultsOf(role, kind));
    if (i < 0)
      return {
        missing: role,
        looked: given[role] !== undefined ? JSON.stringify(given[role]) : defaultsOf(role, kind).join(", "),
      };
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
    // A default name already taken (a "tag" column named as the document id) is no tag.
    if (given.tag === undefined && ROLES.some((r) => found[r] === tag)) tag = -1;
  }
  return { qid: found.qid, docid: found.docid, value: found.value, tag };
}
