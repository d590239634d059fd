// Builds the page as one HTML file (web/vite.config.ts: its script, style, workers and kernel inline)
// into dist/rankeval.html, which the package ships and `rankeval --page [FILE]` copies. After
// scripts/build.mjs, which empties dist/.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const root = new URL("..", import.meta.url);
const result = await build({
  configFile: fileURLToPath(new URL("web/vite.config.ts", root)),
  logLevel: "warn",
  build: { write: false },
});
const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
if (outputs.length !== 1 || outputs[0].type !== "asset" || !outputs[0].fileName.endsWith(".html"))
  throw new Error(`the page's build wrote ${outputs.map((o) => o.fileName).join(", ")}, not one HTML file`);
writeFileSync(new URL("dist/rankeval.html", root), outputs[0].source);
