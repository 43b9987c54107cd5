import type { GatewayPayload } from './gateway-payload';

/**
 * The last dispatches of a session, kept so that a Resume can replay what the client
 * missed in order. Holds at most `capacity`; older ones are forgotten (resume then fails).
 */
export class ReplayBuffer {
  private readonly items: GatewayPayload[] = [];

  constructor(private readonly capacity: number) {}

  /** Keeps a dispatch (with its `s`). */
  push(dispatch: GatewayPayload): void {
    this.items.push(dispatch);
    if (this.items.length > this.capacity) this.items.shift();
  }

  /**
   * The dispatches after `seq`, in order; undefined when some of them were already
   * forgotten (or `seq` is ahead of what was sent), so that the session cannot resume.
   */
  after(seq: number, lastSeq: number): GatewayPayload[] | undefined {
    if (seq > lastSeq || seq < 0) return undefined;
    if (seq === lastSeq) return [];
    const first = this.items[0];
    if (!first || (first.s ?? 0) > seq + 1) return undefined;
    return this.items.filter((p) => (p.s ?? 0) > seq);
  }
}
