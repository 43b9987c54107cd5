'use strict';
/**
 * The one Prisma CLI configuration every service's prisma.config.ts uses: the offline
 * setup of shared/notes/prisma-offline.md (WebAssembly engines, pg driver adapter),
 * reading DATABASE_URL, which infra/bin/prisma.js sets with the service's search_path.
 *
 * The adapter here is the CLI's only: Prisma 6.19's schema engine reads PostgreSQL's
 * `name` columns while it migrates, which adapter-pg 6.19 cannot deserialize ("Column
 * type 'name' could not be deserialized") and 7.x can. So migrations run with the 7.x
 * adapter (installed under the alias `prisma-cli-adapter-pg`), while each service's
 * runtime pairs @prisma/client 6.19 with @prisma/adapter-pg 6.19.
 */
const { defineConfig } = require('prisma/config');
const { PrismaPg } = require('prisma-cli-adapter-pg');

/** The service's Prisma CLI configuration (schema and migrations in its prisma/ folder). */
function servicePrismaConfig() {
  return defineConfig({
    experimental: { adapter: true },
    engine: 'js',
    adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
    schema: 'prisma/schema.prisma',
    migrations: { path: 'prisma/migrations' },
  });
}

module.exports = { servicePrismaConfig };
