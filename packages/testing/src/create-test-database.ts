import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { findTestServers } from './find-servers';

/** A fresh database for one test file. */
export interface TestDatabase {
  /** Base URL of the new database (no search_path: services add their own). */
  url: string;
  natsUrl: string;
  drop(): Promise<void>;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * Creates a database of its own for a test file, so that files run in parallel, and
 * applies the migrations of the given services (folders under services/) with the same
 * tool `npm start` uses.
 */
export async function createTestDatabase(services: string[]): Promise<TestDatabase> {
  const { postgresUrl, natsUrl } = await findTestServers();
  const name = `acs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(postgresUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  // The launcher's runner: it ends each Prisma CLI run as soon as it reports success
  // (the CLI itself lingers ~10 s after a WebAssembly migration).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { migrateServices } = require(path.join(REPO_ROOT, 'infra', 'src', 'migrate-services.js')) as {
    migrateServices(services: Array<{ name: string; dir: string }>, databaseUrl: string): Promise<void>;
  };
  await migrateServices(
    services.map((name) => ({ name, dir: path.join(REPO_ROOT, 'services', name) })),
    url.toString(),
  );
  return {
    url: url.toString(),
    natsUrl,
    drop: () =>
      withAdmin(postgresUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

async function withAdmin<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
