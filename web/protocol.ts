// Messages between the page (main.ts) and its worker (worker.ts).

/** Page -> worker: what to evaluate. */
export type Job =
  | { kind: "trec"; qrels: File; runs: File[] }
  | { kind: "letor"; letor: File; scores: File };

/** One aggregate value: as displayed, and the number behind it (null for text such as runid). */
export interface Cell {
  text: string;
  value: number | null;
}

/** Worker -> page. */
export type Report =
  | { type: "progress"; file: string; read: number; size: number }
  | { type: "rows"; measures: string[]; conventions: string }
  | { type: "run"; name: string; cells: Record<string, Cell> }
  | { type: "warning"; message: string }
  | { type: "done" }
  | { type: "error"; message: string };
