import { PrismaPg } from '@prisma/adapter-pg';
import { eventStreamOf, startOutboxRelay } from '@acs/events';
import {
  createLogger,
  installGracefulShutdown,
  reportListening,
  createDatabasePool,
  holdSnowflakeProcessId,
  type Telemetry,
} from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { startCommandEventsConsumer } from './events/command-events-consumer';
import { DB_SCHEMA, loadConfig, SERVICE_NAME } from './config';
import { createServer } from './create-server';
import { PrismaClient } from './generated/prisma/client';
import { BotMemberStore } from './store/bot-member-store';
import { ChannelChangeStore } from './store/channel-change-store';
import { ChannelStore } from './store/channel-store';
import { CommandPermissionsStore } from './store/command-permissions-store';
import { DmChannelStore } from './store/dm-channel-store';
import { GuildPlaceStore } from './store/guild-place-store';
import { GuildStore } from './store/guild-store';
import { MemberStore } from './store/member-store';
import { ListMemberGuildsStore } from './store/list-member-guilds-store';
import { VoiceStore } from './store/voice-store';
import { PermissionContextStore } from './store/permission-context-store';

/** Wires config, logger, database, outbox relay, command events consumer and gRPC server; stops them in order on SIGTERM. */
export async function startService(
  env: Record<string, string | undefined>,
  telemetry: Telemetry,
): Promise<void> {
  const config = loadConfig(env);
  const logger = createLogger(SERVICE_NAME, config.LOG_LEVEL);
  const pool = createDatabasePool({
    databaseUrl: config.DATABASE_URL,
    schema: DB_SCHEMA,
    size: config.DB_POOL_SIZE,
    logger,
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const events = eventStreamOf(config);
  // Publishes APPLICATION_COMMAND_PERMISSIONS_UPDATE.
  const relay = startOutboxRelay({
    pool,
    schema: DB_SCHEMA,
    natsUrl: config.NATS_URL,
    logger,
    name: SERVICE_NAME,
    events,
  });
  const snowflakeLease = await holdSnowflakeProcessId(config.SNOWFLAKE_PROCESS_ID, { pool, logger });
  const snowflakes = createSnowflakeGenerator({
    workerId: config.SNOWFLAKE_WORKER_ID,
    processId: snowflakeLease.processId,
  });
  const commandPermissions = new CommandPermissionsStore(prisma);
  const channels = new ChannelStore(prisma, snowflakes);
  const contexts = new PermissionContextStore(prisma);
  const server = createServer({
    logger,
    guilds: new GuildStore(prisma, snowflakes),
    members: new MemberStore(prisma),
    bots: new BotMemberStore(prisma, snowflakes),
    channels,
    channelChanges: new ChannelChangeStore(prisma, channels, contexts),
    contexts,
    memberGuilds: new ListMemberGuildsStore(prisma),
    commandPermissions,
    dmChannels: new DmChannelStore(prisma, snowflakes),
    places: new GuildPlaceStore(pool),
    voice: new VoiceStore(prisma),
    isReady: async () => {
      await pool.query('SELECT 1');
      return true;
    },
  });
  // Deletes the rows of deleted and renamed commands (reads already hide them).
  const commandEvents = startCommandEventsConsumer({
    natsUrl: config.NATS_URL,
    events,
    store: commandPermissions,
    logger,
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  logger.info({ address: config.GRPC_ADDRESS, port }, 'permissions listening');
  reportListening({ grpc: port, ...(await telemetry.listening()) });

  installGracefulShutdown(
    logger,
    [
      { name: 'grpc', run: () => server.drain() },
      { name: 'command events consumer', run: () => commandEvents.stop() },
      { name: 'outbox relay', run: () => relay.stop() },
      { name: 'prisma', run: () => prisma.$disconnect() },
      { name: 'snowflake lease', run: () => snowflakeLease.release() },
      { name: 'database pool', run: () => pool.end() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
