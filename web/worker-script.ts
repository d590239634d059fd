// The page's one worker script (web/worker-roles.ts, built into the page once by vite.config.ts) and the
// roles it starts in: the page's worker, a run's reader, a partition worker, told apart by the name.
export type WorkerRole = "page" | "run-reader" | "partition";

/**
 * Where this context starts workers: a blob URL of the script made here, as an opaque origin's ('null',
 * opened from disk) blob URLs start no worker elsewhere, not even in its own workers.
 */
let scriptUrl: string | undefined;

/** Keeps `script` (the page's Blob of it) for the workers started here; kept for the context's life. */
export function keepWorkerScript(script: Blob): void {
  scriptUrl ??= URL.createObjectURL(script);
}

/** A new worker in `role`; throws a reader's error where the browser starts none. */
export function startWorker(role: WorkerRole): Worker {
  if (scriptUrl === undefined) throw new Error(`no worker script to start a ${role} worker from`);
  try {
    return new Worker(scriptUrl, { name: role });
  } catch (err) {
    throw new Error(
      `this browser could not start the page's worker (${err instanceof Error ? err.message : String(err)}); the command line evaluates the same files`,
    );
  }
}
