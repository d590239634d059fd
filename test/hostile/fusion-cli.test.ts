// Hostile command lines of `rankeval --fuse`, each the built binary in its own process bounded in time:
// names that are JavaScript's own (__proto__, constructor) as methods, norms and parameters, weights
// past a double, one pipe given twice, a file that is no text, outputs that cannot be written. Each
// ends at once with its exit status and a line that names what is wrong.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = resolve(__dirname, "../../dist/node/bin.js");
const dir = mkdtempSync(join(tmpdir(), "rankeval-hostile-fuse-"));
const a = join(dir, "a.run");
const b = join(dir, "b.run");
writeFileSync(a, "q1 Q0 d1 1 3 a\nq1 Q0 d2 2 2 a\n");
writeFileSync(b, "q1 Q0 d2 1 3 b\nq1 Q0 d3 2 2 b\n");

/** The binary with `argv` (and `input` on standard input), killed after 20 s. */
function rankeval(argv: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...argv], { input, timeout: 20_000, encoding: "utf8" });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

describe("rankeval --fuse, hostile", () => {
  it("refuses JavaScript's own names as methods and norms, naming the library's", () => {
    for (const method of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const r = rankeval(["--fuse", method, a, b]);
      expect(r.status).toBe(1);
      expect(r.err).toContain(`not "${method}"`);
      expect(r.err).toContain("rrf");
    }
    const n = rankeval(["--fuse", "rrf", "--norm", "__proto__", a, b]);
    expect(n.status).toBe(1);
    expect(n.err).toContain("norm must be one of min-max");
  });

  it("gives a parameter named __proto__ to the method as a parameter (refused there), not as a prototype", () => {
    for (const value of ["1", "1,2"]) {
      const r = rankeval(["--fuse", "rrf", "--fuse-param", `__proto__=${value}`, a, b]);
      expect(r.status).toBe(1);
      expect(r.err).toContain('unknown option "__proto__"');
    }
  });

  it("refuses weights past a double and a tag with a line break before reading any run", () => {
    const w = rankeval(["--fuse", "wsum", "--weights", "1e400,1", a, join(dir, "absent.run")]);
    expect(w.status).toBe(1);
    expect(w.err).toContain('"1e400" is not a finite number');
    const t = rankeval(["--fuse", "rrf", "--tag", "a\nb", a, join(dir, "absent.run")]);
    expect(t.status).toBe(1);
    expect(t.err).toContain("one word");
  });

  it("reads standard input once, and says a file that is no text by its name", () => {
    const twice = rankeval(["--fuse", "rrf", "-", "-"], "q1 Q0 d1 1 3 a\n");
    expect(twice.status).toBe(1);
    expect(twice.err).toContain("can be read only once");
    const zero = rankeval(["--fuse", "rrf", "/dev/zero", a]);
    expect(zero.signal).toBeNull();
    expect(zero.status).toBe(2);
    expect(zero.err).toContain("/dev/zero:1:1: file is not text");
  });

  it("says an output that cannot be written (no directory, a directory), exit 2, and writes nothing to stdout", () => {
    for (const [out, why] of [
      [join(dir, "none", "x.txt"), "ENOENT"],
      [dir, "EISDIR"],
    ]) {
      const r = rankeval(["--fuse", "rrf", "--output", out, a, b]);
      expect(r.status).toBe(2);
      expect(r.err).toContain(`--output ${out}: cannot write it (${why})`);
      expect(r.out).toBe("");
    }
  });
});
