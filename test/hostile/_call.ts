// The adversarial suite's harness: one hostile call of the public API in its own Node process, with a
// bound on its time and memory, so that a hang, a crash or unbounded growth fails one case (and is
// seen as such) instead of taking the suite down. The call's script imports the built package (dist/).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const DIST = pathToFileURL(resolve(__dirname, "../../dist")).href;

/** What a hostile call ended in. */
export interface Outcome {
  /** "threw": an error escaped the call; "returned": it gave a value; "killed": the time or memory bound. */
  kind: "threw" | "returned" | "killed";
  /** The error thrown (its class name, RankevalError's code, message and InputError's file and line). */
  error?: { name: string; code?: string; message: string; file?: string; line?: number };
  /** The value returned, as JSON (NaN and Infinity as strings), for calls that should succeed. */
  value?: unknown;
  /** How the process ended when killed: the signal, its exit status, and the last of its stderr. */
  why?: string;
  ms: number;
}

export interface Bounds {
  /** Wall-clock time before SIGKILL (default 20 s). */
  ms?: number;
  /** V8's heap limit in MB (default 512); WebAssembly memory is bounded by the call's own limits. */
  heapMb?: number;
}

/**
 * Runs `body` (the text of an async function body) in a fresh Node process. `body` sees `rankeval`,
 * `io`, `node` and `reference` (the package's four entry points) and `fs`, and returns the value to
 * report; an error it throws is reported with its class, code and message.
 * Example: `await hostile("return rankeval.evaluate([], ['map'])")`.
 */
export function hostile(body: string, bounds: Bounds = {}): Promise<Outcome> {
  const script = `
    const rankeval = await import(${JSON.stringify(`${DIST}/index.js`)});
    const io = await import(${JSON.stringify(`${DIST}/io/index.js`)});
    const node = await import(${JSON.stringify(`${DIST}/node/index.js`)});
    const reference = await import(${JSON.stringify(`${DIST}/reference/index.js`)});
    const fs = await import("node:fs");
    const json = (v) => JSON.stringify(v, (_, x) =>
      typeof x === "number" && !Number.isFinite(x) ? String(x) : typeof x === "bigint" ? String(x) + "n" : x);
    const say = (o) => process.stdout.write("\\u0000OUTCOME" + json(o) + "\\n", () => process.exit(0));
    try {
      const value = await (async () => { ${body} })();
      say({ kind: "returned", value });
    } catch (e) {
      say({ kind: "threw", error: e instanceof Error
        ? { name: e.name, code: e.code, message: e.message, file: e.file, line: e.line }
        : { name: typeof e, message: String(e) } });
    }`;
  // A script file, not -e: worker threads inherit the process's execArgv, and refuse --input-type's.
  const dir = mkdtempSync(join(tmpdir(), "rankeval-hostile-"));
  const file = join(dir, "call.mjs");
  writeFileSync(file, script);
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${bounds.heapMb ?? 512}`, file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (b) => {
      out += b;
    });
    child.stderr.on("data", (b) => {
      err = (err + b).slice(-2000);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), bounds.ms ?? 20_000);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      const ms = Date.now() - started;
      const at = out.lastIndexOf("\u0000OUTCOME");
      if (at >= 0) {
        const o = JSON.parse(out.slice(at + 8).split("\n")[0]) as Outcome;
        done({ ...o, ms });
      } else {
        done({ kind: "killed", why: `signal ${signal}, status ${status}: ${err.trim().slice(-600)}`, ms });
      }
    });
  });
}

/** The error of a call that must throw, for expect(): a plain object, so a mismatch prints it whole. */
export async function thrown(body: string, bounds?: Bounds): Promise<NonNullable<Outcome["error"]>> {
  const o = await hostile(body, bounds);
  if (o.kind !== "threw") {
    throw new Error(
      `expected the call to throw; it ${o.kind === "killed" ? `was killed (${o.why})` : `returned ${JSON.stringify(o.value)}`}`,
    );
  }
  return o.error!;
}

/** A hostile call (an expression), the code of the RankevalError it must throw, and words its message must say. */
export interface ErrorCase {
  readonly call: string;
  readonly code: string;
  readonly says: RegExp;
}

/**
 * Runs each case's call in one fresh process, after `setup` (statements declaring what the calls use),
 * and returns the cases that did not throw a RankevalError with their code and words: [] when all did.
 */
export async function wrongErrors(setup: string, cases: readonly ErrorCase[], bounds: Bounds = {}) {
  const body = `${setup}
    const out = [];
    for (const f of [${cases.map((c) => `() => ${c.call}`).join(",\n")}]) {
      try { f(); out.push({ returned: true }); }
      catch (e) { out.push({ name: e?.name, code: e?.code, message: String(e?.message ?? e) }); }
    }
    return out;`;
  const o = await hostile(body, { ms: 60_000, ...bounds });
  if (o.kind !== "returned") return [{ call: "(all)", got: o }];
  const got = o.value as { name?: string; code?: string; message?: string }[];
  return cases.flatMap((c, i) =>
    got[i].name === "RankevalError" && got[i].code === c.code && c.says.test(got[i].message ?? "")
      ? []
      : [{ call: c.call, got: got[i] }],
  );
}
