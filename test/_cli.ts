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
  const status = await main([...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { status, stdout, stderr };
}
