import { VoiceStore } from '../../src/store/voice-store';
import { Pool } from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { serviceDatabaseUrl } from '@acs/service-kit';
import { createSnowflakeGenerator } from '@acs/snowflake';
import { createTestDatabase, type TestDatabase } from '@acs/testing';
import { DB_SCHEMA } from '../../src/config';
import { PrismaClient } from '../../src/generated/prisma/client';
import { BotMemberStore } from '../../src/store/bot-member-store';
import { ChannelChangeStore } from '../../src/store/channel-change-store';
import { ChannelStore } from '../../src/store/channel-store';
import { CommandPermissionsStore } from '../../src/store/command-permissions-store';
import { DmChannelStore } from '../../src/store/dm-channel-store';
import { GuildPlaceStore } from '../../src/store/guild-place-store';
import { GuildStore } from '../../src/store/guild-store';
import { ListMemberGuildsStore } from '../../src/store/list-member-guilds-store';
import { MemberStore } from '../../src/store/member-store';
import { PermissionContextStore } from '../../src/store/permission-context-store';

/** A fresh migrated database with the service's stores over it. */
export interface StoreFixture {
  database: TestDatabase;
  pool: Pool;
  prisma: PrismaClient;
  guilds: GuildStore;
  members: MemberStore;
  bots: BotMemberStore;
  channels: ChannelStore;
  channelChanges: ChannelChangeStore;
  contexts: PermissionContextStore;
  memberGuilds: ListMemberGuildsStore;
  commandPermissions: CommandPermissionsStore;
  dmChannels: DmChannelStore;
  places: GuildPlaceStore;
  voice: VoiceStore;
  close(): Promise<void>;
}

/** Creates a database of its own for one test file, with the permissions migrations applied. */
export async function createStoreFixture(): Promise<StoreFixture> {
  const database = await createTestDatabase(['permissions']);
  const pool = new Pool({ connectionString: serviceDatabaseUrl(database.url, DB_SCHEMA), max: 5 });
  // Dropping the database at the end terminates connections that are still closing.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const snowflakes = createSnowflakeGenerator({ workerId: 1, processId: 1 });
  const channels = new ChannelStore(prisma, snowflakes);
  const contexts = new PermissionContextStore(prisma);
  return {
    database,
    pool,
    prisma,
    guilds: new GuildStore(prisma, snowflakes),
    members: new MemberStore(prisma),
    bots: new BotMemberStore(prisma, snowflakes),
    channels,
    channelChanges: new ChannelChangeStore(prisma, channels, contexts),
    contexts,
    memberGuilds: new ListMemberGuildsStore(prisma),
    commandPermissions: new CommandPermissionsStore(prisma),
    dmChannels: new DmChannelStore(prisma, snowflakes),
    places: new GuildPlaceStore(pool),
    voice: new VoiceStore(prisma),
    async close() {
      await prisma.$disconnect();
      await pool.end();
      await database.drop();
    },
  };
}
