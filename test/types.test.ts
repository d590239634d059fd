// The public types: test/types/fixture.ts type-checks, with every `@ts-expect-error` line an error
// (a misspelled measure name, cutoff or option), and the .d.ts the build emits serves it the same.
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const fixture = fileURLToPath(new URL("./types/fixture.ts", import.meta.url));
const dist = fileURLToPath(new URL("../dist/index.d.ts", import.meta.url));

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: [],
  skipLibCheck: true,
};

function diagnostics(file: string): string[] {
  const program = ts.createProgram([file], OPTIONS);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

describe("types", () => {
  it("the fixture type-checks against the sources, every @ts-expect-error an error", () => {
    expect(diagnostics(fixture)).toEqual([]);
  }, 120_000);

  it("a misspelled name is a compile error (the fixture's expectations are not vacuous)", () => {
    const dir = mkdtempSync(join(tmpdir(), "rankeval-types-"));
    const file = join(dir, "typo.ts");
    const src = fileURLToPath(new URL("../src/index.js", import.meta.url));
    writeFileSync(
      file,
      `import { evaluate } from ${JSON.stringify(src)};\nevaluate({ qid: [1], score: [1], rel: [1] }, "ndgc@10");\n`,
    );
    const errors = diagnostics(file);
    expect(errors.length).toBe(1);
    expect(errors[0]).toMatch(/"ndgc@10"/);
  }, 120_000);

  it.skipIf(!existsSync(dist))(
    "the same against the built .d.ts (dist/)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "rankeval-types-"));
      const file = join(dir, "fixture.ts");
      const text = readFileSync(fixture, "utf8").replace(
        '"../../src/index.js"',
        JSON.stringify(dist.replace(/\.d\.ts$/, ".js")),
      );
      writeFileSync(file, text);
      expect(diagnostics(file)).toEqual([]);
    },
    120_000,
  );
});
