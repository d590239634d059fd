// Bad input through the built binary (dist/node/bin.js), run as a user runs it: every case ends with
// its exit status (1 usage, 2 bad input, 70 internal error, 74 output error) and one line naming the
// file or the argument; never a stack trace, never a hang (each run under a timeout), never a silent
// pass. Named pipes and standard input work as any file.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "rankeval-bad-"));
function file(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Seconds a run may take before it counts as a hang (the machine may be busy: generous). */
const TIMEOUT_S = 60;

interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

const ran = (r: SpawnSyncReturns<string>): Ran => ({
  status: r.status,
  signal: r.signal,
  out: r.stdout ?? "",
  err: r.stderr ?? "",
});

/** The binary with `args`, `input` on standard input. */
function rankeval(args: readonly string[], input = ""): Ran {
  return ran(spawnSync("node", [bin, ...args], { input, encoding: "utf8", timeout: TIMEOUT_S * 1000 }));
}

/**
 * A shell script, for pipes: `$R` runs the binary under `timeout`. Writers started in the background
 * are killed when it ends (a writer whose pipe was never opened would wait for ever).
 */
function shell(script: string): Ran {
  const wrapped = `R="timeout ${TIMEOUT_S} node ${bin}"\n${script}\nstatus=$?\nkill $(jobs -p) 2>/dev/null\nexit $status`;
  return ran(spawnSync("bash", ["-c", wrapped], { encoding: "utf8", timeout: (TIMEOUT_S + 10) * 1000 }));
}

/** No stack trace, no Node internals: every stderr line is rankeval's own. */
function expectNoTrace(r: Ran): void {
  expect(r.err).not.toMatch(/^\s+at /m);
  expect(r.err).not.toContain("node:internal");
  expect(r.err).not.toMatch(/^Node\.js v/m);
  for (const line of r.err.split("\n").filter(Boolean))
    expect(line).toMatch(/^(rankeval: |\(rankeval --help for usage\)$)/);
}

/** Ended by itself (not by the timeout), with `status`, a message matching `message`, nothing on stdout. */
function expectFailure(r: Ran, status: number, message: RegExp | string): void {
  expect(r.signal, "ended by the timeout: a hang").toBeNull();
  expectNoTrace(r);
  expect(r.err).toMatch(typeof message === "string" ? new RegExp(escapeRegex(message)) : message);
  expect(r.status).toBe(status);
  expect(r.out).toBe("");
  // One line: the error (for usage errors, and the hint after it).
  const lines = r.err.split("\n").filter(Boolean);
  expect(lines.length).toBe(status === 1 ? 2 : 1);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Good inputs, each format.
const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\n";
const RUN = "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d4 3 0.7 A\nq2 Q0 d1 1 0.5 A\n";
const qrels = file("qrels.txt", QRELS);
const run = file("a.run", RUN);
const LETOR = "2 qid:1 1:0.5 # docid = a\n0 qid:1 1:0.1 # docid = b\n1 qid:2 1:0.3 # docid = c\n";
const letor = file("data.txt", LETOR);
const scores = file("pred.txt", "0.2\n0.9\n0.5\n");
const noQid = file("noqid.txt", "2 1:0.5\n0 1:0.1\n1 1:0.3\n");
const groups = file("groups.txt", "2\n1\n");
const qrelsJson = file("qrels.json", '{"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 1}}');
const qrelsCsv = file("qrels.csv", "qid,docid,rel\nq1,d1,1\nq1,d2,0\nq1,d3,2\nq2,d1,1\n");

/** The expected output for the good run, to compare what pipes and standard input give. */
const GOOD = () => rankeval(["-m", "map", "-m", "P.2", qrels, run]);

// Files with nothing to evaluate, one per format; each also gzipped.
const EMPTY_RUNS: [string, string][] = [
  ["empty.run", ""],
  ["blank.run", "\n  \n\t\r\n"],
  ["comment.run", "# a header\n# more\n"],
  ["empty.json", "{}"],
  ["spaces.json", " { }\n"],
  ["header.csv", "qid,docid,score\n"],
  ["header.tsv", "qid\tdocid\tscore\r\n"],
];
const EMPTY_QRELS: [string, string][] = [
  ["empty.qrels", ""],
  ["blank.qrels", "\n\n"],
  ["comment.qrels", "# only a comment\n"],
  ["empty-qrels.json", "{}"],
  ["header-qrels.csv", "qid,docid,rel\n"],
  ["header-qrels.tsv", "qid\tdocid\trel\n"],
];

describe("nothing to evaluate: an error naming the file, exit 2", () => {
  it.each(EMPTY_RUNS)("a run %s, and gzipped", (name, text) => {
    for (const path of [file(name, text), file(`${name}.gz`, gzipSync(text))]) {
      expectFailure(
        rankeval(["-m", "map", qrels, path]),
        2,
        `${path}: no rankings in it: the file is empty or holds no rows`,
      );
    }
  });

  it.each(EMPTY_QRELS)("judgments %s, and gzipped", (name, text) => {
    for (const path of [file(name, text), file(`${name}.gz`, gzipSync(text))]) {
      expectFailure(
        rankeval(["-m", "map", path, run]),
        2,
        `${path}: no judgments in it: the file is empty or holds no rows`,
      );
    }
  });

  it("/dev/null as the run, the judgments, the LETOR file", () => {
    expectFailure(rankeval([qrels, "/dev/null"]), 2, "/dev/null: no rankings in it");
    expectFailure(rankeval(["/dev/null", run]), 2, "/dev/null: no judgments in it");
    expectFailure(rankeval(["--letor", "/dev/null", "--scores", scores]), 2, "/dev/null: no rows in it");
  });

  it("empty standard input as the run or the judgments", () => {
    expectFailure(rankeval([qrels, "-"], ""), 2, "standard input: no rankings in it");
    expectFailure(rankeval(["-", run], "\n\n"), 2, "standard input: no judgments in it");
  });

  it("a run with no query in common with the judgments, under -c too, in every format", () => {
    const other = file("other.run", "x1 Q0 d1 1 0.9 A\nx2 Q0 d1 1 0.9 A\n");
    const message =
      /other\.run: no query in common with the judgments: its 2 queries \("x1", "x2"\) have none in .*qrels\.txt \(2 judged: "q1", "q2"\)/;
    expectFailure(rankeval(["-m", "map", qrels, other]), 2, message);
    expectFailure(rankeval(["-c", "-m", "map", qrels, other]), 2, message);
    expectFailure(
      rankeval(["-m", "map", qrels, file("other.json", '{"x1": {"d1": 1}}')]),
      2,
      /other\.json: no query in common/,
    );
    expectFailure(
      rankeval(["-m", "map", qrelsJson, file("other.csv", "qid,docid,score\n1,d1,0.5\n")]),
      2,
      /other\.csv: no query in common .*\("1"\).*"q1"/,
    );
    // One of several runs: a table of the others is not printed either (a table is all the runs).
    expectFailure(rankeval(["-m", "map", "--format", "table", qrels, run, other]), 2, /other\.run: no query in common/);
    // trec_eval's text is printed run by run: the runs before the bad one are out, whole.
    const r = rankeval(["-m", "map", qrels, run, other]);
    expect([r.status, r.err]).toEqual([
      2,
      `rankeval: ${other}: no query in common with the judgments: its 2 queries ("x1", "x2") have none in ${qrels} (2 judged: "q1", "q2")\n`,
    ]);
    expect(r.out).toBe(`==> ${run} <==\nmap                   \tall\t0.7500\n`);
    // Against subtopic judgments (--diversity), in the same words.
    const subtopics = file("subtopics.txt", "q1 1 d1 1\nq1 2 d1 1\nq2 1 d2 1\n");
    const d = rankeval(["--diversity", subtopics, other]);
    const none = `its 2 queries ("x1", "x2") have none in ${subtopics} (2 judged: "q1", "q2")`;
    expect([d.status, d.err]).toEqual([2, `rankeval: ${other}: no query in common with the judgments: ${none}\n`]);
  });

  it("LETOR: empty predictions or groups, named", () => {
    expectFailure(
      rankeval(["--letor", letor, "--scores", file("empty.pred", "")]),
      2,
      /empty\.pred has 0 scores but .*data\.txt has 3 rows/,
    );
    expectFailure(
      rankeval(["--letor", file("empty.letor.gz", gzipSync("")), "--scores", scores]),
      2,
      /empty\.letor\.gz: no rows in it/,
    );
    expectFailure(
      rankeval(["--letor", noQid, "--scores", scores, "--query", file("empty.groups", "\n")]),
      2,
      /empty\.groups: the group sizes add up to 0/,
    );
  });
});

describe("malformed files: file, line and column", () => {
  it.each([
    [
      "a LETOR feature value that is not a number",
      "2 qid:1 1:0.5 2:abc\n",
      /bad\.letor:1:17: feature "2": value "abc" is not a number/,
    ],
    [
      "a LETOR feature index that is not a number",
      "2 qid:1 x:0.5\n",
      /bad\.letor:1:9: feature index "x" is not a whole number/,
    ],
    [
      "a LETOR token without a colon",
      "2 qid:1 1:0.5 oops\n",
      /bad\.letor:1:15: expected a feature INDEX:VALUE \(as 3:0\.25\), found "oops"/,
    ],
  ])("%s", (_, text, message) => {
    const data = file("bad.letor", text);
    expectFailure(rankeval(["--letor", data, "--scores", file("one.pred", "1\n")]), 2, message);
  });

  it.each([
    [
      "binary garbage",
      () =>
        file(
          "garbage.run",
          Uint8Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 256),
        ),
      /garbage\.run:\d+(:\d+)?: /,
    ],
    [
      "a NUL byte",
      () => file("nul.run", "q1 Q0 d1 1 0.9 A\nq1 Q0 d\u00002 2 0.8 A\n"),
      /nul\.run:2:8: file is not text \(NUL byte at byte offset 24\)/,
    ],
    ["a bare CR", () => file("cr.run", "q1 Q0 d1 1 0.9 A\rq1 Q0 d2 2 0.8 A\n"), /cr\.run:1:\d+: carriage return/],
    [
      "a truncated gzip",
      () => file("trunc.run.gz", gzipSync(RUN.repeat(50)).subarray(0, 40)),
      /trunc\.run\.gz: not valid gzip/,
    ],
    [
      "a corrupt gzip",
      () =>
        file(
          "corrupt.run.gz",
          Uint8Array.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]),
        ),
      /corrupt\.run\.gz: not valid gzip/,
    ],
    [
      "gzip of garbage",
      () => file("gzgarbage.run.gz", gzipSync(Uint8Array.from({ length: 300 }, (_, i) => (i * 31) % 256))),
      /gzgarbage\.run\.gz:\d+(:\d+)?: /,
    ],
    [
      "a score that is not a number",
      () => file("score.run", "q1 Q0 d1 1 0.9x A\n"),
      /score\.run:1:12: score "0\.9x" is not a number/,
    ],
    ["JSON cut short", () => file("cut.json", '{"q1": {"d1": 0.'), /cut\.json:1:\d+: /],
    ["a JSON array", () => file("array.json", "[1, 2]"), /array\.json:1:1: expected '\{'/],
    ["CSV without a score column", () => file("noscore.csv", "qid,docid\nq1,d1\n"), /noscore\.csv:1:1: .*score/],
  ])("a run with %s", (_, make, message) => {
    expectFailure(rankeval(["-m", "map", qrels, make()]), 2, message);
  });

  it("a qrels file given as the run, and the run as the qrels: the fields they lack", () => {
    expectFailure(rankeval([qrels, qrels]), 2, /qrels\.txt:1:10: expected at least 6 fields/);
    expectFailure(rankeval([run, run]), 2, /a\.run:1:\d+: expected 4 fields/);
  });
});

describe("binary and endless input: refused at once, naming the file and the byte", () => {
  /** A gzip file of 2 GiB of `byte` in about 2 MB (32 members of 64 MiB). */
  const bomb = (name: string, byte: number) => {
    const member = gzipSync(Buffer.alloc(64 << 20, byte), { level: 9 });
    return file(name, Buffer.concat(Array(32).fill(member)));
  };

  it("/dev/zero as the run, the judgments, a JSON run", () => {
    const zero = "/dev/zero:1:1: file is not text (NUL byte at byte offset 0)";
    expectFailure(rankeval(["-m", "map", qrels, "/dev/zero"]), 2, zero);
    expectFailure(rankeval(["-m", "map", "/dev/zero", run]), 2, zero);
    expectFailure(rankeval(["--input-format", "json", "-m", "map", qrelsJson, "/dev/zero"]), 2, zero);
  });

  it("a 2 MB gzip bomb (2 GiB of zeros; one line of 2 GiB): streamed, refused within its first chunks", () => {
    const zeros = bomb("bomb.run.gz", 0);
    expectFailure(
      rankeval(["-m", "map", qrels, zeros]),
      2,
      `${zeros}:1:1: file is not text (NUL byte at byte offset 0)`,
    );
    const line = bomb("line.run.gz", 0x61);
    expectFailure(
      rankeval(["-m", "map", qrels, line]),
      2,
      `${line}:1:67108865: the line is longer than 64 MiB (from byte offset 0), the most a line may hold: is the file text?`,
    );
  });

  it("a PNG given as a run says it is an image, not that it lacks fields", () => {
    const png = file(
      "plot.png",
      Uint8Array.from([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1,
      ]),
    );
    expectFailure(rankeval(["-m", "map", qrels, png]), 2, `${png}:1:1: file is not text (it is a PNG image)`);
  });

  it("Parquet piped into standard input says it is Parquet and how it is read", async () => {
    const { parquetWriteBuffer } = await import("hyparquet-writer");
    const parquet = file(
      "run.parquet",
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [
            { name: "qid", data: ["q1", "q2"] },
            { name: "docid", data: ["d1", "d1"] },
            { name: "score", data: [0.9, 0.5] },
          ],
        }),
      ),
    );
    const r = shell(`cat ${parquet} | $R -m map ${qrels} -`);
    expectFailure(
      r,
      2,
      /standard input:1:1: file is not text \(it is Parquet: name it \*\.parquet or give the input format "parquet" \(--input-format parquet\); Parquet is read from a file, not from a pipe or standard input\)/,
    );
    // Given as the file it is, it is read.
    expect(rankeval(["-m", "map", "-m", "P.2", qrels, parquet]).status).toBe(0);
  });

  it.skipIf(process.platform === "win32")(
    "a FIFO whose writer sends zeros: refused at once, the writer stopped",
    () => {
      const path = join(dir, "zeros.fifo");
      spawnSync("mkfifo", [path]);
      expectFailure(
        shell(`cat /dev/zero > ${path} & $R -m map ${qrels} ${path}`),
        2,
        `${path}:1:1: file is not text (NUL byte at byte offset 0)`,
      );
    },
  );

  it("a socket is refused with what it is", async () => {
    const { createServer } = await import("node:net");
    const path = join(dir, "run.sock");
    const server = createServer();
    await new Promise<void>((done) => server.listen(path, done));
    try {
      const r = await new Promise<Ran>((done) => {
        const child = spawn("node", [bin, "-m", "map", qrels, path], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (b) => (out += b));
        child.stderr.on("data", (b) => (err += b));
        child.on("close", (status, signal) => done({ status, signal, out, err }));
      });
      expectFailure(r, 2, `${path}: cannot read it: is a socket, not a file or a pipe`);
    } finally {
      server.close();
    }
  });
});

describe("files that cannot be read", () => {
  it("a missing file, a directory, a path through a file", () => {
    expectFailure(
      rankeval([qrels, join(dir, "missing.run")]),
      2,
      /missing\.run: cannot read it: no such file \(ENOENT\)/,
    );
    const sub = join(dir, "a-directory");
    mkdirSync(sub, { recursive: true });
    // A directory of runs gives the files in it (test/cli-many-runs.test.ts): none is bad input.
    expectFailure(rankeval([qrels, sub]), 2, /a-directory: no run files in it$/m);
    expectFailure(rankeval([sub, run]), 2, /a-directory: cannot read it: is a directory, not a file/);
    expectFailure(rankeval(["--letor", sub, "--scores", scores]), 2, /a-directory: cannot read it: is a directory/);
    expectFailure(
      rankeval([join(run, "x"), run]),
      2,
      /a\.run\/x: cannot read it: a part of the path is not a directory \(ENOTDIR\)/,
    );
  });

  it("permission denied", () => {
    const locked = file("locked.run", RUN);
    chmodSync(locked, 0o000);
    const root = process.getuid?.() === 0;
    // root reads any file: run the binary as nobody where setpriv can, else leave the case.
    const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find(existsSync);
    if (root && !setpriv) return;
    chmodSync(dir, 0o755);
    chmodSync(qrels, 0o644);
    const argv = [qrels, locked];
    const r = root
      ? ran(
          spawnSync(setpriv!, ["--reuid=65534", "--regid=65534", "--clear-groups", "node", bin, ...argv], {
            encoding: "utf8",
            timeout: TIMEOUT_S * 1000,
          }),
        )
      : rankeval(argv);
    expectFailure(r, 2, /locked\.run: cannot read it: permission denied \(EACCES\)/);
  });
});

describe("arguments: one line naming the argument, exit 1", () => {
  it.each([
    [["--scores", scores, qrels, run], /--scores .*pred\.txt needs --letor DATA/],
    [["--query", groups, qrels, run], /--query .*groups\.txt needs --letor DATA/],
    [["--group", groups, "--scores", scores, qrels, run], /--scores .*needs --letor/],
    [["-n", qrels, run], /-n \(no summary\) leaves nothing to print without -q/],
    [["-m"], /-m needs a value/],
    [[qrels, run, "-l"], /-l needs a value/],
    [["--format"], /--format needs a value/],
    [["--format=xml", qrels, run], /--format: "xml" is not one of trec, table, json, csv/],
    [["--frobnicate", qrels, run], /unknown option --frobnicate/],
    [["-x", qrels, run], /unknown option -x/],
    [["--help=yes"], /--help takes no value/],
    [[qrels], /give a QRELS file and at least one RUN file/],
    [[], /give a QRELS file and at least one RUN file/],
    [["--letor", letor], /--letor needs --scores PREDICTIONS/],
    [["--letor", letor, "--scores", scores, run], /--letor takes no QRELS or RUN files/],
    [["-m", "bleu", qrels, run], /illegal measure 'bleu'|bleu/],
    // -M 0 keeps no documents (trec_eval); below 0 trec_eval crashes.
    [["-M", "-1", qrels, run], /-M: "-1" is negative/],
    [["--format", "trec", "-m", "ndcg@10", qrels, run], /--format trec needs trec_eval measure names/],
  ])("%j", (argv, message) => {
    expectFailure(rankeval(argv as string[]), 1, message);
  });

  it("standard input named twice", () => {
    expectFailure(
      rankeval(["-", "-"], QRELS),
      1,
      /QRELS - and RUN - are the same pipe or standard input, which can be read only once/,
    );
    expectFailure(rankeval([qrels, run, "-", "-"], RUN), 1, /RUN - and RUN - are the same/);
    expectFailure(rankeval(["--letor", "-", "--scores", "-"], LETOR), 1, /--letor - and --scores - are the same/);
  });
});

describe("standard input and named pipes work as any file", () => {
  it("standard input as the run, the judgments, gzipped, JSON", () => {
    const good = GOOD();
    expect(good.status).toBe(0);
    expect(rankeval(["-m", "map", "-m", "P.2", qrels, "-"], RUN)).toEqual(good);
    expect(rankeval(["-m", "map", "-m", "P.2", "-", run], QRELS)).toEqual(good);
    const gz = spawnSync("node", [bin, "-m", "map", "-m", "P.2", qrels, "-"], {
      input: gzipSync(RUN),
      encoding: "utf8",
      timeout: TIMEOUT_S * 1000,
    });
    expect(ran(gz)).toEqual(good);
    const runJson = file("a.json", '{"q1": {"d1": 0.9, "d2": 0.8, "d4": 0.7}, "q2": {"d1": 0.5}}');
    expect(
      rankeval(["--input-format", "json", "-m", "map", "-m", "P.2", "-", runJson], readFileSync(qrelsJson, "utf8")),
    ).toEqual(good);
  });

  it.skipIf(process.platform === "win32")(
    "a FIFO as QRELS, as RUN (several, gzipped), with -c, as --letor, --scores and --query",
    () => {
      const good = GOOD();
      const fifo = (name: string) => {
        const path = join(dir, name);
        if (!existsSync(path)) spawnSync("mkfifo", [path]);
        return path;
      };
      const [f1, f2, f3, fcsv] = [fifo("f1"), fifo("f2"), fifo("f3"), fifo("f.csv")];
      // The run parsed whole (a pipe cannot be read again), the judgments from a pipe.
      expect(shell(`cat ${qrels} > ${f1} & cat ${run} > ${f2} & $R -m map -m P.2 ${f1} ${f2}`)).toEqual(good);
      expect(shell(`gzip -c ${run} > ${f2} & $R -m map -m P.2 ${qrels} ${f2}`)).toEqual(good);
      // Its format from its name, as any file's.
      expect(shell(`cat ${qrelsCsv} > ${fcsv} & $R -m map -m P.2 ${fcsv} ${run}`)).toEqual(good);
      const c = rankeval(["-c", "-m", "map", qrels, run]);
      expect(shell(`cat ${run} > ${f2} & $R -c -m map ${qrels} ${f2}`)).toEqual(c);
      // A run not grouped by query, from a pipe: it cannot be read twice, so it is read whole at once.
      const scattered = file(
        "scattered.run",
        "q1 Q0 d1 1 0.9 A\nq2 Q0 d1 1 0.5 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d4 3 0.7 A\n",
      );
      expect(shell(`cat ${scattered} > ${f2} & $R -m map -m P.2 ${qrels} ${f2}`)).toEqual(
        rankeval(["-m", "map", "-m", "P.2", qrels, scattered]),
      );
      // Two runs from pipes, in trec_eval's text: each after its header.
      const two = shell(`cat ${run} > ${f2} & cat ${run} > ${f3} & $R -m map ${qrels} ${f2} ${f3}`);
      expect(two.out).toBe(
        `==> ${f2} <==\nmap                   \tall\t0.7500\n\n==> ${f3} <==\nmap                   \tall\t0.7500\n`,
      );
      // --letor, --scores, --query.
      const letorGood = rankeval([
        "--letor",
        noQid,
        "--scores",
        scores,
        "--query",
        groups,
        "-m",
        "mrr",
        "--format",
        "csv",
      ]);
      expect(letorGood.out).toBe(
        `run,qid,measure,value,conventions\n${scores},all,mrr,0.75,rankeval: relevanceThreshold=1 noRelevant=zero ties=docid\n`,
      );
      expect(
        shell(
          `cat ${noQid} > ${f1} & cat ${scores} > ${f2} & cat ${groups} > ${f3} & $R --letor ${f1} --scores ${f2} --query ${f3} -m mrr --format csv`,
        ).out,
      ).toBe(letorGood.out.replaceAll(scores, f2));
      expect(
        shell(`gzip -c ${letor} > ${f1} & cat ${scores} > ${f2} & $R --letor ${f1} --scores ${f2} -m mrr --format csv`)
          .out,
      ).toBe(letorGood.out.replaceAll(scores, f2));
      // Bad input from a pipe is named as any file's.
      const e = shell(`printf '' > ${f2} & $R ${qrels} ${f2}`);
      expectFailure(e, 2, `${f2}: no rankings in it`);
      expectFailure(
        shell(`printf 'q1 Q0 d1 1 zz A\\n' > ${f2} & $R ${qrels} ${f2}`),
        2,
        new RegExp(`${escapeRegex(f2)}:1:12: score "zz" is not a number`),
      );
      // The same pipe twice: refused before anything is read (it could only hang).
      expectFailure(shell(`$R ${f1} ${f1}`), 1, /QRELS .*f1 and RUN .*f1 are the same pipe or standard input/);
      expectFailure(shell(`$R --letor ${f1} --scores ${f1}`), 1, /--letor .*f1 and --scores .*f1 are the same pipe/);
    },
  );

  it("process substitution (/dev/fd/N pipes), as shells give them", () => {
    const r = shell(`$R -m map -m P.2 <(cat ${qrels}) <(gzip -c ${run})`);
    expect(r.status).toBe(0);
    expect(r.out).toBe(GOOD().out);
  });
});

describe("the process itself", () => {
  it("a closed output (| head -1) ends quietly, as cat's: SIGPIPE, nothing on stderr", () => {
    const lines: string[] = [];
    for (let q = 0; q < 3000; q++) for (let d = 0; d < 5; d++) lines.push(`q${q} Q0 d${d} ${d + 1} ${5 - d} R`);
    const big = file("big.run", lines.join("\n") + "\n");
    const bigQrels = file("big.qrels", Array.from({ length: 3000 }, (_, q) => `q${q} 0 d${q % 5} 1\n`).join(""));
    for (const format of ["trec", "table", "json", "csv"]) {
      const r = shell(
        `$R -q -m map -m P.5 --format ${format} ${bigQrels} ${big} | head -1 > /dev/null; echo "\${PIPESTATUS[0]}"`,
      );
      expect(r.err).toBe("");
      // 141: killed by SIGPIPE (128 + 13), as the shell reports it.
      expect(r.out.trim()).toBe("141");
    }
  });

  it("an output that cannot be written (a full disk): one line, exit 74", () => {
    if (!existsSync("/dev/full")) return;
    const full = openSync("/dev/full", "w");
    try {
      const r = spawnSync("node", [bin, "-m", "map", qrels, run], {
        stdio: ["ignore", full, "pipe"],
        encoding: "utf8",
        timeout: TIMEOUT_S * 1000,
      });
      expect(r.signal).toBeNull();
      expect(r.status).toBe(74);
      expect(r.stderr).toBe("rankeval: cannot write the output: ENOSPC\n");
    } finally {
      closeSync(full);
    }
  });

  it("an internal error (a bug): one line, exit 70, no trace, in the main thread and after it", () => {
    // A bug simulated by replacing a method of the built library before the command runs: the
    // command's modules as they are (RANKEVAL_BUNDLE=0), not the one file bin.js loads otherwise.
    const interner = new URL("../dist/io/interner.js", import.meta.url).href;
    const env = { ...process.env, RANKEVAL_BUNDLE: "0" };
    const broken = `data:text/javascript,import { Interner } from "${interner}"; Interner.prototype.intern = () => { throw new TypeError("simulated bug"); };`;
    const r = ran(
      spawnSync("node", ["--import", broken, bin, qrels, run], { encoding: "utf8", timeout: TIMEOUT_S * 1000, env }),
    );
    expect(r.signal).toBeNull();
    expectNoTrace(r);
    expect(r.err).toBe("rankeval: internal error: TypeError: simulated bug\n");
    expect(r.status).toBe(70);
    // Thrown outside any call main() awaits (as a stream's callback would), once the command runs.
    const late = `data:text/javascript,import { Interner } from "${interner}"; const intern = Interner.prototype.intern; Interner.prototype.intern = function (...a) { Interner.prototype.intern = intern; setImmediate(() => { throw new Error("thrown later"); }); return intern.apply(this, a); };`;
    const r2 = ran(
      spawnSync("node", ["--import", late, bin, qrels, run], { encoding: "utf8", timeout: TIMEOUT_S * 1000, env }),
    );
    expectNoTrace(r2);
    expect(r2.err).toBe("rankeval: internal error: thrown later\n");
    expect(r2.status).toBe(70);
  });
});

describe("odd but valid input: a correct result", () => {
  it("CRLF line ends, a BOM, a very long line, a non-UTF-8 query id, the same file as two runs", () => {
    const good = GOOD();
    const crlf = file("crlf.run", "\uFEFF" + RUN.replaceAll("\n", "\r\n"));
    expect(rankeval(["-m", "map", "-m", "P.2", qrels, crlf])).toEqual(good);
    // A 20 MB document id: one line longer than any chunk.
    const long = file("long.run", `${RUN}q2 Q0 ${"d".repeat(20_000_000)} 2 0.1 A\n`);
    expect(rankeval(["-m", "map", "-m", "P.2", qrels, long]).out).toBe(good.out);
    // Bytes that are not UTF-8 in a query id: compared as bytes, that query has no judgments.
    const latin = file(
      "latin.run",
      Buffer.concat([Buffer.from(RUN), Buffer.from([0x71, 0xff, 0x0a].slice(0, 2)), Buffer.from(" Q0 d1 1 0.5 A\n")]),
    );
    const l = rankeval(["-m", "map", "-m", "P.2", qrels, latin]);
    expect(l.status).toBe(0);
    expect(l.out).toBe(good.out);
    const twice = rankeval(["-m", "map", qrels, run, run]);
    expect(twice.status).toBe(0);
    expect(twice.out).toBe(
      `==> ${run} <==\nmap                   \tall\t0.7500\n\n==> ${run} <==\nmap                   \tall\t0.7500\n`,
    );
  });
});
