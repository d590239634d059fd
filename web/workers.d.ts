// Vite's `?worker&inline` imports (the page's workers, inlined into the one-file page): a constructor
// of the worker, whose script the build bundles into the importer as a string.
declare module "*?worker&inline" {
  const WorkerConstructor: new (options?: { name?: string }) => Worker;
  export default WorkerConstructor;
}

/** package.json's version, set by the build (web/vite.config.ts's define). */
declare const __RANKEVAL_VERSION__: string;
