// The package as npm users get it, for test/package.test.ts and test/first-hour.test.ts: commands run
// with npm's update check, audit and colour off, and the tarball packed and installed offline (rankeval
// has no dependencies) in a fresh project.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const root = fileURLToPath(new URL("..", import.meta.url));

export interface Ran {
  status: number | null;
  out: string;
  err: string;
}

/** Runs a command; npm's update check and audit off, no colour. */
export function run(cmd: string, args: string[], cwd: string, timeout = 120_000): Ran {
  const env = {
    ...process.env,
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
  };
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8", timeout, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** `r` succeeded; else a failure that shows its output. */
export function ok(r: Ran, what: string): string {
  if (r.status !== 0) expect.fail(`${what} exited with ${r.status}\n--- stdout\n${r.out}\n--- stderr\n${r.err}`);
  return r.out;
}

export interface Packed {
  filename: string;
  files: { path: string }[];
}

/**
 * Packs the built package into `tmp` (without scripts: the build ran before) and installs the tarball
 * in a new project `app` (an ES module package named `name`); returns `npm pack`'s account of it.
 */
export function packAndInstall(tmp: string, app: string, name: string): Packed {
  const packed = JSON.parse(
    ok(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], root), "npm pack"),
  )[0] as Packed;
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name, version: "1.0.0", private: true, type: "module" }, null, 2),
  );
  ok(
    run(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", join(tmp, packed.filename)],
      app,
    ),
    "npm install of the tarball",
  );
  return packed;
}
