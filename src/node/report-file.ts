// Writing an HTML report (--report FILE): its folder checked before anything is read, the file written
// with zlib's gzip, and its size as stderr says it; --report's and --qrels-compare --report's.
import { statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { RankevalError } from "../errors/errors.js";
import type { ReportData } from "../output/html/data.js";
import { reportHtml } from "../output/html/html.js";

/** Throws unless `file`'s folder is one to write it in. */
export function checkReportFolder(file: string): void {
  const out = resolve(file);
  try {
    if (!statSync(dirname(out)).isDirectory()) throw new Error("not a directory");
  } catch {
    throw new RankevalError("bad-input", `--report ${file}: ${dirname(out)} is not a directory to write it in`);
  }
}

/** Writes the report; its size, as "1.2 MB (1234567 bytes)". */
export async function writeReport(file: string, data: ReportData): Promise<string> {
  const { gzipSync } = await import("node:zlib");
  const html = await reportHtml(data, (bytes) => gzipSync(bytes, { level: 9 }));
  try {
    writeFileSync(resolve(file), html);
  } catch (e) {
    throw new RankevalError(
      "bad-input",
      `--report ${file}: cannot write it (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const bytes = Buffer.byteLength(html);
  const size = bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
  return `${size} (${bytes} bytes)`;
}
