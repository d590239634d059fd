/** counted(1, "query", "queries") is "1 query". */
export function counted(n: number, one: string, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

export function isAre(n: number) {
  return n === 1 ? "is" : "are";
}
