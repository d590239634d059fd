// The web page built and served on 127.0.0.1, and Debian's chromium to open it: shared by the browser
// tests (test/web.test.ts), the browser benchmark (bench/web.bench.mjs) and the README's screenshot
// (scripts/screenshot.mjs). Downloading a browser is not possible here, so playwright-core drives the
// system's chromium (`apt-get install chromium`, as .ci/run does).
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { build } from "vite";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const root = new URL("..", import.meta.url).pathname;
const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/**
 * Builds the page into `outDir` and serves it on 127.0.0.1 (a free port), with the package as built
 * (npm run build) under /dist/, for pages that import the library. `viteBuild`: more of Vite's build
 * options (e.g. `{ minify: false }` for readable profiles).
 */
export async function servePage(outDir, viteBuild = {}) {
  await build({
    configFile: join(root, "web/vite.config.ts"),
    logLevel: "silent",
    build: { outDir, emptyOutDir: true, ...viteBuild },
  });
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const rel = normalize(path === "/" ? "/index.html" : path);
    const base = rel.startsWith("/dist/") ? root : outDir;
    const full = join(base, rel);
    if (!full.startsWith(base) || !existsSync(full) || !statSync(full).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": MIME[extname(full)] ?? "application/octet-stream" });
    createReadStream(full).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Debian's chromium, headless, through playwright-core. */
export function launchChromium(options = {}) {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, ...options });
}

/** The page built into `outDir` and served, and a chromium to open it (a browser test's set-up); close() ends both. */
export async function pageInChromium(outDir) {
  const site = await servePage(outDir);
  const browser = await launchChromium().catch(async (e) => {
    await site.close();
    throw e;
  });
  return {
    browser,
    url: site.url,
    close: async () => {
      await browser.close();
      await site.close();
    },
  };
}
