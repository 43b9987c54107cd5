import type { IdentifyRequest } from '../../src/domain/decide-inbound';
import { userSessionFollowsChannels, userSessionReceives } from '../../src/domain/gateway-route';
import {
  decideBotIdentify,
  identifyAs,
  identifyBeforeLookup,
  principalOf,
  refusedIdentify,
  tokenLookups,
  userReadyLists,
} from '../../src/domain/identify-flow';
import type { IdentifyLimits } from '../../src/domain/identify-limits';
import { readyPayload } from '../../src/domain/ready';
import { shardOf } from '../../src/domain/shard-of';

const APP = '1100000000000000001';
const OTHER_APP = '1100000000000000002';
const USER = '1200000000000000001';
const GUILD = '1300000000000000001';

const request = (over: Partial<IdentifyRequest> = {}): IdentifyRequest => ({
  token: 't',
  prefix: null,
  intents: 513,
  shard: null,
  presence: undefined,
  capabilities: 0,
  largeThreshold: 50,
  ...over,
});

describe('the token of an Identify or a Resume', () => {
  it('is looked up as its prefix says: Bot → bot, Bearer → access token, bare → bot then session', () => {
    expect(tokenLookups('Bot')).toEqual(['bot']);
    expect(tokenLookups('Bearer')).toEqual(['bearer']);
    expect(tokenLookups(null)).toEqual(['bot', 'user-session']);
  });

  it('names a bot, a chat client, or a Bearer token holding a Social SDK scope; anything else is no one (4004)', () => {
    expect(principalOf(undefined)).toBeUndefined();
    expect(principalOf({ kind: 'bot', applicationId: APP })).toEqual({ kind: 'bot', applicationId: APP });
    expect(principalOf({ kind: 'user-session', userId: USER })).toEqual({ kind: 'user', userId: USER });
    const bearer = (scopes: string[], userId = USER) =>
      principalOf({ kind: 'bearer', applicationId: APP, userId, scopes });
    expect(bearer(['identify', 'sdk.social_layer'])).toEqual({
      kind: 'user',
      userId: USER,
      grant: { applicationId: APP, scopes: ['identify', 'sdk.social_layer'] },
    });
    expect(bearer(['openid', 'sdk.social_layer_presence'])).toMatchObject({ grant: { applicationId: APP } });
    expect(bearer(['identify', 'guilds', 'email'])).toBeUndefined();
    expect(bearer([])).toBeUndefined();
    // A client-credentials token acts for no user.
    expect(bearer(['sdk.social_layer'], '')).toBeUndefined();
  });
});

describe('what an Identify starts', () => {
  it('closes 4013 at once for a Bot token without intents, before any lookup', () => {
    expect(identifyBeforeLookup(request({ prefix: 'Bot', intents: null }))).toMatchObject({
      close: { code: 4013 },
    });
    expect(identifyBeforeLookup(request({ prefix: 'Bot', intents: 0 }))).toBeUndefined();
    expect(identifyBeforeLookup(request({ prefix: null, intents: null }))).toBeUndefined();
    expect(identifyBeforeLookup(request({ prefix: 'Bearer', intents: null }))).toBeUndefined();
  });

  it('closes 4004 for no one and 4013 for a bot without intents; a user needs no intents', () => {
    expect(identifyAs(request(), undefined)).toMatchObject({ kind: 'close', close: { code: 4004 } });
    const bot = { kind: 'bot', applicationId: APP } as const;
    expect(identifyAs(request({ intents: null }), bot)).toMatchObject({ close: { code: 4013 } });
    expect(identifyAs(request({ intents: 0 }), bot)).toEqual({ kind: 'bot', applicationId: APP, intents: 0 });
    const user = { kind: 'user', userId: USER } as const;
    expect(identifyAs(request({ intents: null, capabilities: 16381 }), user)).toEqual({
      kind: 'user',
      principal: user,
    });
  });

  it("closes a bot's 4014 for a privileged intent it lacks, else gives it its shard's guilds", () => {
    const guildIds = ['1300000000000000001', '1300000000004194304', '1300000000008388608'];
    const facts = { applicationFlags: 1 << 13, guildIds, privilegedIntentsGuildThreshold: 100 };
    // GUILD_MEMBERS (1 << 1) needs GUILD_MEMBERS or its _LIMITED flag; only GATEWAY_PRESENCE_LIMITED is set.
    expect(decideBotIdentify(1 << 1, null, facts)).toMatchObject({ kind: 'close', close: { code: 4014 } });
    expect(decideBotIdentify(1 << 8, null, facts)).toEqual({ kind: 'start', guildIds });
    // At the threshold a _LIMITED flag no longer grants it.
    expect(decideBotIdentify(1 << 8, null, { ...facts, privilegedIntentsGuildThreshold: 3 })).toMatchObject({
      close: { code: 4014 },
    });
    const shard = [1, 2] as const;
    const started = decideBotIdentify(1, shard, facts);
    expect(started).toEqual({ kind: 'start', guildIds: guildIds.filter((id) => shardOf(id, 2) === 1) });
    expect(started.kind === 'start' && started.guildIds.length).toBeGreaterThan(0);
  });

  it('answers an Identify over the limits with Invalid Session then 4008 naming the limit', () => {
    const limits: IdentifyLimits = {
      total: 10,
      windowMs: 1000,
      maxConcurrency: 1,
      concurrencyWindowMs: 5000,
    };
    expect(refusedIdentify(limits, { granted: true })).toBeUndefined();
    expect(refusedIdentify(limits, { granted: false, limit: 'total', retryAfterMs: 2500 })).toEqual({
      send: { op: 9, d: false, s: null, t: null },
      close: { code: 4008, reason: 'Rate limited: all 10 session starts used; retry in 3 s.' },
    });
  });

  it("lists a user's guilds in READY for a chat client, and for a Bearer token only with `guilds`", () => {
    expect(userReadyLists({ kind: 'user', userId: USER })).toEqual({ guilds: true });
    const grant = (scopes: string[]) =>
      ({ kind: 'user', userId: USER, grant: { applicationId: APP, scopes } }) as const;
    expect(userReadyLists(grant(['sdk.social_layer']))).toEqual({ guilds: false });
    expect(userReadyLists(grant(['sdk.social_layer', 'guilds']))).toEqual({ guilds: true });
  });
});

describe('what a Bearer session hears', () => {
  const lobbyMessage = (application: string) => ({
    t: 'LOBBY_MESSAGE_CREATE',
    d: {},
    sessionId: null,
    lobbyOf: application,
  });
  const social = { id: 's', grant: { applicationId: APP, scopes: ['sdk.social_layer'] } };
  it("hears its own application's lobbies with sdk.social_layer; a chat client hears every lobby", () => {
    expect(userSessionReceives(social, lobbyMessage(APP))).toBe(true);
    expect(userSessionReceives(social, lobbyMessage(OTHER_APP))).toBe(false);
    const presenceOnly = { id: 's', grant: { applicationId: APP, scopes: ['sdk.social_layer_presence'] } };
    expect(userSessionReceives(presenceOnly, lobbyMessage(APP))).toBe(false);
    expect(userSessionReceives({ id: 's' }, lobbyMessage(OTHER_APP))).toBe(true);
    // What is not a lobby's (USER_UPDATE, the end of the user) reaches every session of the user.
    expect(userSessionReceives(social, { t: 'USER_UPDATE', d: {}, sessionId: null })).toBe(true);
    expect(userSessionReceives(social, { t: 'USER_UPDATE', d: {}, sessionId: 'other' })).toBe(false);
  });

  it("does not follow guild channels' messages; a chat client does", () => {
    expect(userSessionFollowsChannels(social)).toBe(false);
    expect(userSessionFollowsChannels({ id: 's' })).toBe(true);
  });
});

describe('readyPayload', () => {
  const session = { sessionId: 's1', resumeGatewayUrl: 'ws://gateway' };
  const common = {
    v: 10,
    user_settings: {},
    session_id: 's1',
    session_type: 'normal',
    resume_gateway_url: 'ws://gateway',
    private_channels: [],
    relationships: [],
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    auth: {},
    _trace: ['acs-dispatcher'],
  };

  it("a bot's: its shard's guilds unavailable, its application, its shard", () => {
    const botUser = { id: APP, username: 'bot', bot: true };
    expect(
      readyPayload({
        kind: 'bot',
        user: botUser,
        guildIds: [GUILD],
        shard: [0, 2],
        application: { id: APP, flags: 1 << 12 },
        ...session,
      }),
    ).toEqual({
      ...common,
      user: botUser,
      guilds: [{ id: GUILD, unavailable: true }],
      shard: [0, 2],
      application: { id: APP, flags: 1 << 12 },
    });
    const unsharded = readyPayload({
      kind: 'bot',
      user: botUser,
      guildIds: [],
      shard: null,
      application: { id: APP, flags: 0 },
      ...session,
    });
    expect(unsharded).not.toHaveProperty('shard');
    expect(unsharded.guilds).toEqual([]);
  });

  it("a user's: the user whole, their guilds available, no application", () => {
    const ready = readyPayload({
      kind: 'user',
      user: { id: USER, email: 'a@example.com' },
      guilds: [{ id: GUILD, name: 'Guild' }],
      ...session,
    });
    expect(ready).toEqual({
      ...common,
      user: { id: USER, email: 'a@example.com' },
      guilds: [{ id: GUILD, name: 'Guild', unavailable: false }],
    });
    expect(ready).not.toHaveProperty('application');
  });
});
