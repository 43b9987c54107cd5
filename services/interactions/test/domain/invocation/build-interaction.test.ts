import {
  attachmentSizeLimitOf,
  buildInteraction,
  decideAccess,
  invocationLocale,
  withoutToken,
  type InteractionInput,
} from '../../../src/domain/invocation';
import {
  ALL_PERMISSIONS,
  APP,
  CHANNEL,
  COMMAND,
  commandOf,
  dmPlaceOf,
  DM_CHANNEL,
  GUILD,
  partiesOf,
  placeOf,
  user,
  USER,
} from './fixtures';

const ID = '1700000000000000001';
const data = { id: COMMAND, name: 'ping', type: 1 };

function inputFor(guildId: string | null, overrides: Partial<InteractionInput> = {}): InteractionInput {
  const parties = partiesOf({ userInstalled: true });
  const place = guildId === null ? dmPlaceOf([USER, APP]) : placeOf();
  const command = commandOf({ integration_types: [0, 1] });
  return {
    id: ID,
    token: 'tok',
    type: 2,
    applicationId: APP,
    guildId,
    channelId: guildId === null ? DM_CHANNEL : CHANNEL,
    data,
    parties,
    place,
    access: decideAccess({ command, parties, place, applicationId: APP, userId: USER, guildId }),
    locale: 'de',
    ...overrides,
  };
}

describe('buildInteraction', () => {
  it('has every key of A1 in a guild, in the real order, with member.user and member.permissions', () => {
    const interaction = buildInteraction(inputFor(GUILD));
    expect(Object.keys(interaction)).toEqual([
      'id',
      'application_id',
      'type',
      'data',
      'guild',
      'guild_id',
      'channel',
      'channel_id',
      'member',
      'token',
      'version',
      'app_permissions',
      'locale',
      'guild_locale',
      'entitlements',
      'authorizing_integration_owners',
      'context',
      'attachment_size_limit',
    ]);
    expect(interaction).toMatchObject({
      id: ID,
      application_id: APP,
      type: 2,
      data,
      guild: { id: GUILD, features: ['COMMUNITY'], locale: 'fr' },
      guild_id: GUILD,
      channel: { id: CHANNEL, type: 0, permissions: ALL_PERMISSIONS },
      channel_id: CHANNEL,
      member: { roles: [], permissions: ALL_PERMISSIONS, user: user(USER, 'ada') },
      token: 'tok',
      version: 1,
      app_permissions: '2048',
      locale: 'de',
      guild_locale: 'fr',
      entitlements: [],
      authorizing_integration_owners: { '0': GUILD, '1': USER },
      context: 0,
      attachment_size_limit: 20 * 1024 * 1024,
    });
    expect(interaction.user).toBeUndefined();
  });

  it("shows the invoker's member as permissions stored it, and never makes one up", () => {
    const input = inputFor(GUILD);
    const stored = {
      nick: 'Ada L.',
      roles: ['1500000000000000077'],
      joined_at: '2026-01-01T00:00:00.000000+00:00',
      permissions: '3072',
    };
    const interaction = buildInteraction({ ...input, place: { ...input.place, member: stored } });
    expect(interaction.member).toEqual({ ...stored, user: user(USER, 'ada') });
    // A guild interaction without a member is a caller that skipped checkGuildPresence.
    expect(() => buildInteraction({ ...input, place: { ...input.place, member: null } })).toThrow(
      'an interaction in a guild is built for a member only',
    );
  });

  it("carries the invoker's entitlements as oauth rendered them, in its order", () => {
    const entitlements = [
      {
        id: '901',
        sku_id: '801',
        application_id: APP,
        user_id: USER,
        type: 1,
        deleted: false,
        consumed: false,
      },
      {
        id: '902',
        sku_id: '802',
        application_id: APP,
        guild_id: GUILD,
        type: 4,
        deleted: false,
        consumed: false,
      },
    ];
    const input = inputFor(GUILD);
    const interaction = buildInteraction({ ...input, parties: { ...input.parties, entitlements } });
    expect(interaction.entitlements).toEqual(entitlements);
    expect(Object.keys(interaction).indexOf('entitlements')).toBe(
      Object.keys(interaction).indexOf('guild_locale') + 1,
    );
  });

  it('has `user` and no guild keys in a DM, whose recipients it shows without the bot', () => {
    const interaction = buildInteraction(inputFor(null));
    expect(interaction).toMatchObject({
      user: user(USER, 'ada'),
      channel: { id: DM_CHANNEL, type: 1, recipients: [user(USER, 'ada')] },
      context: 1,
      authorizing_integration_owners: { '0': '0', '1': USER },
    });
    for (const key of ['guild', 'guild_id', 'member', 'guild_locale'])
      expect(interaction).not.toHaveProperty(key);
    expect(interaction.channel).not.toHaveProperty('recipient_ids');
  });

  it('stores the interaction without its token', () => {
    const stored = withoutToken(buildInteraction(inputFor(GUILD)));
    expect(stored).not.toHaveProperty('token');
    expect(stored.id).toBe(ID);
  });

  it("reads the upload limit from the guild's boost tier", () => {
    expect(attachmentSizeLimitOf(null)).toBe(20971520);
    expect(attachmentSizeLimitOf({ premium_tier: 1 })).toBe(20971520);
    expect(attachmentSizeLimitOf({ premium_tier: 2 })).toBe(52428800);
    expect(attachmentSizeLimitOf({ premium_tier: 3 })).toBe(104857600);
  });

  it("takes the request's locale, else the user's", () => {
    expect(invocationLocale('ja', 'de')).toBe('ja');
    expect(invocationLocale('', 'de')).toBe('de');
    expect(invocationLocale('', '')).toBe('en-US');
  });
});
