import { backoffDelay, DEFAULT_BACKOFF, retry, sleep } from '../src';

const fast = { initialMs: 10, maxMs: 40, factor: 2, jitter: 0 };

describe('backoffDelay', () => {
  it('doubles from 250 ms up to 5 s, adding at most 20 %', () => {
    const noJitter = { ...DEFAULT_BACKOFF, jitter: 0 };
    expect([1, 2, 3, 4, 5, 6, 10].map((n) => backoffDelay(n, noJitter))).toEqual([
      250, 500, 1000, 2000, 4000, 5000, 5000,
    ]);
    for (let i = 0; i < 50; i++) {
      const delay = backoffDelay(1);
      expect(delay).toBeGreaterThanOrEqual(250);
      expect(delay).toBeLessThanOrEqual(300);
    }
  });
});

describe('retry', () => {
  it('retries until the operation succeeds, reporting each wait', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await retry(
      async () => {
        calls++;
        if (calls < 4) throw new Error(`failure ${calls}`);
        return 'done';
      },
      { policy: fast, onRetry: (_error, { delayMs }) => waits.push(delayMs) },
    );
    expect(result).toBe('done');
    expect(waits).toEqual([10, 20, 40]);
  });

  it('starts from the shortest wait again after an attempt that progressed', async () => {
    const waits: number[] = [];
    let calls = 0;
    await retry(
      async (attempt) => {
        calls++;
        if (calls === 3) attempt.progressed();
        if (calls < 5) throw new Error('not yet');
      },
      { policy: fast, onRetry: (_error, { delayMs }) => waits.push(delayMs) },
    );
    expect(waits).toEqual([10, 20, 10, 20]);
  });

  it('rejects at once for errors it must not retry', async () => {
    let calls = 0;
    const fatal = new Error('fatal');
    await expect(
      retry(
        async () => {
          calls++;
          throw fatal;
        },
        { policy: fast, shouldRetry: (error) => error !== fatal },
      ),
    ).rejects.toBe(fatal);
    expect(calls).toBe(1);
  });

  it('ends a wait at once when aborted, rejecting with the reason', async () => {
    const stopping = new AbortController();
    const started = Date.now();
    const retrying = retry(
      async () => {
        throw new Error('down');
      },
      { policy: { ...fast, initialMs: 60_000, maxMs: 60_000 }, signal: stopping.signal },
    );
    setTimeout(() => stopping.abort(new Error('stopped')), 20);
    await expect(retrying).rejects.toThrow('stopped');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('sleep', () => {
  it('waits, or returns when aborted', async () => {
    const started = Date.now();
    await sleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const stopping = new AbortController();
    stopping.abort();
    const again = Date.now();
    await sleep(10_000, stopping.signal);
    expect(Date.now() - again).toBeLessThan(100);
  });
});
