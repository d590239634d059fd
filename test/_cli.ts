// The command line run in this process (src/node/cli.ts main), its output kept.
import { main } from "../src/node/cli.js";

export interface CliOutput {
  status: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: readonly string[]): Promise<CliOutput> {
  let stdout = "";
  let stderr = "";
  const utf8 = new TextDecoder();
  const status = await main([...args], {
    // A fused run comes as bytes (src/node/fuse-command.ts).
    stdout: { write: (s: string | Uint8Array) => (stdout += typeof s === "string" ? s : utf8.decode(s)) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { status, stdout, stderr };
}
