/**
 * A step run over and over: `pollMs` after the previous run ended, or at once when kicked (a
 * kick during a run makes the next run follow at once). One run at a time.
 */
export class PollLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private kicked = false;
  stopped = false;

  constructor(
    private readonly step: () => Promise<void>,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Runs the step again as soon as it is free. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.kicked = true;
    else this.schedule(0);
  }

  /** Stops, and waits for a run under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), ms);
  }

  private run(): void {
    this.timer = undefined;
    this.running = this.step().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      this.schedule(this.kicked ? 0 : this.pollMs);
      this.kicked = false;
    });
  }
}
