// rankeval --page [FILE]: the web page, built as one HTML file into dist/rankeval.html (npm run build:
// scripts/build-page.mjs), copied where the user wants it: a package user's way to the page.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RankevalError } from "../errors/errors.js";
import type { Io } from "./cli.js";

/** The built page: dist/rankeval.html from dist/node/ (the package) and from src/node/ (the repository) alike. */
const PAGE = new URL("../../dist/rankeval.html", import.meta.url);

/** Writes the page to `file` ("-": standard output) and says where it is. */
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
