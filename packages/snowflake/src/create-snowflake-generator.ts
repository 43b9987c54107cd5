import { DISCORD_EPOCH } from './is-snowflake';

/** Produces unique, time-ordered snowflakes as decimal strings. */
export interface SnowflakeGenerator {
  next(): string;
}

/**
 * Creates a generator for one worker/process pair. Replicas must be given distinct
 * pairs (5 bits each) so that their ids never collide.
 */
export function createSnowflakeGenerator(options: {
  workerId: number;
  processId: number;
  now?: () => number;
}): SnowflakeGenerator {
  const { workerId, processId } = options;
  if (!isFiveBit(workerId) || !isFiveBit(processId)) {
    throw new RangeError('workerId and processId must be integers in 0..31');
  }
  const now = options.now ?? Date.now;
  const node = (BigInt(workerId) << 17n) | (BigInt(processId) << 12n);
  let lastMs = -1n;
  let increment = 0n;
  return {
    next(): string {
      let ms = BigInt(now()) - DISCORD_EPOCH;
      // A clock that steps back must not produce an id that already exists.
      if (ms < lastMs) ms = lastMs;
      if (ms === lastMs) {
        increment = (increment + 1n) & 0xfffn;
        // 4096 ids in one millisecond: borrow the next millisecond.
        if (increment === 0n) ms = lastMs + 1n;
      } else {
        increment = 0n;
      }
      lastMs = ms;
      return ((ms << 22n) | node | increment).toString();
    },
  };
}

function isFiveBit(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < 32;
}
