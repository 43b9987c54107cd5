/**
 * Counts a connection's sends in fixed windows (Discord: 120 per 60 s, facts §10).
 * Pure apart from the clock it is given.
 */
export class SendWindow {
  private windowStart = 0;
  private count = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records one send at `now`; false when it is over the limit. */
  allow(now: number): boolean {
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count += 1;
    return this.count <= this.limit;
  }
}
