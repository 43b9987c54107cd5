import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { createDatabasePool } from '../src';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase([]);
});

afterAll(async () => {
  await db?.drop();
});

// A PostgreSQL restart ends every session with 57P01 ("terminating connection due to
// administrator command"); pg_terminate_backend sends a session the same, without
// restarting the server other tests share.
test('a checked-out connection that the server ends between two queries does not end the process', async () => {
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  const pool = createDatabasePool({ databaseUrl: db.url, schema: 'public', size: 2, logger });
  try {
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ended = new Promise((resolve) => client.once('end', resolve));
    await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await ended;
    // Without a listener the 'error' event would have been thrown (an uncaught exception).
    expect(warnings).toContain('database connection lost');
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();
    // The broken client was discarded: the pool answers with a new one.
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  } finally {
    await pool.end();
  }
});
