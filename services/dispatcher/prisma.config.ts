import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// The offline configuration of ../../shared/notes/prisma-offline.md: the WebAssembly
// engines and the pg driver adapter. DATABASE_URL carries search_path=registry.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL! }),
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
