// --manifest and evaluateFiles' `manifest`: inputs' sizes, SHA-256s and formats, and the manifest written.
// Hashing is a streaming pass of its own: the evaluation reads files several ways, in several threads.
import { createHash } from "node:crypto";
import { createReadStream, readFileSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { RankevalError } from "../errors/errors.js";
import { formatRead, type ParserChoice } from "../input/formats.js";
import { manifestFormat, manifestText, type Manifest, type ManifestInput } from "../app/manifest.js";
import { displayName } from "./file-read.js";
import { magicOf } from "../io/magic.js";

export function rankevalVersion(): string {
  return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string })
    .version;
}

/** Refuses, before any read, inputs with no one SHA-256: stdin, pipes, devices (read once), directories. */
export function checkHashable(paths: readonly string[], option: string): void {
  for (const path of paths) {
    let file = false;
    try {
      file = path !== "-" && statSync(path).isFile();
    } catch {
      continue; // the evaluation says why it cannot be read
    }
    if (!file)
      throw new RankevalError(
        "bad-option",
        `${option} needs each input to be a file (it reads it again for its SHA-256): ${displayName(path)} is not`,
      );
  }
}

/** The most of a file's start kept for its first line (a .tsv's format depends on it). */
const HEAD = 1 << 16;

/** An input's size, SHA-256 as stored, and the format it is parsed in. */
export async function describeInput(path: string, role: "qrels" | "run", choice: ParserChoice): Promise<ManifestInput> {
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let headBytes = 0;
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (headBytes < HEAD) {
      head.push(chunk.subarray(0, HEAD - headBytes));
      headBytes += Math.min(chunk.length, HEAD - headBytes);
    }
  }
  const start = Buffer.concat(head);
  const gzip = magicOf(start) === "gzip";
  const text = gzip ? await gunzipStart(start) : start;
  const nl = text.indexOf(10);
  const firstLine = text.subarray(0, nl < 0 ? text.length : nl).toString("utf8");
  return {
    role,
    name: path,
    bytes,
    sha256: hash.digest("hex"),
    format: formatRead(role, path, choice, firstLine, start.subarray(0, 8)),
    compression: gzip ? "gzip" : "none",
  };
}

/** As much of a gzip file's text as its first bytes give (a sync flush: the rest is not there). */
async function gunzipStart(start: Buffer): Promise<Buffer> {
  const zlib = await import("node:zlib");
  try {
    return zlib.gunzipSync(start, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch {
    return Buffer.alloc(0); // not valid gzip: the evaluation says so
  }
}

export function describeInputs(qrels: string, runs: readonly string[], choice: ParserChoice): Promise<ManifestInput[]> {
  return Promise.all([describeInput(qrels, "qrels", choice), ...runs.map((r) => describeInput(r, "run", choice))]);
}

/** Writes the manifest as YAML or JSON by its name. */
export async function writeManifest(file: string, m: Manifest): Promise<void> {
  const format = manifestFormat(file);
  if (!format) throw new RankevalError("bad-option", `--manifest ${file}: the name must end .yaml, .yml or .json`);
  await writeFile(file, manifestText(m, format));
}
