// Types of net.js.

/** A port the OS considers free on 127.0.0.1 right now; racy, only for the embedded PostgreSQL's fallback. */
export function findFreePort(): Promise<number>;

/** Whether something accepts TCP connections at host:port. */
export function isPortAnswering(host: string, port: number, timeoutMs?: number): Promise<boolean>;

/** Polls `check` until it returns true; rejects with `describe()`'s text after `timeoutMs`. */
export function waitFor(
  check: () => Promise<boolean> | boolean,
  options: { timeoutMs: number; intervalMs?: number; describe: () => string | Promise<string> },
): Promise<void>;

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void>;
