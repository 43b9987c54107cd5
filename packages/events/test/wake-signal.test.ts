import { WakeSignal } from '../src/wake-signal';

const elapsed = async (run: () => Promise<void>): Promise<number> => {
  const started = Date.now();
  await run();
  return Date.now() - started;
};

describe('WakeSignal', () => {
  it('returns at once from a wait when woken during the work before it', async () => {
    const signal = new WakeSignal();
    signal.clear();
    signal.wake(); // e.g. a NOTIFY while the relay's SELECT was running
    expect(signal.woken).toBe(true);
    expect(await elapsed(() => signal.wait(5_000))).toBeLessThan(100);
    expect(signal.woken).toBe(false);
  });

  it('ends a wait in progress when woken', async () => {
    const signal = new WakeSignal();
    setTimeout(() => signal.wake(), 20);
    expect(await elapsed(() => signal.wait(5_000))).toBeLessThan(1_000);
  });

  it('forgets wake-ups that came before clear()', async () => {
    const signal = new WakeSignal();
    signal.wake();
    signal.clear();
    expect(await elapsed(() => signal.wait(150))).toBeGreaterThanOrEqual(140);
  });

  it('keeps a wake-up for one wait only', async () => {
    const signal = new WakeSignal();
    signal.wake();
    await signal.wait(5_000);
    expect(await elapsed(() => signal.wait(150))).toBeGreaterThanOrEqual(140);
  });
});
