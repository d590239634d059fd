// The static page: `npm run web` serves it, `npm run build:web` writes it to dist-web/.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "./",
  build: { outDir: fileURLToPath(new URL("../dist-web", import.meta.url)), emptyOutDir: true },
  worker: { format: "es" },
});
