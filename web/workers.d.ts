// Vite's `?worker&inline` imports (the page's workers, inlined into the one-file page): a constructor
// of the worker, whose script the build bundles into the importer as a string.
declare module "*?worker&inline" {
  const WorkerConstructor: new (options?: { name?: string }) => Worker;
  export default WorkerConstructor;
}
