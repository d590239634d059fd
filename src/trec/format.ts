/**
 * trec_eval's printf formats, reproduced byte for byte (meas_print_single.c, meas_print_final.c):
 *
 *   float measures   printf("%-22s\t%s\t%6.4f\n", name, qid, value)
 *   long measures    printf("%-22s\t%s\t%ld\n",   name, qid, (long) value)
 *   runid            printf("%-22s\t%s\t%s\n",    name, "all", run_tag)
 *   relstring        printf("%-22s\t%s\t'%s'\n",  name, qid, string)
 *
 * `%6.4f` is glibc's: the exact decimal value of the binary double rounded to 4 places, an exact
 * tie going to the even digit (the default rounding mode), right-aligned in 6 columns. Every other
 * output prints its numbers by the same arithmetic (`fixed`, `signed`), so a mean has one spelling
 * wherever it is shown. Browser-safe: no Node built-ins.
 */

import { formatFixed, formatLong } from "../c/printf.js";

/** `%6.4f`, the value column of every floating-point measure. */
export function formatFixed4(x: number): string {
  return formatFixed(x, 4, 6);
}

/**
 * `%W.Df` of a value trec_eval or ndeval computed: their NaN comes from 0/0, x86's default NaN, whose
 * sign bit is set, so glibc prints "-nan". rankeval's NaN may have either sign (WebAssembly and
 * JavaScript do not fix it): every trec_eval-format output spells it here.
 */
export function formatTrecFixed(x: number, digits: number, width = 0): string {
  return Number.isNaN(x) ? "-nan".padStart(width) : formatFixed(x, digits, width);
}

/**
 * A measure's value, a mean, a difference, an interval bound or an effect size as every readable
 * output prints it (tables, comparisons, the report, the page): `%.Df` of the exact double, the
 * evaluation's own digits (0.28125 is "0.2812" everywhere, where toFixed says "0.2813"); NaN as
 * "NaN", the infinities as glibc's "inf" and "-inf".
 */
export function fixed(x: number, digits = 4): string {
  return Number.isNaN(x) ? "NaN" : formatFixed(x, digits);
}

/** `fixed` with a "+" before a positive finite value: a difference, a relative change. */
export function signed(x: number, digits = 4): string {
  const text = fixed(x, digits);
  return x > 0 && Number.isFinite(x) ? `+${text}` : text;
}

/** `%-22s`. */
export function padName(name: string): string {
  return name.padEnd(22);
}

export type TrecPrint = "float" | "long" | "string" | "quoted";

/** One output line, newline included, as trec_eval prints it. */
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
