import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { main } from "../../src/node/cli.js";
import { arrowTable, duckParquet, trecRows, writeArrow } from "./_data.js";

async function run(...argv: string[]) {
  let out = ""; let err = "";
  const status = await main(argv, { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (err += s) } });
  return { status, out, err };
}
const G = "../shared/golden/synthetic-small";
it("smoke", async () => {
  const dir = mkdtempSync(join(tmpdir(), "col-"));
  const q = trecRows(readFileSync(`${G}/qrels.txt`, "utf8"), "qrels");
  const r = trecRows(readFileSync(`${G}/run.txt`, "utf8"), "run");
  await duckParquet(q, join(dir, "qrels.parquet"), { kind: "qrels" });
  await duckParquet(r, join(dir, "run.parquet"), { kind: "run" });
  await duckParquet(r, join(dir, "runds"), { kind: "run", buckets: 8 });
  await duckParquet(q, join(dir, "qrelsds"), { kind: "qrels", buckets: 8 });
  writeArrow(arrowTable(r, "run"), join(dir, "run.arrow"), "file");
  writeArrow(arrowTable(r, "run"), join(dir, "run.arrows"), "stream");
  const want = await run(`${G}/qrels.txt`, `${G}/run.txt`);
  expect(want.out).toBe(readFileSync(`${G}/small_default.txt`, "utf8"));
  for (const [qq, rr] of [["qrels.parquet", "run.parquet"], ["qrels.parquet", "run.arrow"], ["qrels.parquet", "run.arrows"], ["qrelsds", "run.parquet"], ["qrels.parquet", "runds"]]) {
    const got = await run(join(dir, qq), join(dir, rr));
    console.log(qq, rr, got.status, got.err);
    expect(got.out).toBe(want.out);
  }
}, 60000);
