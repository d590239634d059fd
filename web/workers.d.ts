// vite.config.ts's workerScript: web/worker-roles.ts built into one classic script, as text.
declare module "virtual:rankeval-worker-script" {
  const script: string;
  export default script;
}

/** package.json's version (vite.config.ts's define). */
declare const __RANKEVAL_VERSION__: string;
