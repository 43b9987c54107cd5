import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { createSnowflakeGenerator, type SnowflakeGenerator } from '@acs/snowflake';
import { createFaultStore, type FaultStore } from './fault-store';
import { createRequestLog, type RequestLog } from './request-log';

/** Where the request log and the faults are kept, and the ids of entries and faults. */
export interface TestControl {
  log: RequestLog;
  faults: FaultStore;
  ids: SnowflakeGenerator;
}

/** Where the test controls keep their state. */
export interface TestControlOptions {
  /** Redis, shared by every replica; unset: this process's memory (a single replica). */
  redisUrl?: string;
  keyPrefix: string;
  /** Entries of the request log kept per application. */
  requestLogSize: number;
  onError?: (error: Error) => void;
}

/** The request log, the fault store and their ids, plus how to close them. */
export interface OpenTestControl extends TestControl {
  close(): Promise<void>;
}

/**
 * The request log and the faults: in Redis when the stack has one (as the shared rate
 * limits are), so that every replica logs into, and takes faults from, one place; in
 * memory otherwise. The Redis client queues nothing while disconnected and gives up on a
 * command after 250 ms: the calls it serves never wait on an outage.
 */
export function createTestControl(options: TestControlOptions): OpenTestControl {
  // Entries and faults from several replicas: random node bits keep their ids apart.
  const ids = createSnowflakeGenerator({ workerId: randomInt(32), processId: randomInt(32) });
  if (!options.redisUrl) {
    const log = createRequestLog({ size: options.requestLogSize });
    return { log, faults: createFaultStore(), ids, close: () => log.close() };
  }
  const client = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: 250,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
  });
  client.on('error', (error: Error) => options.onError?.(error));
  const redis = { client, keyPrefix: options.keyPrefix };
  const log = createRequestLog({ size: options.requestLogSize, redis });
  return {
    log,
    faults: createFaultStore(redis),
    ids,
    async close() {
      await log.close();
      if (client.status !== 'ready') return client.disconnect();
      await client.quit().catch(() => client.disconnect());
    },
  };
}
