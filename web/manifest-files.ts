// The page's manifest (src/app/manifest.ts): each File's size, SHA-256 and format as read, hashed by
// a stream of its own through Sha256 (src/io/sha256.ts; crypto.subtle.digest would need the whole
// file at once) after the evaluation's reads, never beside them (two streams at once stalled a read
// in Chromium: read-file.ts).
import type { ManifestInput } from "../src/app/manifest.js";
import { formatRead } from "../src/input/formats.js";
import { Sha256 } from "../src/io/sha256.js";
import { columnarFormat } from "./file-columns.js";
import { gunzippedHead, isGzip } from "./read-file.js";
import { BY_NAME } from "./text-files.js";

/** The most of a file's start read for its first line (a .tsv's format depends on it). */
const HEAD = 1 << 16;

/** `file` described, under its name. */
export async function describeFile(file: File, role: "qrels" | "run"): Promise<ManifestInput> {
  const hash = new Sha256();
  const reader = file.stream().getReader();
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    hash.update(r.value);
  }
  const gzip = await isGzip(file);
  const format = (await columnarFormat(file)) ?? formatRead(role, file.name, BY_NAME, await firstLine(file, gzip));
  return { role, name: file.name, bytes: file.size, sha256: hash.hex(), format, compression: gzip ? "gzip" : "none" };
}

/** The file's first line of text (gunzipped from its first bytes where it is gzip). */
async function firstLine(file: File, gzip: boolean): Promise<string> {
  let text = new Uint8Array(0);
  if (!gzip) text = new Uint8Array(await file.slice(0, HEAD).arrayBuffer());
  else
    await gunzippedHead(file.slice(0, HEAD), (chunk) => {
      const both = new Uint8Array(text.length + chunk.length);
      both.set(text);
      both.set(chunk, text.length);
      text = both;
      return text.length < HEAD && !text.includes(10);
    });
  const nl = text.indexOf(10);
  return new TextDecoder().decode(nl < 0 ? text : text.subarray(0, nl));
}
