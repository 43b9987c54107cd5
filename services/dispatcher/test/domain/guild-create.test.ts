import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  guildCreatePayload,
  guildCrowd,
  withCrowd,
  type GuildCreateSource,
} from '../../src/domain/guild-create';

// Discord's OpenAPI description (MIT), kept with the end-to-end tests.
const OPENAPI = path.resolve(__dirname, '../../../../test/fixtures/discord-openapi.json');
const schemas = (
  JSON.parse(fs.readFileSync(OPENAPI, 'utf8')) as {
    components: { schemas: Record<string, { required?: string[] }> };
  }
).components.schemas;

function requiredOf(schema: string): string[] {
  const required = schemas[schema]?.required;
  if (!required) throw new Error(`no schema ${schema}`);
  return required;
}

const GUILD = '100';
const JOINED_AT = '2026-01-01T00:00:00.000Z';
const botUser = { id: '900', username: 'Demo App', discriminator: '0000', bot: true };
const everyone = { id: GUILD, name: '@everyone', permissions: '1071698660929', position: 0 };
const text = {
  id: '401',
  type: 0,
  guild_id: GUILD,
  name: 'general',
  parent_id: null,
  position: 0,
  permission_overwrites: [{ id: GUILD, type: 0, allow: '0', deny: '2048' }],
};
const thread = { id: '402', type: 11, guild_id: GUILD, name: 'a thread', parent_id: '401' };

function source(overrides: Partial<GuildCreateSource> = {}): GuildCreateSource {
  return {
    guild: { id: GUILD, name: 'Demo Guild', owner_id: '1', roles: [everyone] },
    channels: [text, thread],
    botUser,
    joinedAt: JOINED_AT,
    ...overrides,
  };
}

describe('guildCreatePayload', () => {
  it('is the guild with the extra fields, its channels and threads, and the bot as member', () => {
    const d = guildCreatePayload(source());
    expect(d).toEqual({
      id: GUILD,
      name: 'Demo Guild',
      owner_id: '1',
      roles: [everyone],
      joined_at: JOINED_AT,
      large: false,
      member_count: 1,
      voice_states: [],
      members: [
        {
          user: botUser,
          nick: null,
          avatar: null,
          banner: null,
          roles: [],
          joined_at: JOINED_AT,
          premium_since: null,
          deaf: false,
          mute: false,
          flags: 0,
          pending: false,
          communication_disabled_until: null,
        },
      ],
      channels: [text],
      threads: [thread],
      presences: [],
      stage_instances: [],
      guild_scheduled_events: [],
      soundboard_sounds: [],
    });
  });

  it('says unavailable: false only when it fills in a guild of READY, as Discord does', () => {
    // A guild just joined: no `unavailable` (discord.py fires on_guild_join only then).
    expect(guildCreatePayload(source())).not.toHaveProperty('unavailable');
    expect(guildCreatePayload(source({ fillsReadyGuild: false }))).not.toHaveProperty('unavailable');
    // A guild READY listed as unavailable, now filled in (discord.py's on_guild_available).
    expect(guildCreatePayload(source({ fillsReadyGuild: true }))).toMatchObject({
      id: GUILD,
      unavailable: false,
    });
  });

  it('gives the bot member every field of GuildMemberResponse', () => {
    const members = guildCreatePayload(source()).members as Record<string, unknown>[];
    expect(members).toHaveLength(1);
    expect(Object.keys(members[0] ?? {})).toEqual(expect.arrayContaining(requiredOf('GuildMemberResponse')));
  });

  it("shows the bot's own timeout as permissions stores it", () => {
    const until = '2027-03-01T12:00:00.000Z';
    const members = guildCreatePayload(source({ viewerCommunicationDisabledUntil: until })).members as Array<
      Record<string, unknown>
    >;
    expect(members[0]?.communication_disabled_until).toBe(until);
    const none = guildCreatePayload(source({ viewerCommunicationDisabledUntil: null })).members as Array<
      Record<string, unknown>
    >;
    expect(none[0]?.communication_disabled_until).toBeNull();
  });

  it("gives the bot member its managed role, found by tags.bot_id, and no other bot's", () => {
    const managed = {
      id: '301',
      name: 'Demo App',
      permissions: '268435456',
      managed: true,
      tags: { bot_id: '900' },
    };
    const otherBot = { id: '302', name: 'Other', permissions: '8', managed: true, tags: { bot_id: '901' } };
    const plain = { id: '303', name: 'mods', permissions: '32', managed: false };
    const roles = [everyone, managed, otherBot, plain];
    const d = guildCreatePayload(source({ guild: { id: GUILD, roles } }));
    expect((d.members as { roles: unknown }[])[0]?.roles).toEqual(['301']);
    expect(d.roles).toEqual(roles);
  });

  it('sets guild_id on every channel and thread, and changes none of its input', () => {
    const bare = { id: '403', type: 2, name: 'voice', position: 1, permission_overwrites: [] };
    const input = source({ channels: [bare, { ...thread, guild_id: undefined }] });
    const before = JSON.stringify(input);
    const d = guildCreatePayload(input);
    expect(d.channels).toEqual([{ ...bare, guild_id: GUILD }]);
    expect(d.threads).toEqual([{ ...thread, guild_id: GUILD }]);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('lists announcement, public and private threads apart from the channels', () => {
    const types = [0, 2, 4, 5, 10, 11, 12, 13, 15, 16];
    const d = guildCreatePayload(
      source({ channels: types.map((type, i) => ({ id: String(500 + i), type })) }),
    );
    expect((d.channels as { type: number }[]).map((c) => c.type)).toEqual([0, 2, 4, 5, 13, 15, 16]);
    expect((d.threads as { type: number }[]).map((c) => c.type)).toEqual([10, 11, 12]);
  });

  it("counts the guild's members whatever is listed, never fewer than those listed", () => {
    expect(guildCreatePayload(source()).member_count).toBe(1);
    // Without a crowd (no GUILD_PRESENCES) the count is still the guild's.
    const counted = guildCreatePayload(source({ memberCount: 7 }));
    expect(counted).toMatchObject({ member_count: 7, members: [{ user: botUser }] });
    // A count of 0 (a permissions replica that does not count) falls back to those listed.
    expect(guildCreatePayload(source({ memberCount: 0 })).member_count).toBe(1);
  });
});

describe('guildCrowd', () => {
  const member = (id: string, extra: Record<string, unknown> = {}) => ({
    user: { id, username: `user${id}` },
    nick: null,
    roles: [] as string[],
    ...extra,
  });
  const presence = (id: string, status: string) => ({
    user: { id },
    guild_id: GUILD,
    status,
    activities: [],
  });
  const members = [
    member(botUser.id, { roles: ['7'] }),
    member('1'),
    member('2', { roles: ['5'] }),
    member('3', { nick: 'Three' }),
    member('4'),
  ];
  const presences = [presence('4', 'idle'), presence(botUser.id, 'online')];

  it('lists every member besides the bot, up to large_threshold members, and the presences as given', () => {
    const crowd = guildCrowd(members, presences, botUser.id, 5);
    expect(crowd.large).toBe(false);
    expect(crowd.members.map((m) => m.user.id)).toEqual(['1', '2', '3', '4']);
    expect(crowd.presences).toEqual(presences);
  });

  it('lists, in a large guild, only the members online, with a role or with a nickname', () => {
    const crowd = guildCrowd(members, presences, botUser.id, 4);
    expect(crowd.large).toBe(true);
    expect(crowd.members.map((m) => m.user.id)).toEqual(['2', '3', '4']);
  });

  it('goes into GUILD_CREATE after the bot member, with large and presences', () => {
    const d = guildCreatePayload(source({ crowd: guildCrowd(members, presences, botUser.id, 4) }));
    expect((d.members as Array<{ user: { id: string } }>).map((m) => m.user.id)).toEqual([
      botUser.id,
      '2',
      '3',
      '4',
    ]);
    expect(d).toMatchObject({ large: true, presences, member_count: 5 });
    const both = source({ memberCount: 6, crowd: guildCrowd(members, presences, botUser.id, 4) });
    expect(guildCreatePayload(both).member_count).toBe(6);
    expect(guildCreatePayload(source())).toMatchObject({ large: false, presences: [] });
  });

  it('withCrowd gives a GUILD_CREATE built without a crowd what guildCreatePayload gives it with one', () => {
    const crowd = guildCrowd(members, presences, botUser.id, 50);
    const shared = guildCreatePayload(source({ memberCount: 5 }));
    expect(withCrowd(shared, crowd)).toEqual(guildCreatePayload(source({ memberCount: 5, crowd })));
    expect(shared).toMatchObject({ large: false, presences: [], members: [{ user: botUser }] });
  });
});
