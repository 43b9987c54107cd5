import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { MemberRequestStore } from '../../src/store/member-request-store';

const APP = '1300000000000000001';
const OTHER_APP = '1300000000000000002';
const GUILD = '1400000000000000001';
const OTHER_GUILD = '1400000000000000002';

let database: TestDatabase;
/** Two pools over one database stand for two dispatcher replicas. */
let pools: [Pool, Pool];

beforeAll(async () => {
  database = await createTestDatabase(['dispatcher']);
  const url = serviceDatabaseUrl(database.url, DB_SCHEMA);
  pools = [new Pool({ connectionString: url, max: 5 }), new Pool({ connectionString: url, max: 5 })];
  for (const pool of pools) pool.on('error', () => undefined);
}, 60_000);

afterAll(async () => {
  for (const pool of pools ?? []) await pool.end();
  await database?.drop();
});

describe('MemberRequestStore', () => {
  it('grants one request for all members per guild and bot per interval, across replicas', async () => {
    const [one, two] = pools.map((pool) => new MemberRequestStore(pool, 30_000));
    expect(await one!.claim(APP, GUILD)).toEqual({ granted: true });
    const refused = await two!.claim(APP, GUILD);
    expect(refused.granted).toBe(false);
    if (!refused.granted) {
      expect(refused.retryAfterMs).toBeGreaterThan(25_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(30_000);
    }
    // Another guild, another bot: their own slots.
    expect(await two!.claim(APP, OTHER_GUILD)).toEqual({ granted: true });
    expect(await two!.claim(OTHER_APP, GUILD)).toEqual({ granted: true });
  });

  it('lets exactly one of concurrent requests through, and grants again after the interval', async () => {
    // A long interval, and its passing made in SQL: a busy machine cannot spread the claims over it.
    const stores = pools.map((pool) => new MemberRequestStore(pool, 30_000));
    const guild = '1400000000000000003';
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.claim(APP, guild)));
    expect(answers.filter((a) => a.granted)).toHaveLength(1);
    expect((await stores[0]!.claim(APP, guild)).granted).toBe(false);
    const age = (seconds: number) =>
      pools[0].query(
        `UPDATE guild_member_request SET requested_at = requested_at - make_interval(secs => $3)
          WHERE application_id = $1 AND guild_id = $2`,
        [APP, guild, seconds],
      );
    await age(31);
    expect(await stores[0]!.claim(APP, guild)).toEqual({ granted: true });
    expect(await stores[1]!.prune()).toBe(0);
    await age(31);
    expect(await stores[1]!.prune()).toBeGreaterThanOrEqual(1);
  });
});
