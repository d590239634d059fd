// The layout CONTRIBUTING promises, checked: folders import one another without a cycle (so each can be
// read from the ones below it), no two source files share a name, and src/'s root holds only index.ts.
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "..");
const sources = ["src", "assembly", "web"].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.c?ts$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f)),
);

/**
 * A file's folder: each file of src/'s root counts as its own folder, and a file in a folder nested in
 * one of src/'s counts as part of that top folder (src/output/html/data.ts is src/output's).
 */
const folderOf = (file: string) => {
  const parts = dirname(file).split(sep);
  if (parts[0] !== "src") return dirname(file);
  return parts.length === 1 ? file.replace(/\.c?ts$/, "") : parts.slice(0, 2).join("/");
};

/** Folder -> the folders its files import from (relative imports and re-exports). */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources) {
    const text = readFileSync(join(root, file), "utf8");
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\.[^"']+)["']/gm)) {
      const target = relative(root, resolve(root, dirname(file), m[1]));
      const [a, b] = [folderOf(file), folderOf(target)];
      if (a === b) continue;
      if (!graph.has(a)) graph.set(a, new Set());
      graph.get(a)!.add(b);
    }
  }
  return graph;
}

/** A cycle through `graph` as a list of folders (first = last), or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (v: string): string[] | null => {
    state.set(v, "open");
    path.push(v);
    for (const w of graph.get(v) ?? []) {
      if (state.get(w) === "open") return [...path.slice(path.indexOf(w)), w];
      if (!state.has(w)) {
        const c = visit(w);
        if (c) return c;
      }
    }
    path.pop();
    state.set(v, "done");
    return null;
  };
  for (const v of graph.keys()) {
    const c = state.has(v) ? null : visit(v);
    if (c) return c;
  }
  return null;
}

describe("layout", () => {
  it("reads the imports it checks (a test that finds no edges would pass anything)", () => {
    const graph = folderGraph();
    expect(graph.get("src/node")?.has("src/pipeline")).toBe(true);
    expect(graph.get("assembly")?.has("assembly/metrics")).toBe(true);
    expect(folderOf("src/output/html/data.ts")).toBe("src/output");
    expect(graph.has("src/output/html")).toBe(false);
    expect(
      findCycle(
        new Map([
          ["a", new Set(["b"])],
          ["b", new Set(["c"])],
          ["c", new Set(["a"])],
        ]),
      ),
    ).toEqual(["a", "b", "c", "a"]);
  });

  it("has no import cycle between folders", () => {
    const cycle = findCycle(folderGraph());
    expect(cycle, cycle ? `folders import each other: ${cycle.join(" -> ")}` : "").toBeNull();
  });

  it("keeps src/judgments a leaf: it reads the pipeline's layers, and only the faces (the page's web/ too) read it", () => {
    const graph = folderGraph();
    const reads = [...(graph.get("src/judgments") ?? [])];
    expect(reads.length).toBeGreaterThan(0);
    const below = [
      "src/pipeline",
      "src/io",
      "src/errors",
      "src/output",
      "src/c",
      "src/trec",
      "src/measures",
      "src/compare",
    ];
    expect(reads.filter((f) => !below.includes(f))).toEqual([]);
    const readers = [...graph].filter(([, to]) => to.has("src/judgments")).map(([from]) => from);
    expect(readers.filter((f) => !["src/index", "src/app", "src/node", "web"].includes(f))).toEqual([]);
  });

  it("gives every source file its own name (index.ts aside) and keeps src/'s root to index.ts", () => {
    const byName = new Map<string, string[]>();
    for (const f of sources) {
      if (basename(f) === "index.ts") continue;
      byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f]);
    }
    expect([...byName.values()].filter((fs) => fs.length > 1)).toEqual([]);
    expect(sources.filter((f) => dirname(f) === "src")).toEqual(["src/index.ts"]);
  });
});
