import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { DiscordError } from '@acs/discord-errors';
import { parseAddressPolicy } from '@acs/outbound';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { OidcIssuers } from '../../src/clients/oidc-issuers';
import { PrismaClient } from '../../src/generated/prisma/client';
import { createHandlers, type OAuthHandlers } from '../../src/handlers/create-handlers';
import type { HandlerDeps } from '../../src/handlers/handler-deps';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from '../../src/domain/limits';
import { createStores } from '../../src/store/create-stores';
import { startFakePermissions, type FakePermissions } from './fake-permissions-server';

/** A fresh oauth database, its clients, the fake permissions edge and the handlers over them. */
export interface OAuthTestEnv {
  database: TestDatabase;
  pool: Pool;
  prisma: PrismaClient;
  permissions: FakePermissions;
  deps: HandlerDeps;
  handlers: OAuthHandlers;
  /** The clock the handlers read; tests may move it. */
  clock: { now: Date };
  close(): Promise<void>;
}

/** Sets up an environment for one test file (real PostgreSQL with the oauth migrations). */
export async function createOAuthTestEnv(): Promise<OAuthTestEnv> {
  const database = await createTestDatabase(['oauth']);
  const pool = new Pool({ connectionString: serviceDatabaseUrl(database.url, 'oauth'), max: 5 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const permissions = await startFakePermissions();
  const clock = { now: new Date() };
  const snowflakes = createSnowflakeGenerator({ workerId: 1, processId: 1 });
  const deps: HandlerDeps = {
    ...createStores(prisma, pool, () => snowflakes.next()),
    lifetimes: {
      authorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      accessToken: ACCESS_TOKEN_TTL_SECONDS,
      refreshToken: REFRESH_TOKEN_TTL_SECONDS,
    },
    permissions: permissions.client,
    // Loopback issuers, as the local stack allows them: tests run their own issuer.
    oidcIssuers: new OidcIssuers({
      policy: parseAddressPolicy('loopback'),
      allowLoopbackIssuers: true,
      fetchTimeoutMs: 2000,
    }),
    allowLoopbackIssuers: true,
    snowflakes,
    now: () => clock.now,
  };
  return {
    database,
    pool,
    prisma,
    permissions,
    deps,
    handlers: createHandlers(deps),
    clock,
    async close() {
      await permissions.close();
      await prisma.$disconnect();
      await pool.end();
      await database.drop();
    },
  };
}

/** The DiscordError a call rejects with; fails the test when it resolves or throws anything else. */
export async function discordErrorOf(promise: Promise<unknown>): Promise<DiscordError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DiscordError) return error;
    throw error;
  }
  throw new Error('expected a DiscordError');
}

/** Every row of every table of the oauth schema, as JSON text (what a database dump would show). */
export async function dumpOAuthTables(pool: Pool): Promise<string> {
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'oauth' AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await pool.query<{ row: string }>(
      `SELECT row_to_json(t)::text AS row FROM "oauth"."${table_name}" t`,
    );
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/** Creates an application through the handler and returns its JSON (with bot_token and client_secret). */
export async function createApp(handlers: OAuthHandlers, body: object): Promise<Record<string, unknown>> {
  const response = await handlers.CreateApplication({ body_json: JSON.stringify(body) });
  return JSON.parse(response.application_json as string) as Record<string, unknown>;
}

/** Creates a user through the handler and returns their JSON. */
export async function createUser(handlers: OAuthHandlers, body: object): Promise<Record<string, unknown>> {
  const response = await handlers.CreateUser({ body_json: JSON.stringify(body) });
  return JSON.parse(response.user_json as string) as Record<string, unknown>;
}
