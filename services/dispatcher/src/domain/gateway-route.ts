import type { BearerGrant } from './gateway-principal';
import { LOBBIES_SCOPE } from './identify-flow';
import { shardOf } from './shard-of';

/**
 * A dispatch for an application's bot sessions. `guildId` says which shard receives it:
 * the guild's shard; `null` for a DM, which only shard 0 receives (D:events/gateway.mdx
 * §Sharding); absent for every shard. `intent`, when set, is the intent a session must
 * have asked for to receive it (D:events/gateway.mdx §Gateway Intents).
 */
export interface BotDispatch {
  kind: 'dispatch';
  t: string;
  d: unknown;
  guildId?: string | null;
  intent?: number;
  /**
   * A GUILD_CREATE's: the channels the bot may view, so that sessions that asked for
   * channel obfuscation hide the others (and remember what they were told).
   */
  visibleChannelIds?: string[];
  /**
   * A guild channel's message: only sessions whose bot may view this channel receive it
   * (VIEW_CHANNEL, decided where the session lives).
   */
  channelId?: string;
  /**
   * What a session without the MESSAGE_CONTENT intent receives instead of `d` (the message
   * with its content blanked); absent when every session receives `d`.
   */
  withoutContent?: unknown;
}

/**
 * A guild channel's change for the bot sessions in that guild (on its shard, with GUILDS):
 * a CHANNEL_CREATE / _UPDATE / _DELETE, or `recheck` when only what the bots may view can
 * have changed (a role or a member's roles: `onGuildPermissionsChanged`). Sessions that
 * asked for obfuscation decide what they show where they are.
 */
export type GuildChannelMessage =
  | { kind: 'channel'; t: string; guildId: string; channel: Record<string, unknown> }
  | { kind: 'recheck'; guildId: string };

/** What reaches an application's bot sessions: a dispatch, or the end of every session (token reset). */
export type BotMessage = BotDispatch | { kind: 'invalidate' };

/** A dispatch for a user's sessions: only `sessionId` when set, else every session of the user. */
export interface UserDispatch {
  t: string;
  d: unknown;
  sessionId: string | null;
  /**
   * A lobby's dispatch: its application. A Bearer session receives it only when its token
   * was granted to that application with `sdk.social_layer`; a chat client's always.
   */
  lobbyOf?: string;
  /** Set: no dispatch, the sessions end with this close code (the user was deleted). */
  close?: { code: number; reason: string };
}

/**
 * A dispatch for every user session whose user may view a guild channel (VIEW_CHANNEL,
 * decided where the session lives: the replica that consumed the event does not know
 * which users are connected).
 */
export interface ChannelDispatch {
  t: string;
  d: unknown;
  guildId: string;
  channelId: string;
}

/** One dispatch of an event and whom it goes to. */
export type GatewayRoute =
  | { to: 'bot'; applicationId: string; message: BotMessage }
  | { to: 'user'; userId: string; message: UserDispatch }
  | { to: 'channel-viewers'; message: ChannelDispatch }
  | { to: 'guild-bots'; message: GuildChannelMessage };

/** What routing knows of a bot session: its shard (null: unsharded) and the intents it identified with. */
export interface BotSessionFacts {
  shard: readonly [number, number] | null;
  intents: number;
  /** Identify's `capabilities` (0 when absent). */
  capabilities?: number;
  /** Identify's `large_threshold` (50-250), for the GUILD_CREATE of a guild the bot joins. */
  largeThreshold?: number;
}

/** Whether a bot session receives a dispatch: it is on the dispatch's shard and has its intent. */
export function botSessionReceives(session: BotSessionFacts, dispatch: BotDispatch): boolean {
  if (dispatch.intent !== undefined && (session.intents & dispatch.intent) !== dispatch.intent) return false;
  const { shard } = session;
  if (!shard || dispatch.guildId === undefined) return true;
  if (dispatch.guildId === null) return shard[0] === 0;
  return shardOf(dispatch.guildId, shard[1]) === shard[0];
}

/** What routing knows of a user session: its id, and the Bearer token's grant when it identified with one. */
export interface UserSessionFacts {
  id: string;
  grant?: BearerGrant;
}

/**
 * Whether a user session receives a dispatch addressed to its user: one for every session
 * of the user or for this one; a lobby's only on a chat client's session or a Bearer
 * session of the lobby's application holding `sdk.social_layer` (a Social SDK client hears
 * of its own game's lobbies).
 */
export function userSessionReceives(session: UserSessionFacts, dispatch: UserDispatch): boolean {
  if (dispatch.sessionId !== null && dispatch.sessionId !== session.id) return false;
  const { grant } = session;
  if (dispatch.lobbyOf === undefined || !grant) return true;
  return grant.applicationId === dispatch.lobbyOf && grant.scopes.includes(LOBBIES_SCOPE);
}

/**
 * Whether a user session hears of guild channels' messages (those whose channel its user
 * may view): a chat client's does; a Bearer session's does not (its READY lists no guild
 * channels, and no Social SDK scope reads guild messages).
 */
export function userSessionFollowsChannels(session: UserSessionFacts): boolean {
  return !session.grant;
}
