interface Reading {
  total: number;
  bytes: number;
  started: number;
}

/**
 * Progress on one line of a terminal's stderr, at most 4 times a second: large files' bytes, speed and
 * time left; runs done. Silent off a terminal, for small files and for runs' first half second.
 */
export class Progress {
  private readonly reading = new Map<string, Reading>();
  private last = "";
  /** Runs given (0: one run, no runs' line). */
  private runsTotal = 0;
  private runsDone = 0;
  private runsStarted = 0;
  private shown = 0;
  private visible = false;

  constructor(
    private readonly out: { write(s: string): unknown; isTTY?: boolean },
    private readonly minBytes = 64 * 1024 ** 2,
    private readonly now: () => number = Date.now,
  ) {}

  /** `totalBytes`: 0 if unknown. */
  start(name: string, totalBytes: number): void {
    const now = this.now();
    this.reading.set(name, { total: totalBytes, bytes: 0, started: now });
    this.last = name;
    if (!this.runsTotal && this.reading.size === 1) this.shown = now;
  }

  update(bytes: number, name = this.last): void {
    const r = this.reading.get(name);
    if (r) r.bytes = bytes;
    this.render();
  }

  /** The runs' line, if any, stays. */
  done(name = this.last): void {
    this.reading.delete(name);
    if (!this.runsTotal || this.runsDone >= this.runsTotal) this.clear();
  }

  /** From two runs on, the line says how many are done. */
  runsGiven(total: number): void {
    this.runsTotal = total > 1 ? total : 0;
    this.runsDone = 0;
    this.runsStarted = this.shown = this.now();
  }

  runs(done: number, total: number): void {
    if (total !== this.runsTotal) return;
    this.runsDone = done;
    if (done >= total) this.clear();
    else this.render();
  }

  /** Takes the line away (before other output); the next update draws it again. */
  clear(): void {
    if (this.visible) this.out.write("\r\x1b[K");
    this.visible = false;
  }

  private render(): void {
    if (!this.out.isTTY) return;
    const now = this.now();
    const files = [...this.reading].filter(([, r]) => r.total >= this.minBytes);
    if (!files.length && !this.runsTotal) return;
    if (now - this.shown < 250 || (this.runsTotal && now - this.runsStarted < 500)) return;
    this.shown = now;
    const mb = (n: number) => `${(n / 1024 ** 2).toFixed(0)} MB`;
    const parts: string[] = [];
    if (this.runsTotal) {
      const seconds = (now - this.runsStarted) / 1000;
      const left = this.runsDone > 0 ? ((this.runsTotal - this.runsDone) * seconds) / this.runsDone : NaN;
      parts.push(
        `${this.runsDone} of ${this.runsTotal} runs${Number.isNaN(left) ? "" : `, ${left.toFixed(0)} s left`}`,
      );
    }
    for (const [name, r] of files) {
      const rate = r.bytes / Math.max((now - r.started) / 1000, 1e-3);
      const left = r.total > r.bytes ? (r.total - r.bytes) / rate : 0;
      parts.push(`${name}: ${mb(r.bytes)} of ${mb(r.total)}, ${mb(rate)}/s, ${left.toFixed(0)} s left`);
    }
    this.out.write(`\r\x1b[K${parts.join("; ")}`);
    this.visible = true;
  }
}
