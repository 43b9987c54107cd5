import { AsyncLocalStorage } from 'node:async_hooks';

/** The deadline of the work under way (epoch milliseconds), where one was set. */
const storage = new AsyncLocalStorage<number>();

/**
 * Runs `work` with a deadline (epoch milliseconds) that every call it makes through
 * `callUnary`, however deep in its async chain, inherits: a call never outlives the
 * request that led to it. A deadline inside another keeps the earlier of the two.
 * A non-finite deadline (a caller that set none) leaves the current one in force.
 */
export function runWithDeadline<T>(deadline: number, work: () => T): T {
  if (!Number.isFinite(deadline)) return work();
  const current = storage.getStore();
  return storage.run(current === undefined ? deadline : Math.min(current, deadline), work);
}

/** The deadline the current work inherited (epoch milliseconds), or undefined when it has none. */
export function currentDeadline(): number | undefined {
  return storage.getStore();
}
