/**
 * Counts a replica's open gateway sockets per client address, and refuses one more
 * beyond `max` (0: no cap). Every `tryOpen` that returned true is matched by one
 * `close` when its socket ends.
 */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Counts a new socket from `address`; false (and not counted) when the address is at the cap. */
  tryOpen(address: string): boolean {
    const count = this.open.get(address) ?? 0;
    if (this.max > 0 && count >= this.max) return false;
    this.open.set(address, count + 1);
    return true;
  }

  /** A socket from `address` ended. */
  close(address: string): void {
    const count = (this.open.get(address) ?? 0) - 1;
    if (count > 0) this.open.set(address, count);
    else this.open.delete(address);
  }

  /** Open sockets from `address` (for tests and logs). */
  count(address: string): number {
    return this.open.get(address) ?? 0;
  }
}
