// The installed command's process (bin.ts starts it): a closed standard output, errors nothing caught.
import { fstatSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { EXIT, internalErrorLine, main, type Io } from "./cli.js";

/**
 * Standard output closed by its reader (`| head -1`): killed by SIGPIPE as cat is (Node ignores it
 * while a listener is set). Any other write error (a full disk) is one line and EXIT.output.
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
/**
 * Standard output and error: a file or a terminal written synchronously; the stream a pipe needs (3 ms
 * to load) made only for a pipe, or when a write would block; standard error when first written to.
 */
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
          // A terminal someone made non-blocking: the stream waits for it, for this and the rest.
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
        // Nothing useful to say where stderr itself is closed.
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

/** Whether `fd` is a file or a device (a terminal, /dev/null): not a pipe or a socket. */
function writesDirectly(fd: number): boolean {
  try {
    const s = fstatSync(fd);
    return s.isFile() || s.isCharacterDevice();
  } catch {
    return false; // closed: the stream says so
  }
}

/** Runs the command line of this process (`argv`: its arguments) and sets its exit status. */
export async function runCommand(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const io = processIo();

  // Errors main() could not catch (in a callback, a stream): one line, never Node's stack trace.
  const fatal = (e: unknown) => {
    io.stderr.write(`${internalErrorLine(e)}\n`);
    process.exit(EXIT.internal);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);

  process.exitCode = await main(argv, io);
}
