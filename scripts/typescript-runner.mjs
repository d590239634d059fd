// The repository's TypeScript modules (src/, test/) loaded from source by a script, without a build:
// Vite's module runner, as vitest loads them. close() when done.
import { fileURLToPath } from "node:url";
import { createServer, createServerModuleRunner } from "vite";

export async function typescriptRunner() {
  const server = await createServer({
    configFile: false,
    root: fileURLToPath(new URL("..", import.meta.url)),
    logLevel: "error",
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: "custom",
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  return {
    /** A module by its path from the repository's root ("/src/node/cli.ts"). */
    import: (path) => runner.import(path),
    close: async () => {
      await runner.close();
      await server.close();
    },
  };
}
