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

await build({
  cwd: root,
  input: Object.fromEntries(ENTRIES.map((e) => [e, join(dist, `${e}.js`)])),
  platform: "node",
  external: [/^node:/],
  logLevel: "warn",
  output: {
    dir: dist,
    format: "cjs",
    preserveModules: true,
    preserveModulesRoot: dist,
    entryFileNames: "[name].cjs",
    sourcemap: false,
  },
});

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

// The command line in one file (dist/node/command.cjs, which dist/node/bin.js loads), and V8's code
// cache of it after a run on the bundled example (command.cjs.cache): one file loads in a few ms
// where the ~50 modules it is made of took about 20 ms of CPU, and the cache saves about 10 ms more of
// compiling on the Node that built it (src/node/bin.ts says why, and what happens on another Node).
// Kept beside the modules (dist/node/), so that the paths the code finds from its own URL (the worker
// threads' pool.js, package.json) are the same.
await build({
  cwd: root,
  input: { command: join(dist, "node/command.js") },
  platform: "node",
  external: [/^node:/],
  logLevel: "warn",
  // The pool's threads run the unbundled modules (pool.js) and import the run reader only when a
  // read asks for it; in this bundle the main thread's files.js imports it anyway, so rolldown says
  // the dynamic import moves nothing. True, and meant: not worth a line in every build's output.
  onLog(level, log, handler) {
    if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") return;
    handler(level, log);
  },
  // Everything an evaluation needs in command.cjs; what only --compare needs (the tests, their
  // distributions, per-query inputs: a third of the code) and what only LETOR, JSON or CSV inputs need,
  // and what only --explain and --report need, in files of their own, loaded by the commands that use them. Each module in one place: a group
  // takes the modules its test names, not their dependencies.
  output: {
    dir: join(dist, "node"),
    format: "cjs",
    // The evaluation's code, the group "command", is the entry's file (command.cjs, which bin.cjs
    // loads); --compare's and the other inputs' files require it for what they share.
    entryFileNames: "[name].cjs",
    chunkFileNames: (chunk) => (chunk.name.startsWith("command") ? "[name].cjs" : "command-[name].cjs"),
    dynamicImportInCjs: false,
    sourcemap: false,
    codeSplitting: {
      includeDependenciesRecursively: false,
      groups: [
        {
          name: "command-compare",
          test: /[\\/]dist[\\/](compare[\\/](?!tests\.js$|correct\.js$|gate\.js$)|output[\\/](comparison|per-query-runs)\.js$|node[\\/](compare-command|compare-pool|rbo-command)\.js$)/,
          priority: 2,
        },
        {
          name: "command-inputs",
          test: /[\\/]dist[\\/](io[\\/](json|delimited|letor|scores|query-groups)\.js$|input[\\/]read-letor\.js$)/,
          priority: 2,
        },
        // --qrels-stats, --agreement and --pool (issue 38), the library's functions under them.
        {
          name: "command-judgments",
          test: /[\\/]dist[\\/](judgments[\\/]|node[\\/]judgments-command\.js$)/,
          priority: 2,
        },
        // --explain's and --report's code (the report's page script is most of the latter).
        { name: "command-explain", test: /[\\/]dist[\\/](explain[\\/]|node[\\/]explain-command\.js$)/, priority: 2 },
        { name: "command-report", test: /[\\/]dist[\\/](output[\\/]html[\\/]|node[\\/]report\.js$)/, priority: 2 },
        // Parquet and Arrow: the readers, the writers of per-query results, and the libraries under them.
        {
          name: "command-columnar",
          test: /[\\/]dist[\\/](vendor[\\/]|io[\\/](parquet|arrow)\.js$|output[\\/]per-query(-files)?\.js$|node[\\/]merge-command\.js$)/,
          priority: 2,
        },
        { name: "command", test: /./, priority: 1 },
      ],
    },
  },
  // Needed by includeDependenciesRecursively: false; the entry's exports are the command's (runCommand).
  preserveEntrySignatures: "allow-extension",
});
execFileSync(
  process.execPath,
  [join(dist, "node/bin.cjs"), join(root, "examples/qrels.txt"), join(root, "examples/bm25.run")],
  {
    env: { ...process.env, RANKEVAL_WRITE_CODE_CACHE: "1", RANKEVAL_BUNDLE: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  },
);
