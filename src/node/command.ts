// The installed command's process (bin.ts starts it). main() (cli.ts) turns every error into one
// line and an exit status; here, what only the process can see: a closed standard output, and errors
// nothing caught.
import { EXIT, internalErrorLine, main } from "./cli.js";

/**
 * Standard output closed by its reader (`rankeval ... | head -1`): stop at once and quietly, killed by
 * SIGPIPE as cat or grep are (the shell reports 141). Node ignores SIGPIPE; removing the last listener
 * of a signal gives it back its default action, which the kill then takes. Any other write error
 * (a full disk) is one line and EXIT.output.
 */
function onOutputError(e: NodeJS.ErrnoException): void {
  if (e.code === "EPIPE") {
    const none = () => {};
    process.on("SIGPIPE", none);
    process.removeListener("SIGPIPE", none);
    process.kill(process.pid, "SIGPIPE");
    // Where the signal could not end the process, the status a shell gives to one it ended.
    setTimeout(() => process.exit(128 + 13), 100);
    return;
  }
  try {
    process.stderr.write(`rankeval: cannot write the output: ${e.code ?? e.message}\n`);
  } finally {
    process.exit(EXIT.output);
  }
}
/** Runs the command line of this process (`argv`: its arguments) and sets its exit status. */
export async function runCommand(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.stdout.on("error", onOutputError);
  // Nothing useful to say where stderr itself is closed.
  process.stderr.on("error", () => process.exit(EXIT.output));

  // Errors main() could not catch (in a callback, a stream): one line, never Node's stack trace.
  const fatal = (e: unknown) => {
    process.stderr.write(`${internalErrorLine(e)}\n`);
    process.exit(EXIT.internal);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);

  process.exitCode = await main(argv, { stdout: process.stdout, stderr: process.stderr });
}
