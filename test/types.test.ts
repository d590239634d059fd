// The public types: test/types/fixture.ts type-checks, with every `@ts-expect-error` line an error
// (a misspelled measure name, cutoff or option), and the .d.ts the build emits serves it the same,
// to the project's TypeScript and to TypeScript 5.0 (the oldest the package supports).
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const fixture = fileURLToPath(new URL("./types/fixture.ts", import.meta.url));
const dist = fileURLToPath(new URL("../dist/index.d.ts", import.meta.url));

const ts50 = createRequire(import.meta.url)("typescript-5.0") as typeof ts;

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

function diagnostics(file: string, tsc: typeof ts = ts): string[] {
  const program = tsc.createProgram([file], OPTIONS);
  return tsc.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
    return `${where} ${tsc.flattenDiagnosticMessageText(d.messageText, "\n")}`;
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

  for (const [name, tsc] of [
    ["the project's TypeScript", ts],
    ["TypeScript 5.0", ts50],
  ] as const) {
    it.skipIf(!existsSync(dist))(
      `the same against the built .d.ts (dist/), ${name}`,
      () => {
        expect(tsc.version).toMatch(name === "TypeScript 5.0" ? /^5\.0\./ : /^\d/);
        const dir = mkdtempSync(join(tmpdir(), "rankeval-types-"));
        const file = join(dir, "fixture.ts");
        // An ES module, as the fixture is beside test/'s package.json (TypeScript 5.0 cannot require one).
        writeFileSync(join(dir, "package.json"), '{ "type": "module" }');
        const text = readFileSync(fixture, "utf8").replace(
          '"../../src/index.js"',
          JSON.stringify(dist.replace(/\.d\.ts$/, ".js")),
        );
        writeFileSync(file, text);
        expect(diagnostics(file, tsc)).toEqual([]);
      },
      120_000,
    );
  }
});
