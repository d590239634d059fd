// CSV as rankeval writes and reads back its own (RFC 4180). Input CSV is src/io/delimited.ts's byte
// scanner: sharing one reader would cost it its speed. Browser-safe.

/** A field, quoted where needed and when it starts with '#' (readers may skip comment lines). */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) || s.startsWith("#") ? `"${s.replace(/"/g, '""')}"` : s;
}

export interface CsvRecord {
  fields: string[];
  next: number;
  lines: number;
}

/**
 * The record at text[start]: its fields, the next's start and its line breaks; null when it may go on
 * (not `final`). A quote inside an unquoted field is data; a bad quote throws.
 */
export function csvRecord(text: string, start: number, final: boolean): CsvRecord | null {
  const fields: string[] = [];
  let i = start;
  const end = (next: number) => {
    let lines = 0;
    for (let k = text.indexOf("\n", start); k >= 0 && k < next; k = text.indexOf("\n", k + 1)) lines++;
    return { fields, next, lines };
  };
  for (;;) {
    let field = "";
    if (text[i] === '"') {
      for (i++; ; i++) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          if (final) throw new Error("a quoted field is not closed");
          return null;
        }
        field += text.slice(i, q);
        i = q + 1;
        if (text[i] !== '"') break;
        field += '"';
      }
    } else {
      let j = i;
      while (j < text.length && text[j] !== "," && text[j] !== "\n") j++;
      field = text.slice(i, j);
      if (text[j] !== ",") field = field.replace(/\r$/, "");
      i = j;
    }
    fields.push(field);
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text[i] === "\r") i++;
    if (i >= text.length) return final ? end(text.length) : null;
    if (text[i] === "\n") return end(i + 1);
    throw new Error("expected ',' or the end of the line after a quoted field");
  }
}

/** The records of a text from `start` (line `line`), blank lines skipped. */
export function* csvRecords(text: string, start = 0, line = 1): Generator<{ fields: string[]; line: number }> {
  for (let i = start; i < text.length; ) {
    let r;
    try {
      r = csvRecord(text, i, true)!;
    } catch (e) {
      throw new Error(`line ${line}: ${(e as Error).message}`);
    }
    if (r.fields.length > 1 || r.fields[0] !== "") yield { fields: r.fields, line };
    line += r.lines;
    i = r.next;
  }
}
