// The manifest's File descriptions, hashed by Sha256 (crypto.subtle.digest wants the whole file) after
// the evaluation's reads (read-file.ts).
import type { ManifestInput } from "../src/app/manifest.js";
import { formatRead } from "../src/input/formats.js";
import { Sha256 } from "../src/io/sha256.js";
import { columnarFormat } from "./file-columns.js";
import { concat, gunzippedHead, isGzip } from "./read-file.js";
import { BY_NAME } from "./text-files.js";

/** Bytes read for the first line (a .tsv's format depends on it). */
const HEAD = 1 << 16;

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

async function firstLine(file: File, gzip: boolean): Promise<string> {
  let text: Uint8Array = new Uint8Array(0);
  if (!gzip) text = new Uint8Array(await file.slice(0, HEAD).arrayBuffer());
  else
    await gunzippedHead(file.slice(0, HEAD), (chunk) => {
      text = concat(text, chunk);
      return text.length < HEAD && !text.includes(10);
    });
  const nl = text.indexOf(10);
  return new TextDecoder().decode(nl < 0 ? text : text.subarray(0, nl));
}
