/**
 * Runs CPU-heavy request work (decoding a large body) one job per turn of the event loop,
 * taking turns between clients. The event loop serves other I/O between two jobs, so a
 * request that needs no such work waits behind at most one job at each of its steps,
 * however many large bodies other clients send at once; and a client flooding the queue
 * delays another client's large body by at most one job per round.
 */
export class FairWorkQueue {
  /** Waiting jobs by client, in the order the clients take their turns. */
  private readonly pending = new Map<string, (() => void)[]>();
  private scheduled = false;

  /** Runs `job` in `client`'s turn; resolves with its result, or rejects with what it threw. */
  run<T>(client: string, job: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const jobs = this.pending.get(client) ?? [];
      jobs.push(() => {
        try {
          resolve(job());
        } catch (error) {
          reject(error);
        }
      });
      this.pending.set(client, jobs);
      this.schedule();
    });
  }

  /** Jobs waiting (for tests and metrics). */
  get size(): number {
    let size = 0;
    for (const jobs of this.pending.values()) size += jobs.length;
    return size;
  }

  // An immediate queued from an immediate runs on the next turn, after that turn's I/O.
  private schedule(): void {
    if (this.scheduled || this.pending.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.runNext();
      this.schedule();
    });
  }

  private runNext(): void {
    const first = this.pending.entries().next();
    if (first.done) return;
    const [client, jobs] = first.value;
    this.pending.delete(client);
    const job = jobs.shift();
    // A client with more to do goes to the back of the round.
    if (jobs.length > 0) this.pending.set(client, jobs);
    job?.();
  }
}
