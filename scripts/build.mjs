// Builds dist/ from src/ (after build:kernel has embedded the wasm), in the two module formats the
// package's exports name:
//  - ES modules and their .d.ts: tsc (tsconfig.build.json), dist/**/*.js;
//  - CommonJS for `require`: the same .js files turned into dist/**/*.cjs, one file per module
//    beside its .js (so `new URL("./x.js", import.meta.url)` finds the same files), by rolldown,
//    which also rewrites import.meta.url to the .cjs file's URL; and their types as .d.cts files
//    (a copy of each .d.ts importing ./x.cjs), because TypeScript reads a .d.ts in this "type":
//    "module" package as an ES module, which a CommonJS file cannot require before TS 5.8.
// Node 20 before 20.19 cannot require() an ES module at all (require(esm) is unflagged from
// 20.19.0), and the engines field admits every Node 20: hence the CommonJS build. The command line
// (dist/node/bin.js) stays an ES module.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");

/** The package's entry points (its exports' subpaths), as dist/ paths without extension. */
const ENTRIES = ["index", "io/index", "reference/index", "node/index"];

// A clean dist/: files left by an older build (a renamed module, a source map) would be packed.
rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });

// The libraries that read and write Parquet and Arrow (hyparquet, hyparquet-compressors,
// hyparquet-writer, apache-arrow) are built into dist/vendor/, not dependencies of the package: the
// package keeps no dependencies (an install brings 0.5 MB of their code rather than 15 MB with
// apache-arrow's several builds and the @types/node it depends on), installs offline from its tarball,
// and every import of them is dynamic (src/io/parquet.ts, arrow.ts, per-query-files.ts), so nobody
// who reads no such file loads them. Their browser builds (no Node built-ins: they read through the
// ByteSource rankeval gives them); their licences in dist/vendor/LICENSES.md.
const VENDORED = [
  "hyparquet",
  "hyparquet-compressors",
  "hyparquet-writer",
  "apache-arrow",
  // hyparquet's page-level functions, which src/io/parquet-pages.ts decodes pages with.
  "hyparquet/src/column.js",
  "hyparquet/src/datapage.js",
  "hyparquet/src/encoding.js",
  "hyparquet/src/delta.js",
  "hyparquet/src/plain.js",
];
/** The packages themselves (for their licences). */
const VENDORED_PACKAGES = [...new Set(VENDORED.map((v) => v.split("/")[0]))];
const vendorDir = join(dist, "vendor");
const vendorSrc = join(root, "node_modules", ".rankeval-vendor");
mkdirSync(vendorSrc, { recursive: true });
const vendorName = (pkg) => pkg.replace(/[^a-z0-9]+/gi, "-");
for (const pkg of VENDORED)
  writeFileSync(join(vendorSrc, `${vendorName(pkg)}.js`), `export * from ${JSON.stringify(pkg)};\n`);
await build({
  cwd: root,
  input: Object.fromEntries(VENDORED.map((pkg) => [vendorName(pkg), join(vendorSrc, `${vendorName(pkg)}.js`)])),
  platform: "browser",
  logLevel: "warn",
  output: {
    dir: vendorDir,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "shared-[hash].js",
    minify: true,
    sourcemap: false,
    comments: { legal: true },
  },
});
rmSync(vendorSrc, { recursive: true, force: true });
// Their licences, from each bundled package's own files.
{
  const seen = new Set();
  const texts = [];
  // A package's directory as Node finds it from `from`: node_modules/pkg here or in a directory above.
  const dirOf = (pkg, from) => {
    for (let d = from; ; d = dirname(d)) {
      const candidate = join(d, "node_modules", pkg);
      if (existsSync(join(candidate, "package.json"))) return candidate;
      if (dirname(d) === d) throw new Error(`vendor licences: ${pkg} not found from ${from}`);
    }
  };
  const add = (pkg, from) => {
    if (seen.has(pkg)) return;
    const dir = dirOf(pkg, from);
    seen.add(pkg);
    const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const licence = readdirSync(dir)
      .filter((f) => /^(licen[cs]e|notice|copying)/i.test(f))
      .map((f) => readFileSync(join(dir, f), "utf8").trim());
    texts.push(
      `## ${pkg} ${meta.version} (${meta.license})\n\n${licence.join("\n\n") || `License: ${meta.license}`}\n`,
    );
    for (const dep of Object.keys(meta.dependencies ?? {})) if (!dep.startsWith("@types/")) add(dep, dir);
  };
  for (const pkg of VENDORED_PACKAGES) add(pkg, root);
  writeFileSync(join(vendorDir, "LICENSES.md"), `# Libraries built into dist/vendor/\n\n${texts.join("\n")}`);
}
// The modules' imports of them, pointed at dist/vendor/.
const VENDORED_IMPORT = new RegExp(
  `((?:from|import)\\s*\\(?\\s*)(["'])(${VENDORED.map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})\\2`,
  "g",
);
for (const file of readdirSync(dist, { recursive: true })) {
  if (!String(file).endsWith(".js") || String(file).startsWith("vendor")) continue;
  const path = join(dist, String(file));
  const text = readFileSync(path, "utf8");
  if (text.search(VENDORED_IMPORT) < 0) continue;
  const up = posix.relative(posix.dirname(String(file).split("\\").join("/")), "vendor") || ".";
  writeFileSync(
    path,
    text.replace(
      VENDORED_IMPORT,
      (_, lead, q, pkg) => `${lead}${q}${up.startsWith(".") ? up : `./${up}`}/${vendorName(pkg)}.js${q}`,
    ),
  );
}

// CommonJS, for `require` and for the command line, in one build: the entries' files (dist/index.cjs,
// dist/io/index.cjs, ...: each the exports of its entry, required from the chunks) and the command's
// (dist/node/command.cjs, which dist/node/bin.cjs loads), over chunks that both share, so the package
// holds each module once in CommonJS (a copy for `require` beside the command's bundle was a quarter of
// the package). One file of many modules loads in a few ms where the ~55 modules one by one took about
// 20 ms. The chunks sit in dist/node/, beside the modules, so the paths the code finds from its own URL
// (import.meta.url, rewritten to the chunk's: the worker threads' pool.js, package.json, the page) are
// the same as the ES modules'.
// Each module goes to one chunk, by the groups below (a group takes the modules its test names, not
// their dependencies): the browser-safe modules (all but dist/node/'s) and dist/node/'s apart, so the
// browser entries' CommonJS reaches no Node built-in; and, of each, what only some commands and calls
// need in files of their own, loaded by those that use them: --compare's (the tests, their
// distributions, per-query inputs), the LETOR, JSON, JSON lines and CSV inputs', --explain's, --report's (the
// report's page script is most of it), and Parquet's and Arrow's (the readers, the writers of
// per-query results, and the libraries under them, dist/vendor's).
{
  const inNode = (id) => /[\\/]dist[\\/]node[\\/]/.test(id);
  // The entries' own modules stay in their files (a group would take their imports' chunks with them).
  const entry = new RegExp(`[\\\\/]dist[\\\\/](${ENTRIES.join("|")})\\.js$`);
  const FEATURES = {
    compare:
      /[\\/]dist[\\/](compare[\\/](?!tests\.js$|correct\.js$|gate\.js$)|output[\\/](comparison|per-query-runs)\.js$|node[\\/](compare-command|compare-pool|rbo-command)\.js$)/,
    inputs: /[\\/]dist[\\/]io[\\/](json|jsonl|delimited|letor|scores|query-groups)\.js$/,
    // Apart from the parsers (rankeval/io's), as it needs the evaluation's code (lib.cjs).
    letor: /[\\/]dist[\\/]input[\\/]read-letor\.js$/,
    // --qrels-stats, --agreement, --pool, --fill and --qrels-compare (issue 38), and the library's
    // functions under them.
    judgments:
      /[\\/]dist[\\/](judgments[\\/]|app[\\/]read-columns\.js$|node[\\/](judgments-command|fill-command|qrels-compare-command)\.js$)/,
    explain: /[\\/]dist[\\/](explain[\\/]|node[\\/]explain-command\.js$)/,
    report: /[\\/]dist[\\/](output[\\/]html[\\/]|node[\\/]report\.js$)/,
    columnar:
      /[\\/]dist[\\/](vendor[\\/]|io[\\/](parquet|arrow)\.js$|output[\\/]per-query(-files)?\.js$|node[\\/]merge-command\.js$)/,
  };
  // A module's static imports and re-exports of relative modules: `from "./x.js"`, `import "./y.js"`.
  const STATIC_IMPORT =
    /^\s*(?:import|export)\s[^;]*?from\s*["'](\.\.?\/[^"']+)["']|^\s*import\s*["'](\.\.?\/[^"']+)["']/gm;
  // The modules an entry's file imports (statically: what a require of it loads), as absolute paths.
  const reached = (from) => {
    const seen = new Set();
    const todo = [join(dist, `${from}.js`)];
    while (todo.length) {
      const file = todo.pop();
      if (seen.has(file)) continue;
      seen.add(file);
      for (const m of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) todo.push(join(dirname(file), m[1] ?? m[2]));
    }
    return seen;
  };
  const io = reached("io/index");
  const reference = reached("reference/index");
  const groups = [];
  for (const [name, re] of Object.entries(FEATURES))
    groups.push(
      { name: `command-${name}`, test: (id) => re.test(id) && inNode(id) && !entry.test(id), priority: 5 },
      { name: `lib-${name}`, test: (id) => re.test(id) && !inNode(id) && !entry.test(id), priority: 5 },
    );
  // rankeval/io's and rankeval/reference's modules in files of their own, so that a require of either
  // loads what it uses (a quarter of the library's code, or less), not all of lib.cjs. The evaluation's
  // code: dist/node/'s in the group "node/command", which is the command's entry's file (command.cjs);
  // the rest in lib.cjs.
  groups.push(
    { name: "lib-io", test: (id) => io.has(id) && !entry.test(id), priority: 4 },
    { name: "lib-reference", test: (id) => reference.has(id) && !entry.test(id), priority: 3 },
    { name: "lib", test: (id) => !inNode(id) && !entry.test(id), priority: 2 },
    { name: "node/command", test: (id) => !entry.test(id), priority: 1 },
  );
  await build({
    cwd: root,
    input: Object.fromEntries([...ENTRIES, "node/command"].map((e) => [e, join(dist, `${e}.js`)])),
    platform: "node",
    external: [/^node:/],
    logLevel: "warn",
    // The pool's threads run the ES modules (pool.js) and import the run reader only when a read asks
    // for it; in the bundle the main thread's files.js imports it anyway, so rolldown says the dynamic
    // import moves nothing. True, and meant: not worth a line in every build's output.
    onLog(level, log, handler) {
      if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") return;
      handler(level, log);
    },
    output: {
      dir: dist,
      format: "cjs",
      entryFileNames: "[name].cjs",
      chunkFileNames: (chunk) => (chunk.name.includes("/") ? "[name].cjs" : "node/[name].cjs"),
      dynamicImportInCjs: false,
      sourcemap: false,
      codeSplitting: { includeDependenciesRecursively: false, groups },
    },
    // Needed by includeDependenciesRecursively: false; the entries' exports are theirs.
    preserveEntrySignatures: "allow-extension",
  });
}

// Relative module specifiers in declarations: `from "./x.js"`, `import("../y.js")`.
const SPECIFIER = /((?:from|import)\s*\(?\s*)(["'])(\.\.?\/[^"']*?)\.js\2/g;
// A .d.cts for each declaration file the entries' types reach.
const seen = new Set();
const todo = ENTRIES.map((e) => `${e}.d.ts`);
while (todo.length) {
  const file = todo.pop();
  if (seen.has(file)) continue;
  seen.add(file);
  const text = readFileSync(join(dist, file), "utf8");
  for (const m of text.matchAll(SPECIFIER)) todo.push(posix.join(posix.dirname(file), `${m[3]}.d.ts`));
  writeFileSync(join(dist, file.replace(/\.d\.ts$/, ".d.cts")), text.replace(SPECIFIER, "$1$2$3.cjs$2"));
}
// The other declaration files (the command line's modules, the library's inner ones) describe nothing
// an import or require can reach (the exports name the entries only): not packed.
for (const file of readdirSync(dist, { recursive: true }).map((f) => String(f).split("\\").join("/")))
  if (/\.d\.c?ts$/.test(file) && !seen.has(file.replace(/\.d\.cts$/, ".d.ts"))) rmSync(join(dist, file));
