/**
 * trec_eval's printf formats, byte for byte (meas_print_single.c, meas_print_final.c): "%-22s\t%s\t"
 * then %6.4f, %ld, %s or '%s'. glibc's %6.4f rounds the exact double, ties to even; every other output
 * uses the same arithmetic (`fixed`), so a mean has one spelling everywhere. Browser-safe.
 */

import { formatFixed, formatLong } from "../c/printf.js";

/** `%6.4f`. */
export function formatFixed4(x: number): string {
  return formatFixed(x, 4, 6);
}

/** `%W.Df` as trec_eval prints: its NaN is x86's 0/0, sign set, so "-nan" (ours may have either sign). */
export function formatTrecFixed(x: number, digits: number, width = 0): string {
  return Number.isNaN(x) ? "-nan".padStart(width) : formatFixed(x, digits, width);
}

/**
 * A number as every readable output prints it: `%.Df` of the exact double (0.28125 is "0.2812", where
 * toFixed says "0.2813"); "NaN", "inf", "-inf".
 */
export function fixed(x: number, digits = 4): string {
  return Number.isNaN(x) ? "NaN" : formatFixed(x, digits);
}

/** `fixed`, "+" before a positive finite value. */
export function signed(x: number, digits = 4): string {
  const text = fixed(x, digits);
  return x > 0 && Number.isFinite(x) ? `+${text}` : text;
}

/** `%-22s`. */
export function padName(name: string): string {
  return name.padEnd(22);
}

export type TrecPrint = "float" | "long" | "string" | "quoted";

/** One trec_eval output line, newline included. */
export function formatLine(name: string, qid: string, value: number | string, print: TrecPrint): string {
  const text =
    print === "float"
      ? formatTrecFixed(value as number, 4, 6)
      : print === "long"
        ? formatLong(value as number)
        : print === "quoted"
          ? `'${value}'`
          : String(value);
  return `${padName(name)}\t${qid}\t${text}\n`;
}
