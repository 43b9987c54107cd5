import type { Redis } from 'ioredis';

/** One REST call of an application, as the admin API lists it (never a token or secret). */
export interface RequestLogEntry {
  /** A snowflake: entries are newest first by id, which `before` pages on. */
  id: string;
  /** ISO 8601, when the call arrived. */
  timestamp: string;
  method: string;
  /** The route template, e.g. `POST /channels/{channel_id}/messages`. */
  route: string;
  /** The concrete path and query, tokens and secrets redacted. */
  path: string;
  status: number;
  /** Discord's error body when the status is not 2xx (cut short when large). */
  error: unknown;
  /** The rate-limit bucket the answer named (`X-RateLimit-Bucket`), if any. */
  bucket: string | null;
  duration_ms: number;
  warnings: string[];
  /** The injected fault that answered, if one did. */
  fault_id: string | null;
}

/** Where the request log of every application is kept. */
export interface RequestLog {
  readonly store: 'redis' | 'memory';
  /** Queues an entry; never waits and never throws (a full or failing store drops it). */
  append(applicationId: string, entry: RequestLogEntry): void;
  /** The application's entries newest first, those older than `before` when given. */
  list(applicationId: string, options: { limit: number; before?: string }): Promise<RequestLogEntry[]>;
  /** Writes what is queued (Redis); resolves at once in memory. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** How much the log keeps. */
export interface RequestLogOptions {
  /** Entries kept per application: the newest ones. */
  size: number;
  /**
   * Applications whose logs memory keeps (default 500: at most 500 × `size` entries);
   * the least recently written is dropped first. Redis keeps every application's, each
   * expiring a week after its last entry.
   */
  maxApplications?: number;
  /** Redis and its key prefix; unset: in this process's memory. */
  redis?: { client: Redis; keyPrefix: string };
  /** How long queued entries wait before they are written to Redis (ms). */
  flushIntervalMs?: number;
  /** How long an application's log outlives its last entry in Redis (seconds). */
  ttlSeconds?: number;
}

/** The most entries waiting for Redis; past it, the oldest are dropped rather than kept. */
const MAX_QUEUED = 10_000;

/** Keeps entries with an id older than `before` (snowflakes compared as numbers). */
function olderThan(entries: RequestLogEntry[], before: string | undefined, limit: number): RequestLogEntry[] {
  const bound = before === undefined ? undefined : BigInt(before);
  const kept: RequestLogEntry[] = [];
  for (const entry of entries) {
    if (bound !== undefined && BigInt(entry.id) >= bound) continue;
    kept.push(entry);
    if (kept.length >= limit) break;
  }
  return kept;
}

/**
 * The request log: the newest `size` entries of each application. Appending costs the
 * request nothing it waits for: in memory an array push; with Redis the entry is queued
 * and written with the others of the next `flushIntervalMs` in one pipeline (LPUSH,
 * LTRIM, EXPIRE per application), so every replica's calls land in one list per
 * application, shared by all. A Redis that fails loses those entries, never a request.
 */
export function createRequestLog(options: RequestLogOptions): RequestLog {
  return options.redis ? redisLog(options, options.redis) : memoryLog(options);
}

function memoryLog({ size, maxApplications = 500 }: RequestLogOptions): RequestLog {
  // Oldest first within an application; the Map's order is the least recently written first.
  const logs = new Map<string, RequestLogEntry[]>();
  return {
    store: 'memory',
    append(applicationId, entry) {
      const entries = logs.get(applicationId) ?? [];
      logs.delete(applicationId);
      logs.set(applicationId, entries);
      entries.push(entry);
      if (entries.length > size) entries.splice(0, entries.length - size);
      if (logs.size > maxApplications) logs.delete(logs.keys().next().value as string);
    },
    async list(applicationId, { limit, before }) {
      return olderThan([...(logs.get(applicationId) ?? [])].reverse(), before, limit);
    },
    flush: async () => undefined,
    close: async () => undefined,
  };
}

function redisLog(
  { size, flushIntervalMs = 50, ttlSeconds = 7 * 24 * 3600 }: RequestLogOptions,
  { client, keyPrefix }: { client: Redis; keyPrefix: string },
): RequestLog {
  const keyOf = (applicationId: string) => `${keyPrefix}requests:${applicationId}`;
  let queued: { applicationId: string; text: string }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queued;
    queued = [];
    if (batch.length === 0) return writing;
    const pipeline = client.pipeline();
    const touched = new Set<string>();
    for (const { applicationId, text } of batch) {
      pipeline.lpush(keyOf(applicationId), text);
      touched.add(applicationId);
    }
    for (const applicationId of touched) {
      pipeline.ltrim(keyOf(applicationId), 0, size - 1);
      pipeline.expire(keyOf(applicationId), ttlSeconds);
    }
    // Ordered after the previous batch, so that a list never gets an older batch last.
    writing = writing.then(() =>
      pipeline.exec().then(
        () => undefined,
        () => undefined,
      ),
    );
    return writing;
  }

  return {
    store: 'redis',
    append(applicationId, entry) {
      queued.push({ applicationId, text: JSON.stringify(entry) });
      if (queued.length > MAX_QUEUED) queued.splice(0, queued.length - MAX_QUEUED);
      timer ??= setTimeout(() => void flush(), flushIntervalMs).unref();
    },
    async list(applicationId, { limit, before }) {
      await flush();
      // Newest first: a page without `before` is the list's head; with it, read in chunks
      // until the page is full rather than the whole list.
      const kept: RequestLogEntry[] = [];
      const chunk = before === undefined ? limit : Math.max(limit, 500);
      for (let start = 0; start < size && kept.length < limit; start += chunk) {
        const texts = await client.lrange(keyOf(applicationId), start, Math.min(start + chunk, size) - 1);
        const entries = texts.map((text) => JSON.parse(text) as RequestLogEntry);
        kept.push(...olderThan(entries, before, limit - kept.length));
        if (texts.length < chunk) break;
      }
      return kept;
    },
    flush,
    close: flush,
  };
}
