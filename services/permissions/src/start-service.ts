import { PrismaPg } from '@prisma/adapter-pg';
import { eventStreamOf } from '@acs/events';
import { startServiceRuntime, type Telemetry } from '@acs/service-kit';
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
  // The relay publishes APPLICATION_COMMAND_PERMISSIONS_UPDATE.
  const runtime = await startServiceRuntime(SERVICE_NAME, config, telemetry, {
    database: { schema: DB_SCHEMA, snowflakes: true, outbox: true },
  });
  const { logger, pool, ids: snowflakes } = runtime;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const events = eventStreamOf(config);
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
    isReady: () => runtime.databaseAnswers(),
  });
  // Deletes the rows of deleted and renamed commands (reads already hide them).
  const commandEvents = startCommandEventsConsumer({
    natsUrl: config.NATS_URL,
    events,
    store: commandPermissions,
    logger,
  });
  const port = await server.listen(config.GRPC_ADDRESS);
  await runtime.reportListening({ grpc: port }, { address: config.GRPC_ADDRESS, port });

  runtime.onShutdown('grpc', () => server.drain());
  runtime.onShutdown('command events consumer', () => commandEvents.stop());
  runtime.onShutdown('prisma', () => prisma.$disconnect(), 'connections');
  runtime.installShutdown();
}
