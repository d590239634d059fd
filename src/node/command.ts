// The installed command's process: a closed stdout, errors nothing caught.
import { fstatSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { EXIT, internalErrorLine, main, type Io } from "./cli.js";

/** stdout closed by its reader (`| head -1`): killed by SIGPIPE as cat is; other write errors: EXIT.output. */
function onOutputError(e: NodeJS.ErrnoException): void {
  if (e.code === "EPIPE") {
    const none = () => {};
    process.on("SIGPIPE", none);
    process.removeListener("SIGPIPE", none);
    process.kill(process.pid, "SIGPIPE");
    // If the signal did not end it, the shell's status for one it did.
    setTimeout(() => process.exit(128 + 13), 100);
    return;
  }
  try {
    process.stderr.write(`rankeval: cannot write the output: ${e.code ?? e.message}\n`);
  } finally {
    process.exit(EXIT.output);
  }
}
/** stdout and stderr: files and terminals written synchronously; a pipe's stream (3 ms to load) made only when needed. */
function processIo(): Io {
  let direct: boolean | undefined;
  let out: NodeJS.WriteStream | undefined;
  let err: NodeJS.WriteStream | undefined;
  const stream = () => {
    if (!out) (out = process.stdout).on("error", onOutputError);
    return out;
  };
  return {
    stdout: {
      write(s: string | Uint8Array) {
        direct ??= writesDirectly(1);
        if (!direct) return stream().write(s);
        const bytes = typeof s === "string" ? Buffer.from(s) : s;
        let at = 0;
        try {
          while (at < bytes.length) at += writeSync(1, bytes, at);
        } catch (e) {
          // A terminal made non-blocking: the stream waits for it from here on.
          if ((e as NodeJS.ErrnoException).code !== "EAGAIN") {
            onOutputError(e as NodeJS.ErrnoException);
            return false;
          }
          direct = false;
          return stream().write(bytes.subarray(at));
        }
        return true;
      },
    },
    stderr: {
      write(s: string) {
        if (!err) (err = process.stderr).on("error", () => process.exit(EXIT.output));
        return err.write(s);
      },
      get isTTY() {
        return isTerminal(2);
      },
    },
  };
}

const terminals = new Map<number, boolean>();

/** Whether `fd` is a terminal; node:tty (slow to load) only for a character device. */
function isTerminal(fd: number): boolean {
  let yes = terminals.get(fd);
  if (yes === undefined) {
    let device = false;
    try {
      device = fstatSync(fd).isCharacterDevice();
    } catch {
      // closed
    }
    yes = device && (createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(fd);
    terminals.set(fd, yes);
  }
  return yes;
}

/** Whether `fd` is a file or a device, not a pipe or a socket. */
function writesDirectly(fd: number): boolean {
  try {
    const s = fstatSync(fd);
    return s.isFile() || s.isCharacterDevice();
  } catch {
    return false; // closed: the stream says so
  }
}

/** Runs this process's command line and sets its exit status. */
export async function runCommand(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const io = processIo();

  // Errors main() could not catch: one line, never a stack trace.
  const fatal = (e: unknown) => {
    io.stderr.write(`${internalErrorLine(e)}\n`);
    process.exit(EXIT.internal);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);

  process.exitCode = await main(argv, io);
}
