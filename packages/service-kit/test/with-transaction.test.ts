import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { beginStatement, withTransaction } from '../src';

let db: TestDatabase;
let pool: Pool;

beforeAll(async () => {
  db = await createTestDatabase([]);
  pool = new Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  await pool.query('CREATE TABLE item (id int PRIMARY KEY)');
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

afterEach(async () => {
  await pool.query('DELETE FROM item');
});

async function itemIds(): Promise<number[]> {
  const { rows } = await pool.query<{ id: number }>('SELECT id FROM item ORDER BY id');
  return rows.map((r) => r.id);
}

describe('withTransaction', () => {
  it('commits what the work wrote and answers its result', async () => {
    const result = await withTransaction(pool, async (client) => {
      await client.query('INSERT INTO item VALUES (1), (2)');
      return 'done';
    });
    expect(result).toBe('done');
    expect(await itemIds()).toEqual([1, 2]);
  });

  it('rolls back everything when the work throws, and rethrows its error', async () => {
    const failure = new Error('refused');
    await expect(
      withTransaction(pool, async (client) => {
        await client.query('INSERT INTO item VALUES (1)');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await itemIds()).toEqual([]);
    // The connection went back to the pool usable (not left inside the failed transaction).
    expect(pool.idleCount).toBeGreaterThan(0);
    await withTransaction(pool, (client) => client.query('INSERT INTO item VALUES (3)'));
    expect(await itemIds()).toEqual([3]);
  });

  it('begins with the isolation level given, read committed by default', async () => {
    const levelOf = (options?: Parameters<typeof withTransaction>[2]) =>
      withTransaction(
        pool,
        async (client) =>
          (await client.query<{ transaction_isolation: string }>('SHOW transaction_isolation')).rows[0]!
            .transaction_isolation,
        options,
      );
    expect(await levelOf()).toBe('read committed');
    expect(await levelOf({ isolation: 'repeatable read' })).toBe('repeatable read');
    expect(await levelOf({ isolation: 'serializable' })).toBe('serializable');
  });

  it('refuses writes in a read-only transaction', async () => {
    await expect(
      withTransaction(pool, (client) => client.query('INSERT INTO item VALUES (1)'), { readOnly: true }),
    ).rejects.toMatchObject({ code: '25006' });
    expect(await itemIds()).toEqual([]);
  });

  it('a repeatable read sees one snapshot across its statements', async () => {
    await pool.query('INSERT INTO item VALUES (1)');
    const counts = await withTransaction(
      pool,
      async (client) => {
        const first = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM item')).rows[0]!.n;
        await pool.query('INSERT INTO item VALUES (2)');
        const second = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM item')).rows[0]!.n;
        return [first, second];
      },
      { isolation: 'repeatable read', readOnly: true },
    );
    expect(counts).toEqual([1, 1]);
  });
});

describe('beginStatement', () => {
  it('spells the options as PostgreSQL reads them', () => {
    expect(beginStatement()).toBe('BEGIN');
    expect(beginStatement({ isolation: 'repeatable read', readOnly: true })).toBe(
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
    expect(beginStatement({ readOnly: true })).toBe('BEGIN READ ONLY');
  });
});
