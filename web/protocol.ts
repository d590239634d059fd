// Messages between the page (main.ts) and its worker (worker.ts).
import type { Conventions } from "../src/trec/plan.js";

/** What to compute: -m names as the CLI takes them (none: the defaults) and the conventions. */
export interface Settings {
  measures: string[];
  conventions: Conventions;
}

/** Page -> worker: files to read and evaluate, or new settings for the files already read. */
export type Job =
  | { kind: "trec"; qrels: File; runs: File[]; settings: Settings }
  | { kind: "letor"; letor: File; scores: File; settings: Settings }
  | { kind: "settings"; settings: Settings };

/** One value: as displayed, and the number behind it (null for text such as runid). */
export interface Cell {
  text: string;
  value: number | null;
}

/** One run's per-query values: qids in order, and each measure's cells in the same order. */
export interface PerQuery {
  qids: string[];
  cells: Record<string, Cell[]>;
}

/** Worker -> page. */
export type Report =
  | { type: "progress"; file: string; read: number; size: number }
  | { type: "rows"; measures: string[]; conventions: string }
  | { type: "run"; name: string; cells: Record<string, Cell>; perQuery: PerQuery }
  | { type: "downloads"; json: string; csv: string; trec: string | null }
  | { type: "warning"; message: string }
  | { type: "done" }
  | { type: "error"; message: string };
