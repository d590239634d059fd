// --manifest and evaluateFiles' `manifest` (src/app/manifest.ts, src/node/write-manifest.ts): each input's
// SHA-256 is sha256sum's and its size stat's, formats are as read, measures, conventions and query
// counts are --format json's, the YAML says what the JSON says, and the library's manifest is the
// command line's but for how it was called.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Manifest } from "../src/app/manifest.js";
import { Sha256 } from "../src/io/sha256.js";
import { evaluateFiles } from "../src/node/index.js";
import { cli } from "./_cli.js";
import { readYaml } from "./_yaml.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-manifest-"));
const qrels = "examples/qrels.txt";
const bm25 = "examples/bm25.run";
const rerank = "examples/rerank.run";
const rerankGz = join(dir, "rerank.run.gz");
writeFileSync(rerankGz, gzipSync(readFileSync(rerank)));
const inputs = [qrels, bm25, rerank, rerankGz];
const measures = ["ndcg@10", "map", "recall@10"];
const measureArgs = measures.flatMap((m) => ["-m", m]);

/** sha256sum's digest of each file (the tool, not Node's crypto). */
function sha256sum(files: readonly string[]): string[] {
  const out = execFileSync("sha256sum", ["--", ...files], { encoding: "utf8" });
  return out
    .trim()
    .split("\n")
    .map((l) => l.slice(0, 64));
}

async function manifestOfCli(args: readonly string[], file: string) {
  const r = await cli([...args, "--manifest", file]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return { stdout: r.stdout, text: readFileSync(file, "utf8") };
}

describe("--manifest", () => {
  it("gives sha256sum's SHA-256 and stat's size of each input, gzip's compressed bytes too", async () => {
    const { text } = await manifestOfCli([...measureArgs, ...inputs], join(dir, "m.json"));
    const m = JSON.parse(text) as Manifest;
    expect(m.data.inputs.map((i) => i.name)).toEqual(inputs);
    expect(m.data.inputs.map((i) => i.sha256)).toEqual(sha256sum(inputs));
    expect(m.data.inputs.map((i) => i.bytes)).toEqual(inputs.map((f) => statSync(f).size));
    expect(m.data.inputs.map((i) => [i.role, i.format, i.compression])).toEqual([
      ["qrels", "trec", "none"],
      ["run", "trec", "none"],
      ["run", "trec", "none"],
      ["run", "trec", "gzip"],
    ]);
    expect(m.implementation.name).toBe("rankeval");
    expect(m.implementation.version).toBe(JSON.parse(readFileSync("package.json", "utf8")).version);
    expect(m.implementation.command).toEqual([...measureArgs, ...inputs, "--manifest", join(dir, "m.json")]);
  });

  it("hashes a file read in several chunks, plain and gzipped, as sha256sum does", async () => {
    // Over 4 MiB: streamed by the evaluation, and by the hash in 1 MiB chunks.
    const qids = [
      ...new Set(
        readFileSync(qrels, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split(/\s+/)[0]),
      ),
    ];
    const lines: string[] = [];
    for (const q of qids) for (let i = 1; i <= 8000; i++) lines.push(`${q} Q0 doc-${i} ${i} ${10000 - i} big`);
    const big = join(dir, "big.run");
    writeFileSync(big, `${lines.join("\n")}\n`);
    const bigGz = join(dir, "big.run.gz");
    writeFileSync(bigGz, gzipSync(readFileSync(big), { level: 1 }));
    expect(statSync(big).size).toBeGreaterThan(4 << 20);
    const { text } = await manifestOfCli(["-m", "map", qrels, big, bigGz], join(dir, "big.json"));
    const m = JSON.parse(text) as Manifest;
    expect(m.data.inputs.map((i) => i.sha256)).toEqual(sha256sum([qrels, big, bigGz]));
    expect(m.data.inputs.map((i) => i.bytes)).toEqual([qrels, big, bigGz].map((f) => statSync(f).size));
  });

  it("has --format json's measures, conventions and query counts", async () => {
    const { text, stdout } = await manifestOfCli(
      [...measureArgs, "--format", "json", qrels, bm25, rerankGz],
      join(dir, "j.json"),
    );
    const m = JSON.parse(text) as Manifest;
    const json = JSON.parse(stdout) as {
      conventions: string;
      measureConventions: Record<string, string>;
      runs: { run: string; runTag: string; queries: unknown }[];
    };
    expect(m.evaluation.conventions).toBe(json.conventions);
    expect(m.evaluation.measures.map((x) => x.name)).toEqual(Object.keys(json.measureConventions));
    expect(m.evaluation.measures.map((x) => `${x.tool}: ${x.conventions}`)).toEqual(
      Object.values(json.measureConventions),
    );
    expect(m.evaluation.measures.map((x) => x.tool)).toEqual(["rankeval", "trec_eval", "rankeval"]);
    expect(m.evaluation.runs).toEqual(json.runs.map((r) => ({ name: r.run, runTag: r.runTag, queries: r.queries })));
    expect(m.evaluation.warnings).toEqual([]);
  });

  it("counts the queries skipped, and keeps the warnings the command says", async () => {
    // A run with one query the judgments lack and lacking two they have; a cutoff trec_eval reads as 10.
    const lines = readFileSync(bm25, "utf8").trim().split("\n");
    const qids = [...new Set(lines.map((l) => l.split(/\s+/)[0]))];
    const kept = lines.filter((l) => !qids.slice(0, 2).includes(l.split(/\s+/)[0]));
    const run = join(dir, "partial.run");
    writeFileSync(run, `${[...kept, "no-such-query Q0 d1 1 1 x"].join("\n")}\n`);
    const file = join(dir, "w.yaml");
    const r = await cli(["-m", "ndcg_cut.10.5", "--manifest", file, qrels, run]);
    expect(r.status).toBe(0);
    const m = readYaml(readFileSync(file, "utf8")) as Manifest;
    expect(m.evaluation.runs[0].queries).toEqual({
      evaluated: qids.length - 2,
      skipped: { noRelevant: 0, notJudged: 1, notInRun: 2 },
    });
    const said = r.stderr
      .trim()
      .split("\n")
      .map((l) => l.replace(/^rankeval: (warning: )?/, ""));
    expect(said.length).toBeGreaterThan(1);
    expect(m.evaluation.warnings).toEqual(said);
  });

  it("writes YAML that says what the JSON says, key for key", async () => {
    const args = [...measureArgs, qrels, bm25, rerankGz];
    const yaml = (await manifestOfCli(args, join(dir, "m.yaml"))).text;
    const yml = (await manifestOfCli(args, join(dir, "m.yml"))).text;
    const json = JSON.parse((await manifestOfCli(args, join(dir, "m.json"))).text) as Manifest;
    const read = readYaml(yaml) as Manifest;
    const readYml = readYaml(yml) as Manifest;
    // Only the command differs: it names the manifest's file.
    for (const m of [read, readYml, json]) m.implementation.command = [];
    expect(read).toEqual(json);
    expect(readYml).toEqual(json);
    expect(yaml).toMatch(/^implementation:\n {2}name: "rankeval"\n/);
    expect(yaml).toContain('\n    - role: "qrels"\n      name: "examples/qrels.txt"\n');
  });

  it("says a .tsv with TREC lines is read as TREC text, one with a header as TSV", async () => {
    const trecTsv = join(dir, "qrels.tsv");
    writeFileSync(trecTsv, readFileSync(qrels, "utf8").replace(/ +/g, "\t"));
    const headed = join(dir, "run.tsv");
    const rows = readFileSync(bm25, "utf8")
      .trim()
      .split("\n")
      .map((l) => {
        const f = l.split(/\s+/);
        return `${f[0]}\t${f[2]}\t${f[4]}`;
      });
    writeFileSync(headed, `qid\tdocid\tscore\n${rows.join("\n")}\n`);
    const gz = join(dir, "run.tsv.gz");
    writeFileSync(gz, gzipSync(readFileSync(headed)));
    const { text } = await manifestOfCli(["-m", "map", trecTsv, headed, gz], join(dir, "t.json"));
    const m = JSON.parse(text) as Manifest;
    expect(m.data.inputs.map((i) => [i.format, i.compression])).toEqual([
      ["trec", "none"],
      ["tsv", "none"],
      ["tsv", "gzip"],
    ]);
  });

  it("refuses what it cannot write or describe", async () => {
    const refused = async (args: string[], said: string | RegExp) => {
      const r = await cli(args);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(said);
    };
    await refused(["--manifest", "-", qrels, bm25], "--manifest -: standard output has the evaluation");
    await refused(
      ["--manifest", join(dir, "m.txt"), qrels, bm25],
      "the format comes from the name: .yaml, .yml or .json",
    );
    await refused(["--compare", "--manifest", join(dir, "c.json"), qrels, bm25, rerank], "not with --compare");
    // A dataset (a directory with _SUCCESS) is one run of many files: no one SHA-256.
    const dataset = join(dir, "dataset");
    mkdirSync(dataset);
    writeFileSync(join(dataset, "_SUCCESS"), "");
    await refused(["--manifest", join(dir, "d.json"), qrels, dataset], "dataset is not");
    await refused(["--manifest", join(dir, "s.json"), qrels, "-"], "standard input is not");
  });

  it("says where it cannot write, with sysexits' output status", async () => {
    const r = await cli(["-m", "map", "--manifest", join(dir, "no-such-dir", "m.json"), qrels, bm25]);
    expect(r.status).toBe(74);
    expect(r.stderr).toContain("cannot write the manifest: ENOENT");
  });
});

describe("evaluateFiles' manifest", () => {
  it("is the command line's but for how it was called, in every run's result", async () => {
    const runs = [bm25, rerank, rerankGz];
    // (Not map: the library says its own is rankeval's, the command line trec_eval's.)
    const names = ["ndcg@10", "recall@10", "P@5"] as const;
    const results = await evaluateFiles(qrels, runs, names, { manifest: true });
    const args = names.flatMap((m) => ["-m", m]);
    const { text } = await manifestOfCli([...args, qrels, ...runs], join(dir, "lib.json"));
    const fromCli = JSON.parse(text) as Manifest;
    const m = results[0].manifest!;
    expect(results.every((r) => r.manifest === m)).toBe(true);
    expect(m.implementation.options).toEqual({ manifest: true });
    const { options: _o, ...library } = m.implementation;
    const { command: _c, ...commandLine } = fromCli.implementation;
    expect({ ...m, implementation: library }).toEqual({ ...fromCli, implementation: commandLine });
  });

  it("is asked for: absent by default", async () => {
    const r = await evaluateFiles(qrels, bm25, ["map"]);
    expect(r.manifest).toBeUndefined();
  });

  it("refuses standard input, which it could not read again", async () => {
    await expect(evaluateFiles(qrels, "-", ["map"], { manifest: true })).rejects.toThrow(/standard input is not/);
  });
});

describe("Sha256 (the page's, fed chunk by chunk)", () => {
  const ofBytes = (bytes: Uint8Array, cuts: readonly number[] = []) => {
    const h = new Sha256();
    let from = 0;
    for (const to of [...cuts, bytes.length]) {
      h.update(bytes.subarray(from, to));
      from = to;
    }
    return h.hex();
  };
  const utf8 = (s: string) => new TextEncoder().encode(s);

  it("gives the NIST vectors (FIPS 180-4's examples, and a million a's)", () => {
    expect(ofBytes(utf8(""))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(ofBytes(utf8("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    expect(ofBytes(utf8(two))).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const four =
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    expect(ofBytes(utf8(four))).toBe("cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    const million = new Uint8Array(1_000_000).fill(0x61);
    expect(ofBytes(million, [1, 63, 64, 65, 500_000])).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
  });

  it("equals Node's crypto on random bytes cut into random chunks", () => {
    let seed = 0x9e3779b9;
    const random = () => {
      // xorshift32: the same inputs every run.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) / 2 ** 32;
    };
    // Every length about a block's edges (55, 56, 64, 119, 120, 128 ...), and longer ones.
    const lengths = [...Array.from({ length: 200 }, (_, i) => i), 1000, 4095, 65_537, 300_001];
    for (const n of lengths) {
      const bytes = new Uint8Array(n).map(() => Math.floor(random() * 256));
      const cuts = Array.from({ length: Math.floor(random() * 6) }, () => Math.floor(random() * (n + 1))).sort(
        (a, b) => a - b,
      );
      expect(ofBytes(bytes, cuts), `${n} bytes cut at ${cuts}`).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
  });

  it("refuses to be fed after its digest", () => {
    const h = new Sha256();
    h.hex();
    expect(() => h.update(new Uint8Array(1))).toThrow(/after the digest/);
  });
});
