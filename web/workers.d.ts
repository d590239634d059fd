// Vite's `?worker&inline` imports: the worker's constructor.
declare module "*?worker&inline" {
  const WorkerConstructor: new (options?: { name?: string }) => Worker;
  export default WorkerConstructor;
}

/** package.json's version (vite.config.ts's define). */
declare const __RANKEVAL_VERSION__: string;
