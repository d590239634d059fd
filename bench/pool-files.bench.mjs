// The command line's depth:100 pool (issue 38's target, under 5 s): `rankeval --pool depth:100` on RUNS TREC
// run files of QUERIES x PER_QUERY rows (default 10 x 10,000 x 100: 1M rows a file), the rows drawn as
// bench/pool.bench.mjs draws them (seed 38, 300 candidates a query). Each round is one process a build
// (cold, as a user runs it) under /usr/bin/time -v, this build's dist/ and OTHER_DIST alternated (A B, B A,
// ...) so that the shared machine's load falls on both alike. Prints each build's medians: wall, CPU (user +
// system) and peak memory (maximum resident set), the load, and whether the outputs were byte-identical.
//   npm run build && node bench/pool-files.bench.mjs [OTHER_DIST] [ROUNDS] [RUNS] [QUERIES] [PER_QUERY]
// The files are written once to $TMPDIR/rankeval-pool-files-RUNSxQUERIESxPER_QUERY and kept.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { random } from "./data.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const other = process.argv[2];
const rounds = Number(process.argv[3] ?? 3);
const R = Number(process.argv[4] ?? 10);
const queries = Number(process.argv[5] ?? 10_000);
const perQuery = Number(process.argv[6] ?? 100);
const CANDIDATES = 300;

const dir = path.join(os.tmpdir(), `rankeval-pool-files-${R}x${queries}x${perQuery}`);
const files = Array.from({ length: R }, (_, r) => path.join(dir, `run${r}.txt`));
if (!files.every((f) => fs.existsSync(f))) {
  fs.mkdirSync(dir, { recursive: true });
  const next = random(38);
  const keys = new Float64Array(CANDIDATES);
  const idx = new Int32Array(CANDIDATES);
  for (let r = 0; r < R; r++) {
    const lines = [];
    for (let q = 0; q < queries; q++) {
      for (let k = 0; k < CANDIDATES; k++) {
        keys[k] = -k / CANDIDATES + 2 * next();
        idx[k] = k;
      }
      idx.sort((a, b) => keys[b] - keys[a]);
      const doc = (k) => `clueweb-${String(q).padStart(5, "0")}-${k}`;
      // 3 decimals: ties, as a model's scores have.
      for (let k = 0; k < perQuery; k++)
        lines.push(`q${q} Q0 ${doc(idx[k])} ${k + 1} ${Math.round(keys[idx[k]] * 1000) / 1000} run${r}\n`);
    }
    fs.writeFileSync(files[r], lines.join(""));
  }
}

const builds = [["this", path.join(here, "..", "dist")]];
if (other) builds.push(["other", path.resolve(other)]);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(", ");
console.log(
  `rankeval --pool depth:100 on ${R} TREC files of ${(queries * perQuery).toLocaleString("en")} rows ` +
    `(${queries.toLocaleString("en")} queries x ${perQuery}); ${os.cpus()[0]?.model ?? "unknown CPU"}, ` +
    `${os.cpus().length} cores; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; median of ${rounds}`,
);
console.log(`load average ${load()} at the start\n`);

/** One cold run of a build: wall and CPU seconds, peak resident MB, and its stdout. */
function once(dist) {
  const outFile = path.join(dir, "pool.out");
  const { stderr, status } = spawnSync(
    "/usr/bin/time",
    [
      "-v",
      "sh",
      "-c",
      `node "$0" --pool depth:100 "$@" > "${outFile}" 2>/dev/null`,
      path.join(dist, "node/bin.js"),
      ...files,
    ],
    { encoding: "utf8", stdio: ["ignore", "ignore", "pipe"] },
  );
  if (status !== 0) throw new Error(`${dist}: rankeval --pool failed (${status}):\n${stderr}`);
  const field = (name) => /: (.*)$/.exec(stderr.split("\n").find((l) => l.includes(name)))[1];
  const [m, s] = field("Elapsed (wall clock)").split(":").map(Number);
  return {
    wall: m * 60 + s,
    cpu: Number(field("User time")) + Number(field("System time")),
    mb: Number(field("Maximum resident set size")) / 1024,
    out: fs.readFileSync(outFile),
  };
}

const results = builds.map(() => []);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => i).reverse();
  for (const i of order) results[i].push(once(builds[i][1]));
}
const mid = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log("| build | wall s (median) | CPU s (median) | peak MB (median) | output bytes |");
console.log("|---|---:|---:|---:|---:|");
builds.forEach(([name, dist], i) => {
  const rs = results[i];
  console.log(
    `| ${name} (${dist}) | ${mid(rs.map((r) => r.wall)).toFixed(2)} | ${mid(rs.map((r) => r.cpu)).toFixed(2)} | ` +
      `${mid(rs.map((r) => r.mb)).toFixed(0)} | ${rs[0].out.length.toLocaleString("en")} |`,
  );
});
if (other) console.log(`\noutputs byte-identical: ${results[0][0].out.equals(results[1][0].out)}`);
console.log(`load average ${load()} at the end`);
