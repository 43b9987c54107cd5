#!/usr/bin/env node
'use strict';
// Runs the Prisma CLI for the service in the current folder with that service's
// DATABASE_URL (search_path = its schema). Offline, every Prisma CLI call needs
// DATABASE_URL set or it tries to download a native engine; `generate` does not
// connect, so the default local URL is enough there.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { serviceDatabaseUrl, schemaOf, DEFAULT_DATABASE_URL } = require('../src/database-url');

const schemaText = fs.readFileSync(path.join(process.cwd(), 'prisma', 'schema.prisma'), 'utf8');
const env = {
  ...process.env,
  DATABASE_URL: serviceDatabaseUrl(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, schemaOf(schemaText)),
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
const cli = require.resolve('prisma/build/index.js', { paths: [process.cwd()] });

async function main() {
  if (process.argv[2] === 'migrate') {
    // search_path names a schema that must exist before Prisma can create its
    // migration table there.
    const { Client } = require('pg');
    const client = new Client({ connectionString: process.env.DATABASE_URL || DEFAULT_DATABASE_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schemaOf(schemaText)}"`);
    await client.end();
  }
  const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
