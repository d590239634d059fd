// The page as one HTML file (also dist/rankeval.html, for `rankeval --page`): script, style and worker
// script inline, for disk, where the origin is 'null' and Chromium refuses module workers' URLs and
// file-system scripts. One classic worker script for all three roles (web/worker-roles.ts), as text in the
// page's script, started from blob URLs: `?worker&inline` bundled each worker apart, a worker started
// by a worker inside that one's text twice (its blob's and its data: URL's), 2.3 MB in all.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, defineConfig, type Plugin, type ResolvedConfig } from "vite";

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

const WORKER_SCRIPT = "virtual:rankeval-worker-script";

/** `virtual:rankeval-worker-script`: web/worker-roles.ts bundled into one classic script, its text. */
function workerScript(define: Record<string, string>): Plugin {
  let minify: ResolvedConfig["build"]["minify"] = true;
  /** The script's modules: an edit to one in `npm run web` builds it again. */
  let modules = new Set<string>();
  return {
    name: "rankeval-worker-script",
    configResolved(config) {
      minify = config.build.minify;
    },
    resolveId: (source) => (source === WORKER_SCRIPT ? `\0${WORKER_SCRIPT}` : undefined),
    async load(id) {
      if (id !== `\0${WORKER_SCRIPT}`) return;
      const result = await build({
        configFile: false,
        root,
        publicDir: false,
        logLevel: "warn",
        define,
        build: {
          write: false,
          minify,
          reportCompressedSize: false,
          // A library's build: no module preload helper, which needs import.meta.
          lib: {
            entry: fileURLToPath(new URL("worker-roles.ts", import.meta.url)),
            formats: ["iife"],
            name: "rankevalWorkers",
          },
          rolldownOptions: { checks: { bundlerTimings: false } },
        },
      });
      const chunks = (Array.isArray(result) ? result : [result as Exclude<typeof result, { close: unknown }>])
        .flatMap((r) => r.output)
        .filter((o) => o.type === "chunk");
      if (chunks.length !== 1) throw new Error(`the worker script's build wrote ${chunks.length} scripts, not one`);
      modules = new Set(chunks[0].moduleIds);
      return `export default ${JSON.stringify(chunks[0].code)};`;
    },
    configureServer(server) {
      server.watcher.on("change", (file) => {
        if (!modules.has(file)) return;
        const script = server.moduleGraph.getModuleById(`\0${WORKER_SCRIPT}`);
        if (script) server.moduleGraph.invalidateModule(script);
        server.ws.send({ type: "full-reload" });
      });
    },
  };
}

const packageVersion = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

const define = { __RANKEVAL_VERSION__: JSON.stringify(packageVersion) };

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
    // Bundling the worker script is most of the build: no Rolldown timing warning.
    rolldownOptions: { output: { codeSplitting: false }, checks: { bundlerTimings: false } },
  },
  define,
  plugins: [workerScript(define), oneFile()],
});
