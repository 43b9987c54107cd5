import { Close, Op, type CloseCode } from './gateway-codes';
import type { IdentifyRequest, TokenPrefix } from './decide-inbound';
import type { BearerGrant, GatewayPrincipal } from './gateway-principal';
import { payload, type GatewayPayload } from './gateway-payload';
import { identifyRefusal, type IdentifyDecision, type IdentifyLimits } from './identify-limits';
import { disallowedIntents } from './privileged-intents';
import { shardOf } from './shard-of';

/**
 * The Identify flow's decisions (D:events/gateway.mdx §Identifying; UD:gateway/gateway-events.mdx
 * §Identify), as pure functions of what the connection has read: which token lookups to
 * make, whose token it is, what the principal's Identify starts, which of a bot's guilds
 * its shard gets, and how a refused Identify ends. `GatewayConnection` carries them out.
 */

/** Which of oauth's token lookups a token goes through. */
export type TokenLookup = 'bot' | 'user-session' | 'bearer';

/** What one lookup found. */
export type TokenAnswer =
  | { kind: 'bot'; applicationId: string }
  | { kind: 'user-session'; userId: string }
  | { kind: 'bearer'; applicationId: string; userId: string; scopes: readonly string[] };

/**
 * The scopes of which a Bearer token must hold one to connect: both Social SDK umbrella
 * scopes expand to `gateway.connect` (UD, D:discord-social-sdk/core-concepts/oauth2-scopes.mdx;
 * `sdk.social_layer` includes `sdk.social_layer_presence`).
 */
export const GATEWAY_SCOPES: readonly string[] = ['sdk.social_layer', 'sdk.social_layer_presence'];

/** The scope under which a Bearer session is told of its application's lobbies (LOBBY_*). */
export const LOBBIES_SCOPE = 'sdk.social_layer';

/** The scope under which a Bearer session's READY lists the user's guilds (as `GET /users/@me/guilds`). */
export const GUILDS_SCOPE = 'guilds';

/**
 * The lookups a token needs, in order, until one finds it. `Bot ` settles it: a bot's.
 * `Bearer `: an OAuth2 access token. A bare token is a bot's as often as not (discord.js
 * and discord.py send it bare), else a chat client's session token; a bare Bearer token
 * is not looked up (ACS's choice: Discord documents no bare form, and a third lookup would
 * cost every bad token).
 */
export function tokenLookups(prefix: TokenPrefix): readonly TokenLookup[] {
  if (prefix === 'Bot') return ['bot'];
  if (prefix === 'Bearer') return ['bearer'];
  return ['bot', 'user-session'];
}

/**
 * Whose token it is, or undefined (4004 Authentication failed): a bot, a user's chat
 * client, or a user through a Bearer token that holds one of `GATEWAY_SCOPES`. oauth
 * finds no token that is unknown, revoked or expired.
 */
export function principalOf(answer: TokenAnswer | undefined): GatewayPrincipal | undefined {
  switch (answer?.kind) {
    case undefined:
      return undefined;
    case 'bot':
      return { kind: 'bot', applicationId: answer.applicationId };
    case 'user-session':
      return { kind: 'user', userId: answer.userId };
    case 'bearer': {
      if (!answer.userId || !answer.scopes.some((scope) => GATEWAY_SCOPES.includes(scope))) return undefined;
      const grant: BearerGrant = { applicationId: answer.applicationId, scopes: answer.scopes };
      return { kind: 'user', userId: answer.userId, grant };
    }
  }
}

/** What an Identify of a known principal goes on to, or the close it ends with. */
export type IdentifyStart =
  | { kind: 'close'; close: CloseCode }
  | { kind: 'bot'; applicationId: string; intents: number }
  | { kind: 'user'; principal: Extract<GatewayPrincipal, { kind: 'user' }> };

/**
 * What an Identify is before its token is looked up: a `Bot ` token without intents
 * closes 4013 at once (D:events/gateway.mdx §Gateway Intents); anything else needs the
 * lookups of `tokenLookups`.
 */
export function identifyBeforeLookup(
  request: IdentifyRequest,
): { kind: 'close'; close: CloseCode } | undefined {
  return request.prefix === 'Bot' && request.intents === null
    ? { kind: 'close', close: Close.INVALID_INTENTS }
    : undefined;
}

/**
 * What the Identify of `principal` starts: no principal → 4004; a bot without intents →
 * 4013; a user's client (chat client or Social SDK) needs no intents nor shard (its
 * `capabilities` are accepted and ignored).
 */
export function identifyAs(request: IdentifyRequest, principal: GatewayPrincipal | undefined): IdentifyStart {
  if (!principal) return { kind: 'close', close: Close.AUTHENTICATION_FAILED };
  if (principal.kind === 'user') return { kind: 'user', principal };
  if (request.intents === null) return { kind: 'close', close: Close.INVALID_INTENTS };
  return { kind: 'bot', applicationId: principal.applicationId, intents: request.intents };
}

/** What a bot's Identify is checked against: its application flags and guilds as they are now. */
export interface BotIdentifyFacts {
  applicationFlags: number;
  guildIds: readonly string[];
  /** From this many guilds on, only an intent's full flag grants it. */
  privilegedIntentsGuildThreshold: number;
}

/**
 * A bot's Identify once its application is known: a privileged intent it was not granted
 * closes 4014 (D:events/gateway.mdx §Privileged Intents), before the Identify counts;
 * else the guilds of its shard (all without one; `shardOf`, D:events/gateway.mdx §Sharding).
 */
export function decideBotIdentify(
  intents: number,
  shard: readonly [number, number] | null,
  facts: BotIdentifyFacts,
): { kind: 'close'; close: CloseCode } | { kind: 'start'; guildIds: string[] } {
  const refused = disallowedIntents(
    intents,
    facts.applicationFlags,
    facts.guildIds.length,
    facts.privilegedIntentsGuildThreshold,
  );
  if (refused !== 0) return { kind: 'close', close: Close.DISALLOWED_INTENTS };
  const guildIds = shard
    ? facts.guildIds.filter((id) => shardOf(id, shard[1]) === shard[0])
    : [...facts.guildIds];
  return { kind: 'start', guildIds };
}

/**
 * An Identify over the limits (D:events/gateway.mdx §Rate Limiting): Invalid Session
 * (`d: false`), then the socket closes with 4008 and a reason, so that a client ignoring
 * op 9 cannot hold it. Over the day's total Discord resets the token; ACS refuses instead.
 * Undefined when the Identify was granted.
 */
export function refusedIdentify(
  limits: IdentifyLimits,
  decision: IdentifyDecision,
): { send: GatewayPayload; close: { code: number; reason: string } } | undefined {
  if (decision.granted) return undefined;
  return { send: payload(Op.INVALID_SESSION, false), close: identifyRefusal(limits, decision) };
}

/** What a user's READY lists for a principal: the guilds (a chat client's, or a Bearer token with `guilds`). */
export function userReadyLists(principal: Extract<GatewayPrincipal, { kind: 'user' }>): { guilds: boolean } {
  return { guilds: !principal.grant || principal.grant.scopes.includes(GUILDS_SCOPE) };
}
