// Magic numbers telling a file's kind (src/input/formats.ts's decideFormat decides with them).

const bytesAre = (b: Uint8Array, at: number, magic: readonly number[]) =>
  at >= 0 && b.length >= at + magic.length && magic.every((x, i) => b[at + i] === x);
const PAR1 = [0x50, 0x41, 0x52, 0x31];
const ARROW1 = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31];
const STREAM = [0xff, 0xff, 0xff, 0xff];

export type Magic = "gzip" | "parquet" | "arrow-file" | "arrow-stream";

/** A file's kind from its first bytes. */
export function magicOf(head: Uint8Array): Magic | null {
  if (bytesAre(head, 0, [0x1f, 0x8b])) return "gzip";
  if (bytesAre(head, 0, PAR1)) return "parquet";
  if (bytesAre(head, 0, ARROW1)) return "arrow-file";
  return bytesAre(head, 0, STREAM) ? "arrow-stream" : null;
}

/** Whether a file's last bytes end what its first began (an Arrow stream: its end-of-stream marker). */
export function endsAsBegun(magic: Magic | null, tail: Uint8Array): boolean {
  const end = (m: readonly number[]) => bytesAre(tail, tail.length - m.length, m);
  if (magic === "parquet") return end(PAR1);
  if (magic === "arrow-file") return end(ARROW1);
  return magic === "arrow-stream" && end([0, 0, 0, 0]);
}
