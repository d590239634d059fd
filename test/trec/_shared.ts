// ../shared beside the repository holds trec_eval's golden outputs; absent on some machines.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function goldenUrl(name: string): URL {
  return new URL(`../../../shared/golden/trec_eval/${name}`, import.meta.url);
}

export function haveGolden(...names: string[]): boolean {
  const missing = names.filter((n) => !existsSync(fileURLToPath(goldenUrl(n))));
  if (missing.length) {
    console.warn(
      `skipping trec_eval golden tests: ${missing.map((n) => fileURLToPath(goldenUrl(n))).join(", ")} not found (golden files live in ../shared)`,
    );
  }
  return missing.length === 0;
}

export function readGolden(name: string): string {
  return readFileSync(goldenUrl(name), "latin1");
}

/** A golden output line split into its three fields (the name still padded). */
export function splitLine(line: string): { name: string; qid: string; value: string } {
  const [padded, qid, value] = line.split("\t");
  return { name: padded.trimEnd(), qid, value };
}
