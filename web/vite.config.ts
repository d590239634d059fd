// The static page: `npm run web` serves it, `npm run build:web` writes it to dist-web/index.html, and
// `npm run build` to dist/rankeval.html (scripts/build-page.mjs), the file `rankeval --page` copies.
// Built as one HTML file: its script and style inline, its workers inlined into the script (main.ts and
// worker.ts import them with `?worker&inline`, started from blob URLs as classic workers) and the kernel
// embedded as it always is (src/kernel/wasm.generated.ts). So the same file works from any static host,
// from a local server and opened from disk, where the page's origin is 'null' and Chromium refuses a
// module worker's URL and any script fetched from the file system.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/** Inside an inline <script>, `</script` would end it: `<\/script` is the same text to JavaScript. */
const scriptSafe = (code: string) => code.replace(/<\/(script)/gi, "<\\/$1");

/** The page's bundled script and style sheet moved into its HTML, so the build writes that file alone. */
function oneFile(): Plugin {
  return {
    name: "rankeval-one-file",
    apply: "build",
    enforce: "post",
    generateBundle(_, bundle) {
      const html = Object.values(bundle).find((o) => o.type === "asset" && o.fileName.endsWith(".html"));
      if (html?.type !== "asset") throw new Error("the page's build wrote no HTML");
      // Chunks of dynamic imports that tree-shaking took away (Rolldown writes them even without code
      // splitting): no code names them.
      const code = Object.values(bundle).map((o) => (o.type === "chunk" ? o.code : ""));
      for (const [name, o] of Object.entries(bundle))
        if (o.type === "chunk" && !o.isEntry && !code.some((c) => c.includes(name.replace(/^.*\//, ""))))
          delete bundle[name];
      // A function replaces, so that `$&` and the like in the code are not read as patterns.
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
  JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")) as { version: string }
).version;

export default defineConfig({
  root,
  base: "./",
  build: {
    outDir: fileURLToPath(new URL("../dist-web", import.meta.url)),
    emptyOutDir: true,
    // One script: the lazy chunks (Parquet and Arrow readers) inlined, no preload helper.
    modulePreload: false,
    cssCodeSplit: false,
    assetsInlineLimit: Number.POSITIVE_INFINITY,
    // Bundling the workers is most of the build's time, which Rolldown would print as a warning.
    rolldownOptions: { output: { codeSplitting: false }, checks: { bundlerTimings: false } },
  },
  // Classic workers, each one script (their dynamic imports inlined): started from a blob URL, which a
  // page with origin 'null' may do.
  worker: { format: "iife" },
  // The version the page's manifest names.
  define: { __RANKEVAL_VERSION__: JSON.stringify(packageVersion) },
  plugins: [oneFile()],
});
