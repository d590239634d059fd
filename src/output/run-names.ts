/**
 * Names that tell runs apart where two share one: by their longer names where each has one and those
 * differ, else numbered as copies (`run.txt (2)`), past any name taken.
 */
export function namesApart(names: readonly string[], longer: readonly (string | undefined)[] = []): string[] {
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  const byLonger = new Map<string, string[]>();
  names.forEach((n, i) => {
    if (count.get(n)! > 1 && longer[i]) byLonger.set(n, [...(byLonger.get(n) ?? []), longer[i]!]);
  });
  const told = (n: string) => {
    const l = byLonger.get(n);
    return l !== undefined && l.length === count.get(n) && new Set(l).size === l.length;
  };
  const first = names.map((n, i) => (told(n) ? longer[i]! : n));
  const taken = new Set(first);
  const seen = new Set<string>();
  return first.map((n) => {
    if (!seen.has(n)) {
      seen.add(n);
      return n;
    }
    let k = 2;
    while (taken.has(`${n} (${k})`)) k++;
    taken.add(`${n} (${k})`);
    return `${n} (${k})`;
  });
}
