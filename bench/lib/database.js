'use strict';
/**
 * A database of its own for one bench run, on the PostgreSQL at DATABASE_URL (its admin
 * URL, default local): created empty, dropped at the end (with its connections).
 */
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { serverUrls } = require('./env');

/**
 * A client connected to PostgreSQL's admin database (to read pg_stat_* of the bench's own).
 * @returns {Promise<import('pg').Client>}
 */
async function connectAdminClient() {
  const client = new Client({ connectionString: serverUrls().databaseUrl });
  await client.connect();
  return client;
}

async function withAdminDb(run) {
  const client = await connectAdminClient();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates `acs_bench_<name>_<random>`.
 * @param {string} name
 * @returns {Promise<{ url: string, name: string, drop: () => Promise<unknown> }>}
 */
async function createBenchDatabase(name) {
  const database = `acs_bench_${name}_${randomBytes(4).toString('hex')}`;
  await withAdminDb((c) => c.query(`CREATE DATABASE ${database}`));
  const url = new URL(serverUrls().databaseUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    name: database,
    drop: () => withAdminDb((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)),
  };
}

/**
 * Pids of the PostgreSQL backends connected to `databaseName` (the CPU a bench's database costs).
 * @param {import('pg').Client} client  connected to the same server
 * @param {string} databaseName
 */
async function postgresBackendsOf(client, databaseName) {
  const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [databaseName]);
  return rows.map((r) => Number(r.pid));
}

module.exports = { createBenchDatabase, connectAdminClient, postgresBackendsOf };
