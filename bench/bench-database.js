'use strict';
/**
 * A database of its own for one bench run, on the PostgreSQL at DATABASE_URL (its admin
 * URL, default local): created empty, dropped at the end (with its connections).
 */
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function withAdminDb(run) {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates `acs_bench_<name>_<random>`; resolves with its URL and `drop()`. */
async function createBenchDatabase(name) {
  const database = `acs_bench_${name}_${randomBytes(4).toString('hex')}`;
  await withAdminDb((c) => c.query(`CREATE DATABASE ${database}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: () => withAdminDb((c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)),
  };
}

module.exports = { createBenchDatabase };
