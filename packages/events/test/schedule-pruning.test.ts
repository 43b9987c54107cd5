import { schedulePruning } from '../src';

const quiet = { info: () => undefined, warn: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('schedulePruning', () => {
  it('runs soon after start and then every interval, one run at a time', async () => {
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const pruning = schedulePruning({
      prune: async () => {
        runs++;
        maxConcurrent = Math.max(maxConcurrent, ++concurrent);
        // Longer than the interval: the next run must wait for this one.
        await sleep(40);
        concurrent--;
        return 1;
      },
      logger: quiet,
      what: 'rows',
      intervalMs: 10,
    });
    await sleep(300);
    await pruning.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(maxConcurrent).toBe(1);
    const after = runs;
    await sleep(100);
    expect(runs).toBe(after);
  });

  it('logs a failed run and tries again at the next interval', async () => {
    const warnings: object[] = [];
    let runs = 0;
    const pruning = schedulePruning({
      prune: async () => {
        runs++;
        if (runs === 1) throw new Error('database away');
        return 0;
      },
      logger: { info: () => undefined, warn: (obj) => warnings.push(obj) },
      what: 'rows',
      intervalMs: 10,
    });
    for (let waited = 0; runs < 2 && waited < 2000; waited += 10) await sleep(10);
    await pruning.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(warnings).toHaveLength(1);
  });

  it('stop() aborts the run in progress and waits for it to end', async () => {
    let started = false;
    let ended = false;
    const pruning = schedulePruning({
      prune: async (signal) => {
        started = true;
        while (!signal.aborted) await sleep(5);
        await sleep(20);
        ended = true;
        return 0;
      },
      logger: quiet,
      what: 'rows',
      intervalMs: 10,
    });
    for (let waited = 0; !started && waited < 2000; waited += 5) await sleep(5);
    expect(started).toBe(true);
    await pruning.stop();
    expect(ended).toBe(true);
  });
});
