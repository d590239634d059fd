// Hostile inputs of rankeval/node's readers, each call in its own process bounded in time and memory:
// endless lines (/dev/zero, a gzip bomb, one line of 2 GiB), binary files, FIFOs without a writer,
// devices and sockets, missing files. Each fails at once with an InputError naming the file (and the
// byte), streams, or waits for a FIFO's writer without holding the process's exit.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, openSync, closeSync, writeFileSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostile } from "./_call.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-hostile-lines-"));
const qrels = join(dir, "qrels.txt");
writeFileSync(qrels, "q1 0 d1 1\nq1 0 d2 0\n");
const fifos = process.platform !== "win32";

/** A gzip file of `members` members, each 64 MiB of `byte`: about 2 MB for 2 GiB. */
function bomb(name: string, byte: number, members = 32): string {
  const member = gzipSync(Buffer.alloc(64 << 20, byte), { level: 9 });
  const path = join(dir, name);
  const fd = openSync(path, "w");
  for (let i = 0; i < members; i++) writeSync(fd, member);
  closeSync(fd);
  return path;
}

let zeroBomb = "";
let lineBomb = "";
beforeAll(() => {
  zeroBomb = bomb("zeros.run.gz", 0);
  lineBomb = bomb("line.run.gz", 0x61);
});

/**
 * `call` (an expression awaited in a child process) must reject: its error's class, code, file and
 * message, how long it took and the process's peak memory (MB), which no call here may grow past `mb`.
 */
async function rejects(call: string, ms = 20_000, mb = 400) {
  const o = await hostile(
    `const t = Date.now();
     try { await (${call}); } catch (e) {
       return { name: e.name, code: e.code, file: e.file, message: e.message, ms: Date.now() - t,
                peakMb: process.resourceUsage().maxRSS / 1024 };
     }
     return "returned";`,
    { ms, heapMb: 256 },
  );
  expect(o.kind, o.why).toBe("returned");
  const r = o.value as { name: string; code: string; file?: string; message: string; ms: number; peakMb: number };
  expect(r, "the call returned instead of rejecting").not.toBe("returned");
  expect(r.peakMb).toBeLessThan(mb);
  return r;
}

const q = JSON.stringify(qrels);

describe("endless lines: an InputError at once, with the file and byte offset, in bounded memory", () => {
  it("readQrels and readRun of /dev/zero", async () => {
    for (const call of ['node.readQrels("/dev/zero")', 'node.readRun("/dev/zero")']) {
      expect(await rejects(call)).toMatchObject({
        name: "InputError",
        code: "bad-input",
        file: "/dev/zero",
        message: "/dev/zero:1:1: file is not text (NUL byte at byte offset 0)",
      });
    }
  });

  it("evaluateFiles with /dev/zero as the run, and as the judgments", async () => {
    expect(await rejects(`node.evaluateFiles(${q}, "/dev/zero", ["map"])`)).toMatchObject({
      name: "InputError",
      file: "/dev/zero",
      message: "/dev/zero:1:1: file is not text (NUL byte at byte offset 0)",
    });
    expect(await rejects(`node.evaluateFiles("/dev/zero", ${q}, ["map"])`)).toMatchObject({
      name: "InputError",
      file: "/dev/zero",
    });
  });

  it("/dev/zero read as JSON and as CSV", async () => {
    const options = (f: string) => `{ inputFormat: ${JSON.stringify(f)} }`;
    for (const f of ["json", "csv", "tsv"]) {
      expect(await rejects(`node.readRun("/dev/zero", ${options(f)})`)).toMatchObject({
        name: "InputError",
        message: "/dev/zero:1:1: file is not text (NUL byte at byte offset 0)",
      });
    }
  });

  it("a 2 MB gzip of 2 GiB of zeros, and of one line of 2 GiB: streamed, refused at once", async () => {
    const zeros = await rejects(`node.evaluateFiles(${q}, ${JSON.stringify(zeroBomb)}, ["map"])`, 20_000, 300);
    expect(zeros).toMatchObject({
      name: "InputError",
      file: zeroBomb,
      message: `${zeroBomb}:1:1: file is not text (NUL byte at byte offset 0)`,
    });
    const line = await rejects(`node.readRun(${JSON.stringify(lineBomb)})`, 20_000, 500);
    expect(line).toMatchObject({
      name: "InputError",
      file: lineBomb,
      message: `${lineBomb}:1:67108865: the line is longer than 64 MiB (from byte offset 0), the most a line may hold: is the file text?`,
    });
    // Refused after 64 MiB of its 2 GiB: nowhere near inflating it whole.
    expect(line.ms).toBeLessThan(15_000);
  });
});

describe("files of other formats, missing files", () => {
  it("a PNG given as a run says it is a PNG image, not 'expected at least 6 fields'", async () => {
    const png = join(dir, "shot.png");
    writeFileSync(png, Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]));
    expect(await rejects(`node.evaluateFiles(${q}, ${JSON.stringify(png)}, ["map"])`)).toMatchObject({
      name: "InputError",
      file: png,
      message: `${png}:1:1: file is not text (it is a PNG image)`,
    });
  });

  it("a run parsed on the reader thread rejects with the same InputError as one parsed in place", async () => {
    const run = join(dir, "bad-score.run");
    writeFileSync(run, "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 0.4x r\n");
    // Every run that streams goes to the reader thread (by default only runs of about 12 MB or more).
    const call = `node.evaluateFiles(${q}, ${JSON.stringify(run)}, ["map"])`;
    const inPlace = await rejects(call);
    const threaded = await rejects(`(process.env.RANKEVAL_THREAD_MIN_BYTES = "0", ${call})`);
    expect(inPlace).toMatchObject({ name: "InputError", code: "bad-input", file: run });
    expect(inPlace.message).toMatch(/bad-score\.run:2:\d+: score "0\.4x" is not a number/);
    expect({ ...threaded, ms: 0, peakMb: 0 }).toEqual({ ...inPlace, ms: 0, peakMb: 0 });
  });

  it("Parquet bytes read as text say how Parquet is read", async () => {
    const parquet = join(dir, "run.dat");
    writeFileSync(parquet, Uint8Array.from([0x50, 0x41, 0x52, 0x31, 0x15, 0x04, 0x15, 0x0c, 0x15, 0x10, 0x4c]));
    const e = await rejects(`node.readRun(${JSON.stringify(parquet)})`);
    expect(e).toMatchObject({ name: "InputError", file: parquet });
    expect(e.message).toMatch(/run\.dat:1:1: file is not text \(it is Parquet: .*--input-format parquet/);
  });

  it("a missing file, a directory: an InputError with .file, as the README promises", async () => {
    const missing = join(dir, "missing.run");
    for (const call of [
      `node.evaluateFiles(${q}, ${JSON.stringify(missing)}, ["map"])`,
      `node.evaluateFiles(${JSON.stringify(missing)}, ${q}, ["map"])`,
      `node.readRun(${JSON.stringify(missing)})`,
      `node.readRun(${JSON.stringify(missing)}, { inputFormat: "arrow" })`,
    ]) {
      expect(await rejects(call)).toMatchObject({
        name: "InputError",
        code: "bad-input",
        file: missing,
        message: `${missing}: cannot read it: no such file (ENOENT)`,
      });
    }
    expect(await rejects(`node.readQrels(${JSON.stringify(dir)})`)).toMatchObject({
      name: "InputError",
      file: dir,
      message: `${dir}: cannot read it: is a directory, not a file`,
    });
  });
});

describe.skipIf(!fifos)("special files: stream or fail, never hold the process's exit", () => {
  const fifo = (name: string) => {
    const path = join(dir, name);
    spawnSync("mkfifo", [path]);
    return path;
  };

  it("a FIFO with no writer: the call waits for one, and process.exit() still ends the process", async () => {
    const path = JSON.stringify(fifo("lonely"));
    for (const call of [`node.readQrels(${path})`, `node.evaluateFiles(${q}, ${path}, ["map"])`]) {
      // The process exits when the value is said: it used to hang there until SIGKILL.
      const o = await hostile(
        `const pending = ${call}.then(() => "read", (e) => e.message);
         return await Promise.race([pending, new Promise((r) => setTimeout(() => r("waiting"), 300))]);`,
        { ms: 10_000 },
      );
      expect(o).toMatchObject({ kind: "returned", value: "waiting" });
      // Said, then ended: not killed at the time bound after saying it (the harness reads what was said).
      expect(o.ms).toBeLessThan(7_000);
    }
  });

  it("a FIFO whose writer comes later is read; one that writes zeros fails at once", async () => {
    const path = fifo("late");
    const writer = spawn("bash", ["-c", `sleep 0.5; printf 'q1 0 d1 1\\nq2 0 d3 2\\n' > ${path}`]);
    const o = await hostile(`return await node.readQrels(${JSON.stringify(path)})`, { ms: 15_000 });
    expect(o).toMatchObject({ kind: "returned", value: { q1: { d1: 1 }, q2: { d3: 2 } } });
    writer.kill();
    const zeros = spawn("bash", ["-c", `exec cat /dev/zero > ${path}`]);
    try {
      expect(await rejects(`node.readRun(${JSON.stringify(path)})`, 10_000)).toMatchObject({
        name: "InputError",
        file: path,
        message: `${path}:1:1: file is not text (NUL byte at byte offset 0)`,
      });
    } finally {
      zeros.kill();
    }
  });

  it("character devices: /dev/null is empty, /dev/urandom is not text", async () => {
    expect(await hostile('return await node.readQrels("/dev/null")')).toMatchObject({ kind: "returned", value: {} });
    const e = await rejects('node.readRun("/dev/urandom")');
    expect(e).toMatchObject({ name: "InputError", file: "/dev/urandom" });
    // Random bytes: most reads meet a control byte first ("not text"); about one in 30 meets a newline
    // first, and its first line, one field of bytes read as UTF-8, is said as a run line's error.
    expect(e.message).toMatch(/^\/dev\/urandom:\d+:\d+: (file is not text \(|expected at least 6 fields)/);
  });

  describe("a socket", () => {
    const path = join(dir, "listening.sock");
    const server = createServer();
    beforeAll(() => new Promise<void>((done) => server.listen(path, done)));
    afterAll(() => new Promise<void>((done) => server.close(() => done())));

    it("is refused with what it is", async () => {
      expect(await rejects(`node.readQrels(${JSON.stringify(path)})`)).toMatchObject({
        name: "InputError",
        file: path,
        message: `${path}: cannot read it: is a socket, not a file or a pipe`,
      });
    });
  });
});
