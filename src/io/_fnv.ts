/**
 * FNV-1a, 32-bit: the hash the interner keys its table with. The parsers fold it into the loop that
 * finds the end of an id field (`h = fnvStep(h, byte)` from `FNV_OFFSET`), so the id's bytes are read once.
 */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 16777619;

/** FNV-1a over buf[start, end), as a signed 32-bit integer. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], FNV_PRIME);
  return h;
}
