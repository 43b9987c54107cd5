import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderChannel } from '../../src/domain/render/render-channel';
import { renderGuild } from '../../src/domain/render/render-guild';
import { renderMember } from '../../src/domain/render/render-member';
import { renderRole } from '../../src/domain/render/render-role';
import type { Channel, Role } from '../../src/domain/guild-model';

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
const everyone: Role = {
  id: GUILD,
  guildId: GUILD,
  name: '@everyone',
  permissions: 1071698660929n,
  position: 0,
  botId: null,
};
const mods: Role = { id: '300', guildId: GUILD, name: 'mods', permissions: 32n, position: 1, botId: null };
const channel = (type: number, overrides: Partial<Channel> = {}): Channel => ({
  id: '400',
  guildId: GUILD,
  type,
  name: 'general',
  parentId: null,
  position: 2,
  overwrites: [{ id: GUILD, type: 0, allow: 0n, deny: 1024n }],
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  ...overrides,
});

describe('renderers', () => {
  it('renders a guild with every field of GuildResponse, roles by position', () => {
    const json = renderGuild(
      { id: GUILD, name: 'Demo', ownerId: '1', preferredLocale: 'fr', attachmentSizeLimit: null },
      [mods, everyone],
    );
    expect(Object.keys(json)).toEqual(expect.arrayContaining(requiredOf('GuildResponse')));
    expect(json).toMatchObject({
      id: GUILD,
      name: 'Demo',
      owner_id: '1',
      icon: null,
      features: [],
      preferred_locale: 'fr',
    });
    expect(json.roles.map((r) => r.id)).toEqual([GUILD, '300']);
  });

  it('renders a role with every field of GuildRoleResponse, permissions as a string', () => {
    const json = renderRole(everyone);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(requiredOf('GuildRoleResponse')));
    expect(json).toMatchObject({
      id: GUILD,
      name: '@everyone',
      permissions: '1071698660929',
      position: 0,
      color: 0,
      managed: false,
    });
    expect(json).not.toHaveProperty('tags');
  });

  it("renders a bot's managed role as managed, with tags.bot_id", () => {
    const json = renderRole({ ...mods, id: '301', name: 'Demo App', botId: '900' });
    expect(json).toMatchObject({ id: '301', name: 'Demo App', managed: true, tags: { bot_id: '900' } });
  });

  it('renders a member with every field of GuildMemberResponse', () => {
    const json = renderMember({
      guildId: GUILD,
      userId: '7',
      nick: null,
      roleIds: ['300'],
      joinedAt: new Date(0),
      communicationDisabledUntil: null,
    });
    expect(Object.keys(json)).toEqual(expect.arrayContaining(requiredOf('GuildMemberResponse')));
    expect(json).toMatchObject({
      user: { id: '7' },
      roles: ['300'],
      joined_at: '1970-01-01T00:00:00.000Z',
      deaf: false,
      communication_disabled_until: null,
    });
  });

  it("renders a member's timeout end as ISO8601, also once it has passed", () => {
    const json = renderMember({
      guildId: GUILD,
      userId: '7',
      nick: null,
      roleIds: [],
      joinedAt: new Date(0),
      communicationDisabledUntil: new Date(Date.UTC(2027, 0, 2, 3, 4, 5, 6)),
    });
    expect(json.communication_disabled_until).toBe('2027-01-02T03:04:05.006Z');
  });

  it('renders channels with every field of GuildChannelResponse, overwrites as strings', () => {
    for (const type of [0, 2, 4, 5, 13, 14, 15, 16]) {
      const json = renderChannel(channel(type), '1');
      expect(Object.keys(json)).toEqual(expect.arrayContaining(requiredOf('GuildChannelResponse')));
      expect(json.permission_overwrites).toEqual([{ id: GUILD, type: 0, allow: '0', deny: '1024' }]);
    }
  });

  it('renders threads with every field of ThreadResponse and no overwrites of their own', () => {
    for (const type of [10, 11, 12]) {
      const json = renderChannel(channel(type, { parentId: '399', overwrites: [] }), '1');
      expect(Object.keys(json)).toEqual(expect.arrayContaining(requiredOf('ThreadResponse')));
      expect(json).toMatchObject({ parent_id: '399', owner_id: '1', thread_metadata: { archived: false } });
      expect(json).not.toHaveProperty('permission_overwrites');
    }
  });
});
