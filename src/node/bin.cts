#!/usr/bin/env node
// The installed command, started as fast as Node allows. CommonJS: an ES module entry sets up the ESM
// loader first (4 ms). Loads the bundle (command.cjs: ~55 modules one by one cost ~20 ms) with V8's
// code cache (~10 ms more, under the Node that built it). No bundle, or RANKEVAL_BUNDLE=0: the modules.
import fs = require("node:fs");
import nodeModule = require("node:module");
import path = require("node:path");
import vm = require("node:vm");

const bundle = path.join(__dirname, "command.cjs");
const cache = `${bundle}.cache`;

function bundleSource(): string | null {
  if (process.env.RANKEVAL_BUNDLE === "0") return null;
  try {
    return fs.readFileSync(bundle, "utf8");
  } catch {
    return null;
  }
}

async function commandModule(): Promise<typeof import("./command.js")> {
  const source = bundleSource();
  if (source === null) return import("./command.js");
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cache);
  } catch {}
  // CommonJS's wrapper, on the first line so line numbers stay the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  // In require's cache under the bundle's name: the lazily loaded chunks require it and must get this one.
  const module = new nodeModule.Module(bundle);
  module.filename = bundle;
  module.paths = [];
  const require = nodeModule.createRequire(bundle);
  require.cache[bundle] = module;
  script.runInThisContext()(module.exports, require, module, bundle, __dirname);
  module.loaded = true;
  // The build's run (scripts/build.mjs) writes the cache.
  if (process.env.RANKEVAL_WRITE_CODE_CACHE === "1") {
    process.once("beforeExit", () => {
      try {
        fs.writeFileSync(cache, script.createCachedData());
      } catch (e) {
        process.stderr.write(`rankeval: the code cache was not written (${(e as Error).message})\n`);
      }
    });
  }
  return module.exports as typeof import("./command.js");
}

void commandModule().then((command) => command.runCommand());
