/** A run: query id -> document id -> score (higher ranks first). */
export type ScoredRun = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** Judgments: query id -> document id -> label (above 0 is relevant). */
export type Judgments = Readonly<Record<string, Readonly<Record<string, number>>>>;
