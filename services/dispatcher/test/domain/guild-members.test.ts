import { decideInbound } from '../../src/domain/decide-inbound';
import { Close, Intent } from '../../src/domain/gateway-codes';
import { guildMembersChunks, matchesQuery } from '../../src/domain/guild-members-chunks';
import { planGuildEvent, type GuildEvent } from '../../src/domain/plan-guild-event';
import { disallowedIntents } from '../../src/domain/privileged-intents';
import { readRequestGuildMembers } from '../../src/domain/read-request-guild-members';

const GUILD = '1300000000000000001';

describe('readRequestGuildMembers (op 8)', () => {
  it('reads a query with its limit, or user ids (one or many, the first 100), and a nonce of ≤ 32 bytes', () => {
    expect(readRequestGuildMembers({ guild_id: GUILD, query: '', limit: 0 })).toEqual({
      guildId: GUILD,
      query: '',
      limit: 0,
      presences: false,
      userIds: null,
      nonce: null,
    });
    expect(
      readRequestGuildMembers({ guild_id: GUILD, user_ids: '42', nonce: 'n', presences: true }),
    ).toMatchObject({
      userIds: ['42'],
      nonce: 'n',
      presences: true,
      query: null,
    });
    const many = Array.from({ length: 150 }, (_, i) => String(1000 + i));
    expect(readRequestGuildMembers({ guild_id: GUILD, user_ids: many })?.userIds).toHaveLength(100);
    expect(
      readRequestGuildMembers({ guild_id: GUILD, query: 'a', limit: 5, nonce: 'x'.repeat(33) })?.nonce,
    ).toBeNull();
    expect(readRequestGuildMembers({ guild_id: GUILD, query: 'a', limit: 5, nonce: 7 })?.nonce).toBeNull();
  });

  it.each([
    ['no object', 'x'],
    ['no guild', { query: '', limit: 0 }],
    ['several guilds', { guild_id: [GUILD], query: '', limit: 0 }],
    ['a guild id past 2^63', { guild_id: '18446744073709551616', query: '', limit: 0 }],
    ['neither query nor user_ids', { guild_id: GUILD }],
    ['a query without limit', { guild_id: GUILD, query: '' }],
    ['a negative limit', { guild_id: GUILD, query: '', limit: -1 }],
    ['a fractional limit', { guild_id: GUILD, query: '', limit: 1.5 }],
    ['a query that is no string', { guild_id: GUILD, query: 5, limit: 1 }],
    ['a NUL in the query', { guild_id: GUILD, query: 'a\u0000', limit: 1 }],
    ['user ids that are no snowflakes', { guild_id: GUILD, user_ids: ['x'] }],
    ['presences that is no boolean', { guild_id: GUILD, query: '', limit: 0, presences: 'yes' }],
  ])('refuses %s (4001 once identified)', (_what, d) => {
    expect(readRequestGuildMembers(d)).toBeNull();
    expect(decideInbound('ready', JSON.stringify({ op: 8, d }))).toEqual({
      kind: 'close',
      close: Close.UNKNOWN_OPCODE,
    });
  });

  it('is 4003 before Identify', () => {
    const text = JSON.stringify({ op: 8, d: { guild_id: GUILD, query: '', limit: 0 } });
    expect(decideInbound('hello', text)).toEqual({ kind: 'close', close: Close.NOT_AUTHENTICATED });
    expect(decideInbound('ready', text).kind).toBe('request-guild-members');
  });
});

describe('guildMembersChunks', () => {
  const member = (id: number) => ({ user: { id: String(id) }, nick: null, roles: [] });

  it('cuts 1,000 members a chunk, each with its index, the count, not_found and the nonce', () => {
    const members = Array.from({ length: 2001 }, (_, i) => member(i + 1));
    const chunks = guildMembersChunks(members, { guildId: GUILD, notFound: null, nonce: 'n' });
    expect(chunks.map((c) => [c.members.length, c.chunk_index, c.chunk_count, c.nonce])).toEqual([
      [1000, 0, 3, 'n'],
      [1000, 1, 3, 'n'],
      [1, 2, 3, 'n'],
    ]);
    expect(chunks[0]).not.toHaveProperty('not_found');
  });

  it('answers no member with one empty chunk', () => {
    expect(guildMembersChunks([], { guildId: GUILD, notFound: ['9'], nonce: null })).toEqual([
      { guild_id: GUILD, members: [], chunk_index: 0, chunk_count: 1, not_found: ['9'] },
    ]);
  });

  it('matches a query against username, global name and nick, case-insensitively', () => {
    const m = { nick: 'Captain', user: { id: '1', username: 'alice', global_name: 'Ally' } };
    expect(['AL', 'all', 'cap', 'alice'].map((q) => matchesQuery(m, q))).toEqual([true, true, true, true]);
    expect(matchesQuery(m, 'bob')).toBe(false);
  });
});

describe('disallowedIntents (privileged intents)', () => {
  const MEMBERS = 1 << 14;
  const MEMBERS_LIMITED = 1 << 15;
  const PRESENCE_LIMITED = 1 << 13;
  const CONTENT = 1 << 18;

  it('allows what is not privileged, and a privileged intent its full or (below the threshold) limited flag grants', () => {
    expect(disallowedIntents(Intent.GUILDS | Intent.GUILD_MESSAGES, 0, 5, 100)).toBe(0);
    expect(disallowedIntents(Intent.GUILD_MEMBERS, 0, 5, 100)).toBe(Intent.GUILD_MEMBERS);
    expect(disallowedIntents(Intent.GUILD_MEMBERS, MEMBERS_LIMITED, 99, 100)).toBe(0);
    expect(disallowedIntents(Intent.GUILD_MEMBERS, MEMBERS, 500, 100)).toBe(0);
    expect(disallowedIntents(Intent.GUILD_PRESENCES, PRESENCE_LIMITED, 1, 100)).toBe(0);
    expect(disallowedIntents(Intent.MESSAGE_CONTENT, CONTENT, 1, 100)).toBe(0);
  });

  it('needs the full flag from the threshold on', () => {
    expect(disallowedIntents(Intent.GUILD_MEMBERS, MEMBERS_LIMITED, 100, 100)).toBe(Intent.GUILD_MEMBERS);
    expect(
      disallowedIntents(
        Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT,
        MEMBERS,
        100,
        100,
      ),
    ).toBe(Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT);
  });
});

describe('planGuildEvent', () => {
  const event = (name: GuildEvent['name'], data: unknown) => ({ name, data }) as unknown as GuildEvent;
  const member = { user: { id: '7' }, nick: null, roles: ['5'], joined_at: '2026-01-01T00:00:00.000Z' };
  const user = { id: '7', username: 'seven' };

  it('sends GUILD_MEMBER_ADD with the full user and guild_id to the other bots, for GUILD_MEMBERS', () => {
    const routes = planGuildEvent(
      event('permissions.member.added', { guild_id: GUILD, user_id: '7', bot: true, member }),
      ['7', '8'],
      user,
    );
    expect(routes).toEqual([
      {
        to: 'bot',
        applicationId: '8',
        message: {
          kind: 'dispatch',
          t: 'GUILD_MEMBER_ADD',
          d: { ...member, user, guild_id: GUILD },
          guildId: GUILD,
          intent: Intent.GUILD_MEMBERS,
        },
      },
    ]);
  });

  it('sends a bot its own GUILD_MEMBER_UPDATE whatever its intents', () => {
    const routes = planGuildEvent(
      event('permissions.member.updated', { guild_id: GUILD, user_id: '7', bot: true, member }),
      ['7', '8'],
      user,
    );
    expect(
      routes.map((r) => (r.to === 'bot' && r.message.kind === 'dispatch' ? r.message.intent : null)),
    ).toEqual([undefined, Intent.GUILD_MEMBERS]);
  });

  it('sends GUILD_MEMBER_REMOVE {guild_id, user} and the role events for GUILDS', () => {
    const [remove] = planGuildEvent(
      event('permissions.member.removed', { guild_id: GUILD, user_id: '7', bot: false }),
      ['8'],
      undefined,
    );
    expect(remove).toMatchObject({
      message: { t: 'GUILD_MEMBER_REMOVE', d: { guild_id: GUILD, user: { id: '7' } } },
    });
    const [deleted] = planGuildEvent(
      event('permissions.role.deleted', { guild_id: GUILD, role_id: '5' }),
      ['8'],
      undefined,
    );
    expect(deleted).toMatchObject({
      message: { t: 'GUILD_ROLE_DELETE', d: { guild_id: GUILD, role_id: '5' }, intent: Intent.GUILDS },
    });
  });
});
