// The page as one HTML file (also dist/rankeval.html, for `rankeval --page`): script, style and workers
// (`?worker&inline`: classic, blob URLs) inline, for disk, where the origin is 'null' and Chromium refuses
// module workers' URLs and file-system scripts.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/** `</script` would end an inline <script>; `<\/script` is the same to JavaScript. */
const scriptSafe = (code: string) => code.replace(/<\/(script)/gi, "<\\/$1");

/** Moves the bundled script and style into the HTML, the build's one file. */
function oneFile(): Plugin {
  return {
    name: "rankeval-one-file",
    apply: "build",
    enforce: "post",
    generateBundle(_, bundle) {
      const html = Object.values(bundle).find((o) => o.type === "asset" && o.fileName.endsWith(".html"));
      if (html?.type !== "asset") throw new Error("the page's build wrote no HTML");
      // Chunks no code names: Rolldown writes tree-shaken dynamic imports even without code splitting.
      const code = Object.values(bundle).map((o) => (o.type === "chunk" ? o.code : ""));
      for (const [name, o] of Object.entries(bundle))
        if (o.type === "chunk" && !o.isEntry && !code.some((c) => c.includes(name.replace(/^.*\//, ""))))
          delete bundle[name];
      // A function, so `$&` in the code is no pattern.
      html.source = String(html.source).replace(
        /<script[^>]*\ssrc="\.\/([^"]+)"[^>]*><\/script>|<link[^>]*\shref="\.\/([^"]+)"[^>]*>/g,
        (tag, script?: string, sheet?: string) => {
          const name = (script ?? sheet)!;
          const o = bundle[name];
          if (!o) throw new Error(`the page's HTML names ${name}, which its build did not write: ${tag}`);
          delete bundle[name];
          if (o.type === "chunk") return `<script type="module">${scriptSafe(o.code)}</script>`;
          return `<style>${String(o.source)}</style>`;
        },
      );
      const left = Object.keys(bundle).filter((name) => bundle[name] !== html);
      if (left.length) throw new Error(`the page's build wrote ${left.join(", ")}, which its HTML does not name`);
    },
  };
}

const packageVersion = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

export default defineConfig({
  root,
  base: "./",
  build: {
    outDir: fileURLToPath(new URL("../dist-web", import.meta.url)),
    emptyOutDir: true,
    // One script: lazy chunks inlined, no preload helper.
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: Number.POSITIVE_INFINITY,
    // Bundling workers is most of the build: no Rolldown timing warning.
    rolldownOptions: { output: { codeSplitting: false }, checks: { bundlerTimings: false } },
  },
  // Classic, one script each: startable from a blob URL at origin 'null'.
  worker: { format: "iife" },
  define: { __RANKEVAL_VERSION__: JSON.stringify(packageVersion) },
  plugins: [oneFile()],
});
