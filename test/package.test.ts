// The package as npm users get it: `npm pack` once, the tarball installed into a fresh project
// without network (rankeval has no dependencies), then used as they would: ES module imports and
// CommonJS require of every entry point (CommonJS also with Node's require(esm) turned off, as on
// Node 20 before 20.19), strict TypeScript consumers checked by the project's TypeScript and by
// TypeScript 5.0 (nodenext ESM and CommonJS, bundler, and the old node10 resolution), a Vite app
// that imports the library and builds (and runs in chromium under a Content-Security-Policy), the
// `rankeval` bin and the bundled examples, and the tarball's file list. Needs a built dist/ (npm
// test builds).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger, build as viteBuild } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";
import { ok, packAndInstall, root, run, type Packed } from "./_package.js";

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, any>;
const resolveHere = createRequire(import.meta.url).resolve;
const TSC = resolveHere("typescript/bin/tsc");
const TSC_5_0 = resolveHere("typescript-5.0/bin/tsc");
const SUBPATHS = ["rankeval", "rankeval/io", "rankeval/reference", "rankeval/node"];

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const built = existsSync(join(root, "dist/index.cjs")) && existsSync(join(root, "dist/node/index.js"));

describe("the packed package, installed in a fresh project", () => {
  const tmp = mkdtempSync(join(tmpdir(), "rankeval-package-"));
  const app = join(tmp, "app");
  const installed = join(app, "node_modules/rankeval");
  let packed: Packed;
  const examples = (name: string) => join(installed, "examples", name);

  beforeAll(() => {
    if (!built)
      throw new Error("dist/ is not built (or not with its CommonJS files): run `npm run build` (npm test does)");
    // The build ran before (pretest): pack what it made.
    packed = packAndInstall(tmp, app, "consumer");
  }, 300_000);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("ships LICENSE, README, package.json, the examples and dist; no tests, sources or dangling source maps", () => {
    const files = packed.files.map((f) => f.path).sort();
    for (const f of [
      "LICENSE",
      "README.md",
      "package.json",
      "examples/quickstart.mjs",
      "examples/quickstart.cjs",
      "examples/evaluate-files.mjs",
      "examples/qrels.txt",
      "examples/bm25.run",
      "examples/rerank.run",
      "examples/llm-qrels.txt",
      "dist/node/bin.js",
    ]) {
      expect(files).toContain(f);
    }
    // Every entry in both formats, with its types.
    for (const entry of ["index", "io/index", "reference/index", "node/index"]) {
      for (const ext of [".js", ".d.ts", ".cjs", ".d.cts"]) expect(files).toContain(`dist/${entry}${ext}`);
    }
    expect(
      files.filter(
        (f) => /(^|\/)(test|tests|__tests__|bench|web|src|assembly)\//.test(f) || /\.test\.|\.bench\./.test(f),
      ),
    ).toEqual([]);
    const set = new Set(files);
    for (const f of files) {
      if (f.endsWith(".map")) {
        const map = JSON.parse(readFileSync(join(installed, f), "utf8")) as { sources: string[] };
        for (const s of map.sources) expect(set.has(join(dirname(f), s)), `${f} points at ${s}`).toBe(true);
      }
      if (/\.(c|m)?js$/.test(f)) {
        const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(installed, f), "utf8"))?.[1];
        if (url && !url.startsWith("data:")) expect(set.has(join(dirname(f), url)), `${f} points at ${url}`).toBe(true);
      }
    }
    expect(readFileSync(join(installed, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(pkg.license).toBe("MIT");
  });

  it("says where it lives and installs without scripts: repository, homepage, bugs, keywords; prepack, not prepare", () => {
    const meta = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    expect(meta.repository.url).toMatch(/github\.com\/rankeval\/rankeval/);
    expect(meta.homepage).toMatch(/^https:\/\/github\.com\/rankeval\/rankeval/);
    expect(meta.bugs.url).toBe("https://github.com/rankeval/rankeval/issues");
    expect(meta.keywords.length).toBeGreaterThan(3);
    expect(meta.scripts.prepare).toBeUndefined();
    for (const hook of ["preinstall", "install", "postinstall"]) expect(meta.scripts[hook]).toBeUndefined();
    expect(meta.scripts.prepack).toMatch(/build/);
    // A fresh clone builds what `npm start` and `npm test` need without prepare.
    expect(pkg.scripts.start).toMatch(/npm run build/);
    expect(pkg.scripts.pretest).toMatch(/npm run build/);
  });

  it("imports every entry point as ES modules", () => {
    const script = write(
      join(app, "esm.mjs"),
      `
      import * as main from "rankeval";
      import * as io from "rankeval/io";
      import * as reference from "rankeval/reference";
      import * as node from "rankeval/node";
      const rows = { qid: ["q1", "q1", "q2", "q2"], score: [0.3, 0.9, 0.1, 0.2], rel: [0, 2, 1, 0] };
      const qids = new io.Interner();
      const p = new io.QrelsParser({ file: "q", qids, docids: new io.Interner() });
      p.push(new TextEncoder().encode("q1 0 d1 1\\n"));
      const [bm25] = await node.evaluateFiles(${JSON.stringify(examples("qrels.txt"))}, [${JSON.stringify(examples("bm25.run"))}], ["ndcg@10"]);
      console.log(JSON.stringify({
        resolved: ${JSON.stringify(SUBPATHS)}.map((s) => import.meta.resolve(s)),
        mean: main.evaluate(rows, ["ndcg@3", "map"]).mean,
        reference: Array.from(reference.referenceEvaluate(rows, ["map"]).values.map),
        parsed: p.finish().length,
        files: bm25.mean,
        error: main.RankevalError === node.RankevalError,
      }));
    `,
    );
    const r = JSON.parse(ok(run(process.execPath, [script], app), "node esm.mjs"));
    expect(r.resolved.map((u: string) => fileURLToPath(u).slice(installed.length))).toEqual([
      "/dist/index.js",
      "/dist/io/index.js",
      "/dist/reference/index.js",
      "/dist/node/index.js",
    ]);
    expect(r.mean.map).toBe(0.75);
    expect(r.reference).toEqual([1, 0.5]);
    expect(r.parsed).toBe(1);
    expect(r.files["ndcg@10"]).toBeCloseTo(0.6999350430057784, 12);
    expect(r.error).toBe(true);
  });

  it("requires every entry point from CommonJS, its own CommonJS build, also without Node's require(esm)", () => {
    const script = write(
      join(app, "cjs.cjs"),
      `
      const main = require("rankeval");
      const io = require("rankeval/io");
      const reference = require("rankeval/reference");
      const node = require("rankeval/node");
      const rows = { qid: ["q1", "q1", "q2", "q2"], score: [0.3, 0.9, 0.1, 0.2], rel: [0, 2, 1, 0] };
      node.evaluateFiles(${JSON.stringify(examples("qrels.txt"))}, ${JSON.stringify(examples("bm25.run"))}, ["ndcg@10"]).then((bm25) => {
        console.log(JSON.stringify({
          resolved: ${JSON.stringify(SUBPATHS)}.map((s) => require.resolve(s)),
          mean: main.evaluate(rows, ["ndcg@3", "map"]).mean,
          reference: Array.from(reference.referenceEvaluate(rows, ["map"]).values.map),
          interner: typeof io.Interner,
          files: bm25.mean,
          error: new node.InputError("f", 1, 2, "x") instanceof main.RankevalError,
        }));
      });
    `,
    );
    for (const flags of [[], ["--no-experimental-require-module"]]) {
      const r = JSON.parse(ok(run(process.execPath, [...flags, script], app), `node ${flags.join(" ")} cjs.cjs`));
      expect(r.resolved.map((p: string) => p.slice(installed.length))).toEqual([
        "/dist/index.cjs",
        "/dist/io/index.cjs",
        "/dist/reference/index.cjs",
        "/dist/node/index.cjs",
      ]);
      expect(r.mean.map).toBe(0.75);
      expect(r.reference).toEqual([1, 0.5]);
      expect(r.interner).toBe("function");
      expect(r.files["ndcg@10"]).toBeCloseTo(0.6999350430057784, 12);
      expect(r.error).toBe(true);
    }
  });

  it("keeps the browser entry points free of Node built-ins", () => {
    const builtin =
      /(?:from\s*|import\s*\(\s*|require\(\s*)["'](node:[^"']+|fs|path|os|zlib|url|worker_threads|child_process|stream)["']/;
    for (const entry of [
      "dist/index.js",
      "dist/io/index.js",
      "dist/reference/index.js",
      "dist/index.cjs",
      "dist/io/index.cjs",
      "dist/reference/index.cjs",
    ]) {
      // Every module the entry reaches, by its relative imports.
      const seen = new Set<string>();
      const todo = [entry];
      while (todo.length) {
        const f = todo.pop()!;
        if (seen.has(f)) continue;
        seen.add(f);
        const text = readFileSync(join(installed, f), "utf8");
        expect(builtin.exec(text)?.[1], `${f} (reached from ${entry})`).toBeUndefined();
        for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*|require\(\s*)["'](\.\.?\/[^"']+)["']/g))
          todo.push(join(dirname(f), m[1]));
      }
      expect(seen.size).toBeGreaterThan(3);
    }
  });

  describe("strict TypeScript consumers type-check against the published .d.ts", () => {
    // Uses every entry point the way the README does; checked with skipLibCheck off, so every
    // declaration file it reaches is checked too.
    const esm = `
      import { evaluate, evaluateRun, formatTable, parseMeasures, RankevalError, type Options, type Result } from "rankeval";
      import { DelimitedParser, Interner, JsonParser, QrelsParser, RunParser } from "rankeval/io";
      import { referenceEvaluate } from "rankeval/reference";
      import { evaluateFiles, InputError, readQrels, readRun, type EvaluateFilesOptions, type IdValues } from "rankeval/node";

      const options: Options = { gain: "linear", ties: "input", noRelevant: "skip" };
      const rows = { qid: ["q1", "q1", "q2"], score: [0.3, 0.9, 0.1], rel: [0, 2, 1] };
      const result = evaluate(rows, ["ndcg@10", "map"], options);
      export const ndcg: number = result.mean["ndcg@10"];
      export const perQuery: Float64Array = result.values["map"];
      export const table: string = formatTable(result);
      export const joined: Result<string> = evaluateRun({ q1: { d1: 1 } }, { q1: { d1: 0.5, d2: 0.1 } }, "map");
      export const names: number = parseMeasures("ndcg@5,10").length;
      const qids = new Interner();
      const qrels = new QrelsParser({ file: "qrels.txt", qids, docids: new Interner() });
      const run = new RunParser({ file: "run.txt", qids, docids: "per-row" });
      const json = new JsonParser({ file: "run.json", qids, kind: "run" });
      const csv = new DelimitedParser({ file: "run.csv", qids, kind: "qrels", columns: { qid: "query-id" } });
      export const lengths: number = qrels.finish().length + run.finish().length + json.finish().length + csv.finish().length;
      export const reference: Float64Array = referenceEvaluate(rows, ["map"]).values["map"];

      export async function files(): Promise<number> {
        const fileOptions: EvaluateFilesOptions = { gain: "exp", inputFormat: "tsv", complete: true, judgedOnly: false };
        const one: Result<string> = await evaluateFiles("qrels.txt", "run.txt", ["map"], fileOptions);
        const many: Result<string>[] = await evaluateFiles("qrels.txt", ["a.run", "b.run.gz"], ["ndcg@10"]);
        const judged: IdValues = await readQrels("qrels.tsv", { columns: { qid: "query-id", docid: "corpus-id", value: "score" } });
        const ranked: Record<string, Record<string, number>> = await readRun("run.json");
        return one.mean["map"] + many.length + Object.keys(judged).length + Object.keys(ranked).length;
      }

      export function why(e: unknown): string {
        if (e instanceof InputError) return \`\${e.file}:\${e.line}: \${e.reason}\`;
        if (e instanceof RankevalError) return e.code;
        return "bug";
      }
    `;
    const cjs = `
      import { evaluate, type Result } from "rankeval";
      import { Interner } from "rankeval/io";
      import { referenceEvaluate } from "rankeval/reference";
      import { evaluateFiles } from "rankeval/node";
      import rankeval = require("rankeval");

      const rows = { qid: ["q1", "q1"], score: [0.3, 0.9], rel: [0, 2] };
      export const a: number = evaluate(rows, ["map"]).mean["map"];
      export const b: number = rankeval.evaluate(rows, "map").mean["map"];
      export const size: number = new Interner().size;
      export const reference: Float64Array = referenceEvaluate(rows, "map").values["map"];
      export const files: Promise<Result<string>[]> = evaluateFiles("qrels.txt", ["run.txt"], ["map"]);
    `;
    const strict = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      lib: ["ES2022"],
      types: [],
      noUnusedLocals: true,
      forceConsistentCasingInFileNames: true,
    };

    beforeAll(() => {
      write(join(app, "ts/package.json"), JSON.stringify({ type: "module" }));
      write(join(app, "ts/consumer.ts"), esm);
      write(join(app, "ts/consumer-cjs.cts"), cjs);
      write(
        join(app, "ts/tsconfig.json"),
        JSON.stringify({
          compilerOptions: { ...strict, target: "ES2022", module: "nodenext", moduleResolution: "nodenext" },
          files: ["consumer.ts", "consumer-cjs.cts"],
        }),
      );
      // A CommonJS project of the old style: "module": "commonjs" resolves as node10, without exports.
      write(join(app, "legacy/package.json"), JSON.stringify({ type: "commonjs" }));
      write(
        join(app, "legacy/consumer.ts"),
        esm.replace("export async function files", "export async function filesLegacy"),
      );
      write(
        join(app, "legacy/tsconfig.json"),
        JSON.stringify({
          compilerOptions: { ...strict, target: "ES2020", module: "commonjs", esModuleInterop: true },
          files: ["consumer.ts"],
        }),
      );
      // A bundler's project (Vite's template): "moduleResolution": "bundler".
      write(join(app, "bundler/consumer.ts"), esm);
      write(
        join(app, "bundler/tsconfig.json"),
        JSON.stringify({
          compilerOptions: { ...strict, target: "ES2022", module: "esnext", moduleResolution: "bundler" },
          files: ["consumer.ts"],
        }),
      );
    });

    for (const [name, tsc] of [
      ["the project's TypeScript", TSC],
      ["TypeScript 5.0", TSC_5_0],
    ] as const) {
      it(`${name}: nodenext, ES module and CommonJS files`, () => {
        ok(run(process.execPath, [tsc, "-v"], app), "tsc -v");
        ok(run(process.execPath, [tsc, "-p", join(app, "ts/tsconfig.json")], app), `${name} on ts/`);
      });
      it(`${name}: "module": "commonjs" (node10 resolution, through main, types and typesVersions)`, () => {
        ok(run(process.execPath, [tsc, "-p", join(app, "legacy/tsconfig.json")], app), `${name} on legacy/`);
      });
      it(`${name}: "moduleResolution": "bundler"`, () => {
        ok(run(process.execPath, [tsc, "-p", join(app, "bundler/tsconfig.json")], app), `${name} on bundler/`);
      });
    }

    it("TypeScript 5.0 is what the alias installs", () => {
      expect(ok(run(process.execPath, [TSC_5_0, "-v"], app), "tsc -v").trim()).toBe("Version 5.0.4");
    });
  });

  describe("a Vite app that imports the library", () => {
    const web = join(app, "web");
    const out = join(web, "dist");
    const warnings: string[] = [];
    const expected = { map: 0.75, reference: [1, 0.5], parsed: 1 };

    beforeAll(async () => {
      write(
        join(web, "index.html"),
        `<!doctype html><html><body><pre id="out"></pre><script type="module" src="./main.js"></script></body></html>\n`,
      );
      write(
        join(web, "main.js"),
        `
        import { evaluate } from "rankeval";
        import { Interner, QrelsParser } from "rankeval/io";
        import { referenceEvaluate } from "rankeval/reference";
        const out = document.getElementById("out");
        try {
          const rows = { qid: ["q1", "q1", "q2", "q2"], score: [0.3, 0.9, 0.1, 0.2], rel: [0, 2, 1, 0] };
          const p = new QrelsParser({ file: "q", qids: new Interner(), docids: new Interner() });
          p.push(new TextEncoder().encode("q1 0 d1 1\\n"));
          out.textContent = JSON.stringify({
            map: evaluate(rows, ["map"]).mean.map,
            reference: Array.from(referenceEvaluate(rows, ["map"]).values.map),
            parsed: p.finish().length,
          });
        } catch (e) {
          out.textContent = "error: " + e.message;
        }
        out.dataset.done = "1";
      `,
      );
      const logger = createLogger("warn", { allowClearScreen: false });
      const warn = (msg: string) => warnings.push(msg);
      logger.warn = warn;
      logger.warnOnce = warn;
      logger.error = warn;
      await viteBuild({
        root: web,
        configFile: false,
        logLevel: "warn",
        customLogger: logger,
        build: { outDir: out, emptyOutDir: true, modulePreload: { polyfill: false } },
      });
    }, 120_000);

    const bundle = () => {
      const js = readdirSync(join(out, "assets")).filter((f) => f.endsWith(".js"));
      expect(js.length).toBeGreaterThan(0);
      return js.map((f) => join(out, "assets", f));
    };

    it("builds without Node built-ins or warnings, and the bundle computes", () => {
      expect(warnings).toEqual([]);
      for (const f of bundle()) expect(readFileSync(f, "utf8")).not.toMatch(/["']node:/);
      // Run in Node with just the document the script touches (and the <link> Vite's preload helper
      // probes when the bundle has lazy chunks: rankeval/io's Parquet and Arrow readers).
      const runner = write(
        join(app, "run-bundle.mjs"),
        `
        const out = { dataset: {}, textContent: "" };
        globalThis.document = { getElementById: () => out, createElement: () => ({}) };
        for (const f of ${JSON.stringify(bundle())}) await import(f);
        console.log(out.textContent);
      `,
      );
      expect(JSON.parse(ok(run(process.execPath, [runner], app), "the built bundle"))).toEqual(expected);
    });

    const haveChromium = existsSync(CHROMIUM);
    if (!haveChromium)
      console.warn(
        `test/package.test.ts: the Vite app's CSP case skipped: ${CHROMIUM} is missing (apt-get install chromium)`,
      );
    it.skipIf(!haveChromium)(
      "runs in chromium under a Content-Security-Policy with 'wasm-unsafe-eval', and says what to add without it",
      async () => {
        let csp = "";
        const server = createServer((req, res) => {
          const path = req.url === "/" ? "/index.html" : (req.url ?? "/");
          const file = join(out, path);
          if (!file.startsWith(out) || !existsSync(file)) return void res.writeHead(404).end();
          res.writeHead(200, {
            "content-type": path.endsWith(".js") ? "text/javascript" : "text/html",
            "content-security-policy": csp,
          });
          res.end(readFileSync(file));
        });
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const { port } = server.address() as { port: number };
        const browser = await launchChromium();
        try {
          const read = async () => {
            const page = await browser.newPage();
            await page.goto(`http://127.0.0.1:${port}/`);
            await page.waitForSelector("#out[data-done]", { timeout: 30_000 });
            const text = await page.textContent("#out");
            await page.close();
            return text ?? "";
          };
          csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
          expect(JSON.parse(await read())).toEqual(expected);
          csp = "default-src 'self'; script-src 'self'";
          expect(await read()).toMatch(
            /^error: rankeval: the page's Content-Security-Policy does not allow WebAssembly, which rankeval computes with: add 'wasm-unsafe-eval' to its script-src/,
          );
        } finally {
          await browser.close();
          server.close();
        }
      },
    );
  });

  describe("the bin and the bundled examples, run against the installed package", () => {
    it("npx rankeval evaluates the bundled TREC example as the repository's CLI does", () => {
      const args = ["-m", "ndcg@10", "-m", "map", examples("qrels.txt"), examples("bm25.run"), examples("rerank.run")];
      const installedOut = ok(run("npx", ["--no-install", "rankeval", ...args], app), "npx rankeval");
      // map beside ndcg@10 is trec_eval's map on the command line: each under its own conventions
      expect(installedOut).toMatch(
        /^measure\s+.*bm25\.run\s+.*rerank\.run\nndcg@10 \[1\]\s+0\.6999\s+0\.9059\nmap \[2\]\s+0\.7570\s+0\.8889\n/,
      );
      expect(installedOut).toMatch(
        /\n\[1\] conventions: gain=exp noRelevant=zero beyondList=pad ties=docid\n\[2\] conventions: trec_eval: relevanceThreshold=1 noRelevant=zero ties=docid\n$/,
      );
      expect(installedOut).toBe(
        ok(run(process.execPath, [join(root, "dist/node/bin.js"), ...args], app), "dist/node/bin.js"),
      );
      const trec = ok(
        run("npx", ["--no-install", "rankeval", examples("qrels.txt"), examples("bm25.run")], app),
        "npx rankeval (trec_eval's measures)",
      );
      expect(trec).toMatch(/^runid\s+\tall\tbm25\n/m);
      expect(trec).toMatch(/^map\s+\tall\t0\.\d{4}\n/m);
      expect(ok(run("npx", ["--no-install", "rankeval", "--version"], app), "rankeval --version")).toBe(
        `rankeval ${pkg.version}\n`,
      );
    });

    it("reads Parquet and Arrow files and writes per-query results through the libraries built into dist/vendor", async () => {
      // The example run as Parquet (written by apache-arrow's and hyparquet-writer's dev copies here).
      const { tableFromArrays, tableToIPC } = await import("apache-arrow");
      const { parquetWriteBuffer } = await import("hyparquet-writer");
      const rows = readFileSync(examples("bm25.run"), "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(/\s+/));
      writeFileSync(
        join(app, "bm25.parquet"),
        new Uint8Array(
          parquetWriteBuffer({
            columnData: [
              { name: "qid", data: rows.map((f) => f[0]), type: "STRING" },
              { name: "docno", data: rows.map((f) => f[2]), type: "STRING" },
              { name: "score", data: rows.map((f) => Number(f[4])), type: "DOUBLE" },
              { name: "tag", data: rows.map((f) => f[5]), type: "STRING" },
            ],
          }),
        ),
      );
      writeFileSync(
        join(app, "bm25.arrows"),
        tableToIPC(
          tableFromArrays({
            qid: rows.map((f) => f[0]),
            docid: rows.map((f) => f[2]),
            score: Float64Array.from(rows.map((f) => Number(f[4]))),
            tag: rows.map((f) => f[5]),
          }),
          "stream",
        ),
      );
      const text = ok(
        run("npx", ["--no-install", "rankeval", "-q", examples("qrels.txt"), examples("bm25.run")], app),
        "npx rankeval (text)",
      );
      for (const input of ["bm25.parquet", "bm25.arrows"])
        expect(
          ok(
            run("npx", ["--no-install", "rankeval", "-q", examples("qrels.txt"), input], app),
            `npx rankeval ${input}`,
          ),
        ).toBe(text);
      ok(
        run(
          "npx",
          [
            "--no-install",
            "rankeval",
            "-q",
            "--per-query-out",
            "bm25-q.parquet",
            examples("qrels.txt"),
            "bm25.parquet",
          ],
          app,
        ),
        "npx rankeval --per-query-out",
      );
      expect(
        ok(run("npx", ["--no-install", "rankeval", "--merge", "-q", "bm25-q.parquet"], app), "npx rankeval --merge"),
      ).toBe(text);
      // rankeval/node from both module systems (the CommonJS build requires dist/vendor's .cjs).
      const esm = write(
        join(app, "columnar.mjs"),
        `import { evaluateFiles } from "rankeval/node";\nconst r = await evaluateFiles(${JSON.stringify(examples("qrels.txt"))}, "bm25.parquet", ["map"]);\nconsole.log(r.mean.map.toFixed(4));\n`,
      );
      const cjs = write(
        join(app, "columnar.cjs"),
        `const { evaluateFiles } = require("rankeval/node");\nevaluateFiles(${JSON.stringify(examples("qrels.txt"))}, "bm25.arrows", ["map"]).then((r) => console.log(r.mean.map.toFixed(4)));\n`,
      );
      expect(ok(run(process.execPath, [esm], app), "columnar.mjs")).toBe("0.7570\n");
      expect(ok(run(process.execPath, [cjs], app), "columnar.cjs")).toBe("0.7570\n");
    });

    it("runs every example script (ES module and CommonJS)", () => {
      const scripts = readdirSync(join(installed, "examples")).filter(
        (f) => /\.(mjs|cjs)$/.test(f) && !f.startsWith("make-"),
      );
      expect(scripts.sort()).toEqual(["evaluate-files.mjs", "quickstart.cjs", "quickstart.mjs"]);
      for (const s of scripts) expect(ok(run(process.execPath, [examples(s)], app), s)).toMatch(/conventions: gain=/);
    });
  });
});
