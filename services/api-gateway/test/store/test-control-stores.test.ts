import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createFaultStore, FaultIdTakenError, type FaultStore } from '../../src/store/fault-store';
import { createRequestLog, type RequestLogEntry } from '../../src/store/request-log';

// The request log and the fault store, in memory and in the machine's Redis (each test
// under a key prefix of its own), with the same expectations for both.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const APP = '1500000000000000001';
const OTHER = '1500000000000000002';
let redis: Redis;

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  await redis.quit();
});

const prefix = () => `test:test-control:${randomBytes(6).toString('hex')}:`;
const entry = (id: number): RequestLogEntry => ({
  id: String(1_000_000 + id),
  timestamp: new Date(0).toISOString(),
  method: 'GET',
  route: 'GET /users/@me',
  path: '/api/v10/users/@me',
  status: 200,
  error: null,
  bucket: null,
  duration_ms: 1,
  warnings: [],
  fault_id: null,
});

describe.each(['memory', 'redis'] as const)('in %s', (store) => {
  const redisOf = () => (store === 'redis' ? { client: redis, keyPrefix: prefix() } : undefined);

  it('keeps the newest entries per application, newest first, paged by before', async () => {
    const r = redisOf();
    const log = createRequestLog({ size: 5, ...(r ? { redis: r } : {}) });
    for (let i = 1; i <= 8; i += 1) log.append(APP, entry(i));
    log.append(OTHER, entry(100));
    const ids = (entries: RequestLogEntry[]) => entries.map((e) => Number(e.id) - 1_000_000);
    expect(ids(await log.list(APP, { limit: 100 }))).toEqual([8, 7, 6, 5, 4]);
    expect(ids(await log.list(APP, { limit: 2 }))).toEqual([8, 7]);
    expect(ids(await log.list(APP, { limit: 2, before: String(1_000_007) }))).toEqual([6, 5]);
    expect(ids(await log.list(OTHER, { limit: 100 }))).toEqual([100]);
    expect(await log.list('1500000000000000003', { limit: 100 })).toEqual([]);
    await log.close();
  });

  it('takes faults oldest first, each exactly as many times as told, per application', async () => {
    const r = redisOf();
    const faults: FaultStore = createFaultStore(r);
    const spec = { route: 'POST /channels/:id/messages', status: 429, delay_ms: 0 };
    await faults.add(APP, { ...spec, id: '10', times: 2 });
    await faults.add(APP, { ...spec, id: '11', times: 1, status: 500 });
    const all = () => true;
    expect(await faults.take(OTHER, all)).toBeUndefined();
    expect(await faults.list(APP)).toMatchObject([
      { id: '10', remaining: 2 },
      { id: '11', remaining: 1 },
    ]);
    const taken = [];
    for (let i = 0; i < 4; i += 1) taken.push((await faults.take(APP, all))?.id);
    expect(taken).toEqual(['10', '10', '11', undefined]);
    expect(await faults.list(APP)).toEqual([]);
    // A fault that does not match is left alone.
    await faults.add(APP, { ...spec, id: '12', times: 1 });
    expect(await faults.take(APP, (f) => f.status === 500)).toBeUndefined();
    expect(await faults.clear(APP, '99')).toBe(false);
    expect(await faults.clear(APP, '12')).toBe(true);
    await faults.add(APP, { ...spec, id: '13', times: 1 });
    expect(await faults.clear(APP)).toBe(true);
    expect(await faults.list(APP)).toEqual([]);
  });
});

it('in Redis, concurrent takes from two replicas never exceed times', async () => {
  const keyPrefix = prefix();
  const a = createFaultStore({ client: redis, keyPrefix });
  const other = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const b = createFaultStore({ client: other, keyPrefix });
  await a.add(APP, { id: '20', route: '* /*', status: 503, delay_ms: 0, times: 25 });
  const takes = await Promise.all(
    Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take(APP, () => true)),
  );
  expect(takes.filter(Boolean)).toHaveLength(25);
  await other.quit();
});

it('in Redis, a page before an old entry is read past the first chunk', async () => {
  const log = createRequestLog({ size: 1000, redis: { client: redis, keyPrefix: prefix() } });
  for (let i = 1; i <= 700; i += 1) log.append(APP, entry(i));
  const page = await log.list(APP, { limit: 3, before: String(1_000_100) });
  expect(page.map((e) => Number(e.id) - 1_000_000)).toEqual([99, 98, 97]);
  expect(await log.list(APP, { limit: 1000 })).toHaveLength(700);
  await log.close();
});

it('in Redis, a fault id another replica took already is refused, never overwritten', async () => {
  const faults = createFaultStore({ client: redis, keyPrefix: prefix() });
  const spec = { route: 'GET /x', status: 500, delay_ms: 0, times: 1 };
  await faults.add(APP, { ...spec, id: '30' });
  await expect(faults.add(APP, { ...spec, id: '30', status: 503 })).rejects.toBeInstanceOf(FaultIdTakenError);
  expect(await faults.list(APP)).toMatchObject([{ id: '30', status: 500 }]);
});

it('in memory, keeps the logs of the applications written last only', async () => {
  const log = createRequestLog({ size: 10, maxApplications: 2 });
  log.append('1', entry(1));
  log.append('2', entry(2));
  log.append('1', entry(3));
  log.append('3', entry(4));
  expect(await log.list('2', { limit: 10 })).toEqual([]);
  expect(await log.list('1', { limit: 10 })).toHaveLength(2);
  expect(await log.list('3', { limit: 10 })).toHaveLength(1);
});
