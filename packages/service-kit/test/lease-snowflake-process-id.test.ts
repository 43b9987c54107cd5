import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { createLogger, leaseSnowflakeProcessId, type SnowflakeLease } from '../src';

const logger = createLogger('test', 'silent');
let db: TestDatabase;
let pool: Pool;
let held: SnowflakeLease[] = [];

beforeAll(async () => {
  db = await createTestDatabase([]);
  pool = new Pool({ connectionString: db.url, max: 40 });
  pool.on('error', () => undefined);
  // The table as each service's migration creates it.
  await pool.query(`CREATE TABLE snowflake_lease (
    process_id integer PRIMARY KEY, holder text NOT NULL, expires_at timestamptz(3) NOT NULL)`);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

afterEach(async () => {
  await Promise.all(held.map((l) => l.release()));
  held = [];
  await pool.query('DELETE FROM snowflake_lease');
});

/** A lease whose loss is only recorded (the default would end the test process). */
async function lease(onLost: () => void = () => undefined): Promise<SnowflakeLease> {
  const taken = await leaseSnowflakeProcessId({ pool, logger, onLost });
  held.push(taken);
  return taken;
}

describe('leaseSnowflakeProcessId', () => {
  it('gives 32 replicas starting at once 32 distinct ids, and refuses a 33rd', async () => {
    const leases = await Promise.all(Array.from({ length: 32 }, () => lease()));
    expect(new Set(leases.map((l) => l.processId)).size).toBe(32);
    await expect(lease()).rejects.toThrow(/at most 32 replicas/);
  });

  it('hands a released id to the next replica', async () => {
    const leases = await Promise.all(Array.from({ length: 32 }, () => lease()));
    const freed = leases[5]!;
    await freed.release();
    expect((await lease()).processId).toBe(freed.processId);
  });

  it('takes over the lease of a replica that died without releasing it', async () => {
    await pool.query(`INSERT INTO snowflake_lease
      SELECT n, 'alive', now() + interval '1 minute' FROM generate_series(0, 31) AS n WHERE n <> 7`);
    await pool.query(`INSERT INTO snowflake_lease VALUES (7, 'dead', now() - interval '1 second')`);
    expect((await lease()).processId).toBe(7);
  });

  it('stops the replica whose lease another one took', async () => {
    let lost = false;
    const taken = await leaseSnowflakeProcessId({
      pool,
      logger,
      leaseSeconds: 0.3,
      onLost: () => (lost = true),
    });
    held.push(taken);
    await pool.query(`UPDATE snowflake_lease SET holder = 'someone else' WHERE process_id = $1`, [
      taken.processId,
    ]);
    await new Promise((r) => setTimeout(r, 250));
    expect(lost).toBe(true);
  });
});
