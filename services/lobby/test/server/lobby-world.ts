import { Pool } from 'pg';
import { DiscordError } from '@acs/discord-errors';
import { loadLobbyProto, type lobby } from '@acs/protos';
import { callPeer, createGrpcClient, createLogger, serviceDatabaseUrl } from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import type { LinkableChannel } from '../../src/clients/permissions-client';
import { DB_SCHEMA } from '../../src/config';
import { createServer } from '../../src/create-server';
import { LobbyStore } from '../../src/store/lobby-store';

/** The fields of a lobby request besides its caller (each RPC takes those it names). */
type LobbyRequestFields = Partial<
  Pick<
    lobby.SetModerationMetadataRequest & lobby.PutMemberRequest & lobby.ListMessagesRequest,
    'lobby_id' | 'user_id' | 'message_id' | 'body_json' | 'limit'
  >
>;

/** A parsed JSON value, read freely by the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export const APP = '1600000000000000001';
export const OTHER_APP = '1600000000000000002';
/** Users the fake oauth knows: USERS[0..n). */
export const USERS = Array.from({ length: 40 }, (_, i) => String(1700000000000000000n + BigInt(i)));
export const UNKNOWN_USER = '1799999999999999999';
export const CHANNEL = '1800000000000000001';
export const GUILD = '1800000000000000000';

/** Who calls: the bot of `app`, or a user through a Bearer token of `app`. */
export type Caller = { app: string; user?: string };

export interface LobbyWorld {
  pool: Pool;
  store: LobbyStore;
  /** Channels the fake permissions lets a user link: channel id → allowed user ids. */
  linkable: Map<string, Set<string>>;
  call(method: keyof lobby.LobbyServiceClient, caller: Caller, request: LobbyRequestFields): Promise<Json>;
  /** The error a call fails with (the test fails when it succeeds). */
  fail(
    method: keyof lobby.LobbyServiceClient,
    caller: Caller,
    request: LobbyRequestFields,
  ): Promise<DiscordError>;
  events(subject?: string): Promise<Json[]>;
  close(): Promise<void>;
}

/** The lobby service on its own database, its peers faked in process. */
export async function startLobbyWorld(options: { idleSecondMs?: number } = {}): Promise<LobbyWorld> {
  const db: TestDatabase = await createTestDatabase(['lobby']);
  const pool = new Pool({ connectionString: serviceDatabaseUrl(db.url, DB_SCHEMA), max: 20 });
  pool.on('error', () => undefined);
  const store = new LobbyStore(
    pool,
    createSnowflakeGenerator({ workerId: 4, processId: 1 }),
    options.idleSecondMs,
  );
  const known = new Set([...USERS, APP, OTHER_APP]);
  const linkable = new Map<string, Set<string>>();
  const server = createServer({
    logger: createLogger('lobby-test', 'silent'),
    lobbies: store,
    oauth: {
      async getPublicUser(userId) {
        if (!known.has(userId)) throw new DiscordError(404, 10013, 'Unknown User');
        return {
          id: userId,
          username: `user${userId.slice(-2)}`,
          discriminator: '0',
          avatar: null,
          global_name: null,
        };
      },
    },
    permissions: {
      async linkableChannel(channelId, userId): Promise<LinkableChannel> {
        const users = linkable.get(channelId);
        if (!users) throw new DiscordError(404, 10003, 'Unknown Channel');
        if (!users.has(userId)) throw new DiscordError(403, 50013, 'Missing Permissions');
        return {
          channelId,
          guildId: GUILD,
          channel: { id: channelId, type: 0, guild_id: GUILD, name: 'general' },
        };
      },
    },
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  const client = createGrpcClient(loadLobbyProto().acs.lobby.v1.LobbyService, `127.0.0.1:${port}`);
  const call = async (
    method: keyof lobby.LobbyServiceClient,
    caller: Caller,
    request: LobbyRequestFields,
  ) => {
    const wire = {
      caller: {
        application_id: caller.app,
        user_id: caller.user ?? caller.app,
        bot: caller.user === undefined,
      },
      ...request,
    };
    const answer = await callPeer<object, Record<string, unknown>>(
      client,
      client[method] as never,
      wire,
      20_000,
    );
    // Each RPC answers its one object as JSON text (`lobby_json`, `member_json`…), or nothing.
    const json = Object.values(answer).find((value): value is string => typeof value === 'string') ?? '';
    return json === '' ? undefined : (JSON.parse(json) as Json);
  };
  return {
    pool,
    store,
    linkable,
    call,
    async fail(method, caller, request) {
      const outcome = await call(method, caller, request).then(
        (value: unknown) => ({ value }),
        (error: unknown) => ({ error }),
      );
      if (!('error' in outcome)) throw new Error(`${method} succeeded: ${JSON.stringify(outcome.value)}`);
      if (!(outcome.error instanceof DiscordError)) throw outcome.error as Error;
      return outcome.error;
    },
    async events(subject) {
      const rows = await pool.query<{ subject: string; payload: Json }>(
        `SELECT subject, payload FROM outbox ${subject ? 'WHERE subject = $1' : ''} ORDER BY seq`,
        subject ? [subject] : [],
      );
      return rows.rows.map((r) => ({ subject: r.subject, ...r.payload }));
    },
    async close() {
      client.close();
      await server.drain();
      await pool.end();
      await db.drop();
    },
  };
}
