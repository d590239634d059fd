#!/usr/bin/env node
// The installed command: starts the command line (command.ts) as fast as Node allows, since most
// evaluations are small and a command's start-up is most of its time.
//
// The build (scripts/build.mjs) bundles command.ts and every module it loads into one file,
// command.cjs, beside this one: loading ~50 ES modules one by one cost about 20 ms of CPU, one file
// a few. It also runs the command once on the bundled example and saves V8's code cache of that file
// (command.cjs.cache: its functions as the run compiled them), which saves about 10 ms more where the
// Node that runs it is the Node that built it (V8 refuses a cache of another version, or of other
// flags, and the code is then compiled as usual, with the same results). Node 20 has no compile cache
// of its own (module.enableCompileCache is from 22.1).
//
// Without the bundle (a build without that step), or with RANKEVAL_BUNDLE=0 (to debug with the
// modules' own file names), the modules are imported as they are.
import { createRequire } from "node:module";

// Node's built-ins through require: an ES module's import of node:fs makes its ES facade, which reads
// every export, and one of them (ReadStream) loads Node's streams: 3 ms for nothing.
const require = createRequire(import.meta.url);
const { readFileSync, writeFileSync } = require("node:fs") as typeof import("node:fs");
const { dirname } = require("node:path") as typeof import("node:path");
const { fileURLToPath } = require("node:url") as typeof import("node:url");
const { Script } = require("node:vm") as typeof import("node:vm");

const bundle = fileURLToPath(new URL("./command.cjs", import.meta.url));
const cache = `${bundle}.cache`;

/** The bundle's source, or null where there is none (or it is not wanted). */
function bundleSource(): string | null {
  if (process.env.RANKEVAL_BUNDLE === "0") return null;
  try {
    return readFileSync(bundle, "utf8");
  } catch {
    return null;
  }
}

const source = bundleSource();
if (source === null) {
  const { runCommand } = (await import("./command.js")) as typeof import("./command.js");
  await runCommand();
} else {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cache);
  } catch {
    // none: compiled as usual
  }
  // CommonJS's wrapper, on the source's first line so that its line numbers stay the file's.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundle, cachedData });
  const module = { exports: {} as typeof import("./command.js") };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  await module.exports.runCommand();
  // The build's run: the cache of what this run compiled (scripts/build.mjs).
  if (process.env.RANKEVAL_WRITE_CODE_CACHE === "1") {
    try {
      writeFileSync(cache, script.createCachedData());
    } catch (e) {
      process.stderr.write(`rankeval: the code cache was not written (${(e as Error).message})\n`);
    }
  }
}
