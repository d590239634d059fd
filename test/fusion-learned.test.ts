// ranx's learned fusion methods (src/fusion/learned.ts) against ranx 0.3.20 itself: fixtures made by
// test/fusion/make-ranx-learned-fixtures.py (../shared/tools/ranx-python.sh runs it), whose scores tie in
// lists longer than numba's insertion-sort threshold, so that ranx's order of tied documents is tested too.
import { readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { close } from "./fusion/_close.js";
import { fuse } from "../src/fusion/fuse.js";
import { LEARNED_METHODS } from "../src/fusion/learned.js";
import type { ScoredRun } from "../src/fusion/run-shapes.js";

type Scores = Record<string, Record<string, number>>;
interface Learned {
  method: string;
  train: Record<string, unknown>;
  params: Record<string, unknown>;
  fused: Scores;
  fused_min_max: Scores;
}
const fixtures = JSON.parse(readFileSync(new URL("./fixtures/fusion/ranx-learned.json", import.meta.url), "utf8")) as {
  cases: { name: string; qrels: Scores; runs: Scores[]; learned: Learned[] }[];
};

for (const c of fixtures.cases) {
  describe(`learned fusion as ranx 0.3.20 (${c.name})`, () => {
    for (const l of c.learned) {
      const label = `${l.method} ${JSON.stringify(l.train)}${"w" in l.params ? ` w=${l.params.w}` : ""}`;
      it(`${label}: train's parameters`, () => {
        const { w: _w, ...trained } = l.params;
        close(LEARNED_METHODS[l.method].train(c.qrels, c.runs, l.train), trained, l.method);
      });
      it(`${label}: fused scores`, () => {
        close(LEARNED_METHODS[l.method].fuse(c.runs as ScoredRun[], l.params), l.fused, l.method);
        close(fuse(c.runs, { method: l.method, norm: null, params: l.params }), l.fused, l.method);
      });
      it(`${label}: fused by fuse() after ranx's default norm, min-max`, () => {
        close(fuse(c.runs, { method: l.method, params: l.params }), l.fused_min_max, l.method);
      });
    }
  });
}
