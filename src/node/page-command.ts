// rankeval --page [FILE]: the built web page (dist/rankeval.html) copied where the user wants it.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RankevalError } from "../errors/errors.js";
import type { Io } from "./cli.js";

/** dist/rankeval.html, from dist/node/ and src/node/ alike. */
const PAGE = new URL("../../dist/rankeval.html", import.meta.url);

export function pageMode(file: string, io: Io): number {
  let html: Buffer;
  try {
    html = readFileSync(PAGE);
  } catch {
    throw new RankevalError("bad-input", `the page is not built (${PAGE.pathname}): npm run build writes it`);
  }
  if (file === "-") {
    io.stdout.write(html.toString("utf8"));
    return 0;
  }
  try {
    writeFileSync(file, html);
  } catch (e) {
    throw new RankevalError(
      "bad-input",
      `--page ${file}: cannot write it (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const size = `${(html.length / 1e6).toFixed(1)} MB`;
  io.stderr.write(
    `rankeval: wrote ${file} (${size}): open it in a browser (${pathToFileURL(resolve(file)).href}), or put it on any ` +
      "web server; it reads the files you choose where it runs, never uploading them\n",
  );
  return 0;
}
