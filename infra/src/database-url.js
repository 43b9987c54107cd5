'use strict';
/**
 * The connection string a service uses: the shared DATABASE_URL with the service's
 * own schema as search_path, so that its tables and its `_prisma_migrations` history
 * stay in its schema (see shared/notes/prisma-offline.md).
 */
function serviceDatabaseUrl(baseUrl, schema) {
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** The PostgreSQL schema named in a Prisma schema file's datasource `schemas`. */
function schemaOf(prismaSchemaText) {
  const match = /schemas\s*=\s*\[\s*"([^"]+)"/.exec(prismaSchemaText);
  if (!match) throw new Error('prisma schema has no `schemas = ["..."]` in its datasource');
  return match[1];
}

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/acs';

module.exports = { serviceDatabaseUrl, schemaOf, DEFAULT_DATABASE_URL };
