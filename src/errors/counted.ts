// The one way messages and reports count things: "1 query", "2 queries" (not "1 queries").

/** `n` and the noun in agreement with it: counted(1, "query", "queries") is "1 query". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Of a count's verb: `1 query is`, `2 queries are`. */
export function isAre(n: number): string {
  return n === 1 ? "is" : "are";
}
