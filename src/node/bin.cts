#!/usr/bin/env node
// The installed command, started as fast as Node allows. CommonJS: an ES module entry sets up the ESM
// loader first (4 ms). Loads the bundle (command.cjs and the chunks it requires, lib.cjs most of all:
// ~55 modules one by one cost ~20 ms) compiled with V8's code cache, which saves ~25 ms more of
// compiling. The cache is not in the package (it was a sixth of it, and served only the Node that
// built it): the first run writes it to a per-user directory, as Node 22's module.enableCompileCache
// does (os.tmpdir(), or RANKEVAL_CODE_CACHE=DIR; =0 or NODE_DISABLE_COMPILE_CACHE=1: none), one file
// per chunk, named by a hash of the chunk, Node's version and the machine's architecture, and written
// again when V8 rejects it (other V8 flags). No bundle, or RANKEVAL_BUNDLE=0: the modules.
import crypto = require("node:crypto");
import fs = require("node:fs");
import nodeModule = require("node:module");
import os = require("node:os");
import path = require("node:path");
import vm = require("node:vm");

const bundle = path.join(__dirname, "command.cjs");

function bundleExists(): boolean {
  return process.env.RANKEVAL_BUNDLE !== "0" && fs.existsSync(bundle);
}

/**
 * The code cache's directory: RANKEVAL_CODE_CACHE, or one in os.tmpdir() if it is this user's (made by
 * this user, writable by no other: a cache another wrote is not run), or null.
 */
function cacheDirectory(): string | null {
  const env = process.env.RANKEVAL_CODE_CACHE;
  if (env === "0" || process.env.NODE_DISABLE_COMPILE_CACHE === "1") return null;
  if (env) return env;
  const uid = process.getuid?.();
  const dir = path.join(os.tmpdir(), `rankeval-code-cache${uid === undefined ? "" : `-${uid}`}`);
  try {
    const st = fs.statSync(dir);
    if (!st.isDirectory() || (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0))) return null;
  } catch {
    // None yet: the first run's write makes it.
  }
  return dir;
}

const cacheDir = cacheDirectory();
/** The caches to write at exit: those missing or rejected. */
const toWrite: { file: string; script: vm.Script }[] = [];

/**
 * Requires one of dist/node/'s CommonJS chunks as require() would, but compiled with its code cache;
 * the chunks it requires (./x.cjs) the same way. In require's cache under its name, so that a chunk
 * required by several is one module.
 */
function load(file: string): unknown {
  const known = nodeModule.createRequire(file).cache[file];
  if (known) return known.exports;
  const bytes = fs.readFileSync(file);
  const source = bytes.toString("utf8");
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  if (cacheDir !== null) {
    // By the chunk's content: V8 checks only the source's length (about 0.5 ms for all the chunks;
    // node:crypto is the command's anyway).
    const key = crypto
      .createHash("sha256")
      .update(`${process.version}\0${process.arch}\0`)
      .update(bytes)
      .digest("hex")
      .slice(0, 16);
    cacheFile = path.join(cacheDir, `${path.basename(file, ".cjs")}-${key}.cache`);
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {}
  }
  // CommonJS's wrapper, on the first line so line numbers stay the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected))
    toWrite.push({ file: cacheFile, script });
  const module = new nodeModule.Module(file);
  module.filename = file;
  module.paths = [];
  const base = nodeModule.createRequire(file);
  base.cache[file] = module;
  const dir = path.dirname(file);
  const require = Object.assign(
    (id: string) => (id.startsWith("./") && id.endsWith(".cjs") ? load(path.join(dir, id)) : base(id)),
    base,
  ) as NodeJS.Require;
  script.runInThisContext()(module.exports, require, module, file, dir);
  module.loaded = true;
  return module.exports;
}

// At exit, when the command has run (so the cache holds the functions it compiled); not after a
// failure, a help or a version (a cache of so little would serve the evaluations after it poorly).
const brief = process.argv.slice(2).some((a) => a === "-h" || a === "--help" || a === "-v" || a === "--version");
process.once("beforeExit", () => {
  if (cacheDir === null || toWrite.length === 0 || brief || process.exitCode) return;
  try {
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    for (const { file, script } of toWrite) {
      const temp = `${file}.${process.pid}`;
      fs.writeFileSync(temp, script.createCachedData());
      fs.renameSync(temp, file);
    }
  } catch {
    // No cache: the next run compiles again.
  }
});

async function commandModule(): Promise<typeof import("./command.js")> {
  if (!bundleExists()) return import("./command.js");
  return load(bundle) as typeof import("./command.js");
}

void commandModule().then((command) => command.runCommand());
