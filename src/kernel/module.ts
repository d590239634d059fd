/**
 * The kernel's WebAssembly module (assembly/, embedded at build time), compiled once per process (or
 * page, or worker) and shared by every instance: the evaluation kernel's (kernel.ts) and the
 * resampling kernel's (compare.ts). Browser-safe.
 */
import { KERNEL_WASM_BASE64 } from "./wasm.generated.js";

let compiled: WebAssembly.Module | undefined;

/**
 * The module. A page's Content-Security-Policy may forbid compiling WebAssembly: CSP Level 3 allows
 * it with 'wasm-unsafe-eval' in script-src, and browsers name only 'unsafe-eval' (which allows far
 * more) in their errors: so this one says what to add.
 */
export function kernelModule(): WebAssembly.Module {
  if (compiled) return compiled;
  try {
    compiled = new WebAssembly.Module(decodeBase64(KERNEL_WASM_BASE64));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!/CSP|Content.Security.Policy|unsafe-eval/i.test(message)) throw e;
    throw new Error(
      `rankeval: the page's Content-Security-Policy does not allow WebAssembly, which rankeval computes with: add 'wasm-unsafe-eval' to its script-src (${message})`,
      { cause: e },
    );
  }
  return compiled;
}

/** Node's Buffer, where there is one: it decodes base64 natively, several times faster than atob and a loop. */
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: "base64"): Uint8Array } }).Buffer;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  if (NodeBuffer) {
    const b = NodeBuffer.from(text, "base64");
    return new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
