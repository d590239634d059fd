// A reader of the YAML rankeval writes (src/app/manifest.ts), for the tests: no YAML dependency.

/**
 * YAML's block style as src/app/manifest.ts writes it (mappings, sequences, JSON-quoted strings,
 * numbers, [], {}): enough to read the manifest back, and to fail on anything else.
 */
export function readYaml(text: string): unknown {
  const lines = text.split("\n").filter((l) => l !== "");
  let at = 0;
  const indentOf = (l: string) => l.length - l.trimStart().length;
  const scalar = (s: string): unknown => {
    if (s === "[]") return [];
    if (s === "{}") return {};
    if (s === "null" || s === "true" || s === "false" || /^-?\d/.test(s) || s.startsWith('"')) return JSON.parse(s);
    throw new Error(`not a scalar the manifest writes: ${s}`);
  };
  const block = (indent: number): unknown => {
    if (lines[at].slice(indent).startsWith("- ")) {
      const items: unknown[] = [];
      while (at < lines.length && indentOf(lines[at]) === indent && lines[at].slice(indent).startsWith("- ")) {
        const rest = lines[at].slice(indent + 2);
        if (/^("[^"]*"|[A-Za-z_]\w*): /.test(rest) || /^("[^"]*"|[A-Za-z_]\w*):$/.test(rest)) {
          // A mapping starting on the dash's line: read as if the dash were a space.
          lines[at] = `${" ".repeat(indent + 2)}${rest}`;
          items.push(block(indent + 2));
        } else {
          items.push(scalar(rest));
          at++;
        }
      }
      return items;
    }
    const map: Record<string, unknown> = {};
    while (at < lines.length && indentOf(lines[at]) === indent && !lines[at].slice(indent).startsWith("- ")) {
      const m = /^("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*):( (.*))?$/.exec(lines[at].slice(indent));
      if (!m) throw new Error(`not a key: ${lines[at]}`);
      const key = m[1].startsWith('"') ? JSON.parse(m[1]) : m[1];
      at++;
      map[key] = m[3] !== undefined ? scalar(m[3]) : block(indentOf(lines[at]));
    }
    return map;
  };
  const doc = block(0);
  if (at !== lines.length) throw new Error(`left unread: ${lines[at]}`);
  return doc;
}
