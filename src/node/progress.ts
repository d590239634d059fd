/**
 * Progress on a terminal: file, bytes read, speed and time left, on one line of stderr rewritten at
 * most four times a second. Silent when stderr is not a terminal or the file is small, so pipes and
 * logs stay clean.
 */
export class Progress {
  private name = "";
  private total = 0;
  private started = 0;
  private shown = 0;
  private visible = false;

  constructor(
    private readonly out: { write(s: string): unknown; isTTY?: boolean },
    private readonly minBytes = 64 * 1024 ** 2,
  ) {}

  start(name: string, totalBytes: number): void {
    this.name = name;
    this.total = totalBytes;
    this.started = this.shown = Date.now();
  }

  update(bytes: number): void {
    if (!this.out.isTTY || this.total < this.minBytes) return;
    const now = Date.now();
    if (now - this.shown < 250) return;
    this.shown = now;
    const seconds = (now - this.started) / 1000;
    const rate = bytes / Math.max(seconds, 1e-3);
    const left = this.total > bytes ? (this.total - bytes) / rate : 0;
    const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`;
    this.out.write(`\r\x1b[K${this.name}: ${mb(bytes)} of ${mb(this.total)}, ${mb(rate)}/s, ${left.toFixed(0)} s left`);
    this.visible = true;
  }

  done(): void {
    if (this.visible) this.out.write("\r\x1b[K");
    this.visible = false;
  }
}
