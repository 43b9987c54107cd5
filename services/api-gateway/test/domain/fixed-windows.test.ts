import { FixedWindows } from '../../src/domain/fixed-windows';

describe('FixedWindows', () => {
  it('counts hits in a window that opens with the first and lasts its length', () => {
    const windows = new FixedWindows();
    expect(windows.hit('a', 1_000, 500)).toEqual({ started: 1_000, count: 1 });
    expect(windows.hit('a', 1_499, 500)).toEqual({ started: 1_000, count: 2 });
    // The next hit at or after the end opens a new window.
    expect(windows.hit('a', 1_500, 500)).toEqual({ started: 1_500, count: 1 });
    expect(windows.hit('b', 1_500, 500)).toEqual({ started: 1_500, count: 1 });
  });

  it('is full once a window holds the limit, until the window ends; never with limit 0', () => {
    const windows = new FixedWindows();
    windows.hit('a', 0, 1_000);
    expect(windows.isFull('a', 10, 1_000, 2)).toBe(false);
    windows.hit('a', 10, 1_000);
    expect(windows.isFull('a', 999, 1_000, 2)).toBe(true);
    expect(windows.isFull('a', 1_000, 1_000, 2)).toBe(false);
    expect(windows.isFull('a', 999, 1_000, 0)).toBe(false);
    expect(windows.isFull('nobody', 999, 1_000, 1)).toBe(false);
    expect(windows.current('a', 999, 1_000)).toEqual({ started: 0, count: 2 });
    expect(windows.current('a', 1_000, 1_000)).toBeUndefined();
  });

  it('sweeps the windows past the horizon, at most once a minute', () => {
    const windows = new FixedWindows();
    windows.hit('old', 0, 1_000);
    windows.hit('recent', 59_500, 1_000);
    windows.sweep(59_999, 1_000);
    expect(windows.size).toBe(2);
    windows.sweep(60_000, 1_000);
    expect(windows.size).toBe(1);
    expect(windows.current('recent', 60_000, 1_000)).toEqual({ started: 59_500, count: 1 });
    windows.hit('later', 61_000, 1_000);
    windows.sweep(119_999, 1_000);
    expect(windows.size).toBe(2);
    windows.sweep(120_000, 1_000);
    expect(windows.size).toBe(0);
  });
});
