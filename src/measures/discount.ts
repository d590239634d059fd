/** discount[i] = 1 / log2(i + 1), rank i >= 1; shared by the kernel and the reference so both sum the same doubles. */
let table = new Float64Array(0);

export function discountTable(maxRank: number): Float64Array {
  if (table.length <= maxRank) {
    const t = new Float64Array(Math.max(maxRank + 1, table.length * 2, 1024));
    for (let i = 1; i < t.length; i++) t[i] = 1 / Math.log2(i + 1);
    table = t;
  }
  return table;
}
