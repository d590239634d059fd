#!/usr/bin/env node
// The installed command: starts the command line as fast as Node allows (start-up is most of a small
// evaluation's time). CommonJS: an ES module entry point sets up Node's ES module loader first (4 ms).
// It loads the bundle the build makes (command.cjs: ~55 modules one by one cost about 20 ms) with
// V8's code cache of a run on the example (about 10 ms more, where the Node that built it runs it).
// Without the bundle, or with RANKEVAL_BUNDLE=0 (to debug), the modules are imported as they are.
import fs = require("node:fs");
import nodeModule = require("node:module");
import path = require("node:path");
import vm = require("node:vm");

const bundle = path.join(__dirname, "command.cjs");
const cache = `${bundle}.cache`;

/** The bundle's source, or null where there is none (or it is not wanted). */
function bundleSource(): string | null {
  if (process.env.RANKEVAL_BUNDLE === "0") return null;
  try {
    return fs.readFileSync(bundle, "utf8");
  } catch {
    return null;
  }
}

/** The command's module: the bundle, compiled with its code cache where V8 takes it; else the modules. */
async function commandModule(): Promise<typeof import("./command.js")> {
  const source = bundleSource();
  if (source === null) return import("./command.js");
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cache);
  } catch {
    // none: compiled as usual
  }
  // CommonJS's wrapper, on the source's first line so that its line numbers stay the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  // A module of Node's, in require's cache under the bundle's name: the files of what only some
  // commands load require the bundle for what they share with it, and must get this one.
  const module = new nodeModule.Module(bundle);
  module.filename = bundle;
  module.paths = [];
  const require = nodeModule.createRequire(bundle);
  require.cache[bundle] = module;
  script.runInThisContext()(module.exports, require, module, bundle, __dirname);
  module.loaded = true;
  // The build's run: the cache of what this run compiled (scripts/build.mjs), once it is done.
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
