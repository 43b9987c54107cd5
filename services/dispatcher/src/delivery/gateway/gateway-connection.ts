import { constants as zlibConstants, createDeflate, type Deflate } from 'node:zlib';
import type { WebSocket } from 'ws';
import type { Logger } from '@acs/service-kit';
import type { OAuthClient } from '../../clients/oauth-client';
import type { PermissionsClient } from '../../clients/permissions-client';
import { channelInfoPayload } from '../../domain/channel-info';
import {
  decideInbound,
  type ChannelInfoCommand,
  type ConnectionPhase,
  type IdentifyRequest,
  type ResumeRequest,
  type VoiceStateCommand,
} from '../../domain/decide-inbound';
import {
  Close,
  GATEWAY_VERSION,
  Intent,
  MAX_SENDS_PER_WINDOW,
  Op,
  SEND_WINDOW_MS,
  type CloseCode,
} from '../../domain/gateway-codes';
import { payload, type GatewayPayload } from '../../domain/gateway-payload';
import type { GatewayPrincipal } from '../../domain/gateway-principal';
import { CROWDED_GUILD_SIZE, guildCreatePayload, type GuildCrowd } from '../../domain/guild-create';
import { identifyRefusal, rateLimitKey, type IdentifyDecision } from '../../domain/identify-limits';
import { SendWindow } from '../../domain/send-window';
import { shardOf } from '../../domain/shard-of';
import { OFFLINE_PRESENCE, readPresence, type Presence } from '../../domain/presence';
import { userReadyPayload } from '../../domain/user-ready';
import { disallowedIntents } from '../../domain/privileged-intents';
import type { RequestGuildMembers } from '../../domain/read-request-guild-members';
import type { IdentifyStore } from '../../store/identify-store';
import type { PresenceAnnouncer } from './presence-announcer';
import { answerMemberRequest, crowdOf, type MemberRequestContext } from './answer-member-request';
import type { Session, SessionRegistry, SessionSink } from './session-registry';

/** What every connection shares. */
export interface ConnectionContext extends MemberRequestContext {
  registry: SessionRegistry;
  oauth: OAuthClient;
  permissions: PermissionsClient;
  /** Where Identifies are decided and counted against the limits, across replicas. */
  identifies: IdentifyStore;
  logger: Logger;
  heartbeatIntervalMs: number;
  /** A socket that sends neither Identify nor Resume within this is closed (4003). */
  identifyTimeoutMs: number;
  /** READY's resume_gateway_url. */
  publicUrl: string;
  /** Sets sessions' presences and announces them to the guilds' bots. */
  presences: PresenceAnnouncer;
  /** From this many guilds on, only an intent's full application flag grants it (not its _LIMITED one). */
  privilegedIntentsGuildThreshold: number;
}

/**
 * One WebSocket of the gateway (D:events/gateway.mdx): Hello at once; then Identify
 * (a bot's: READY and a GUILD_CREATE per guild; a user's chat client: READY with its
 * guilds) or Resume (the missed dispatches, then RESUMED);
 * Heartbeat → ACK, and a connection that stops heartbeating is closed (4009); more than
 * 120 payloads a minute → 4008; an Identify over the bot's (or user's) limits → 4008; neither
 * Identify nor Resume in time → 4003. The protocol decisions are `decideInbound`'s.
 */
export class GatewayConnection implements SessionSink {
  private phase: ConnectionPhase = 'hello';
  private session: Session | undefined;
  private heartbeatDeadline: NodeJS.Timeout | undefined;
  private identifyDeadline: NodeJS.Timeout | undefined;
  private readonly sends = new SendWindow(MAX_SENDS_PER_WINDOW, SEND_WINDOW_MS);
  private readonly deflate: Deflate | undefined;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: ConnectionContext,
    options: { compress: boolean },
  ) {
    if (options.compress) {
      // zlib-stream: one deflate context for the connection, flushed after each payload.
      const deflate = createDeflate({ chunkSize: 64 * 1024 });
      const chunks: Buffer[] = [];
      deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.deflate = deflate;
      this.flushCompressed = () => {
        const data = Buffer.concat(chunks.splice(0));
        if (data.length > 0 && this.socket.readyState === this.socket.OPEN) this.socket.send(data);
      };
    }
    socket.on('message', (data, isBinary) => this.onMessage(isBinary ? undefined : data.toString()));
    socket.on('close', (code) => {
      // A client closing with 1000 or 1001 ends its session (D:events/gateway.mdx Resuming).
      if ((code === 1000 || code === 1001) && this.session) {
        this.context.registry.destroy(this.session);
        this.session = undefined;
      }
      this.onClose();
      this.deflate?.close();
    });
    socket.on('error', () => this.onClose());
    this.send(payload(Op.HELLO, { heartbeat_interval: context.heartbeatIntervalMs }));
    this.armHeartbeatDeadline();
    this.armIdentifyDeadline();
  }

  private flushCompressed: () => void = () => undefined;

  /** Sends one payload (compressed when the client asked for zlib-stream). */
  send(message: GatewayPayload): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    const text = JSON.stringify(message);
    if (!this.deflate) {
      this.socket.send(text);
      return;
    }
    this.deflate.write(text);
    this.deflate.flush(zlibConstants.Z_SYNC_FLUSH, this.flushCompressed);
  }

  /** Closes the socket with a gateway close code, after whatever was sent before. */
  end(close: CloseCode | { code: number; reason: string }): void {
    if (this.closed) return;
    this.closed = true;
    this.clearDeadlines();
    if (close.code === Close.AUTHENTICATION_FAILED.code && this.session) {
      this.context.registry.destroy(this.session);
      this.session = undefined;
    }
    const closeSocket = () => this.socket.close(close.code, close.reason);
    if (this.deflate) {
      // Payloads still in the zlib-stream context go out before the close frame.
      this.deflate.flush(zlibConstants.Z_SYNC_FLUSH, () => {
        this.flushCompressed();
        closeSocket();
      });
    } else {
      closeSocket();
    }
    this.onClose();
  }

  private onMessage(text: string | undefined): void {
    if (this.closed) return;
    if (!this.sends.allow(Date.now())) return this.end(Close.RATE_LIMITED);
    if (text === undefined) return this.end(Close.DECODE_ERROR); // ETF is not spoken here
    const decision = decideInbound(this.phase, text);
    switch (decision.kind) {
      case 'close':
        return this.end(decision.close);
      case 'heartbeat':
        this.armHeartbeatDeadline();
        return this.send(payload(Op.HEARTBEAT_ACK));
      case 'identify':
        this.phase = 'ready';
        this.clearIdentifyDeadline();
        return void this.identify(decision.identify).catch((error: unknown) => this.fail(error));
      case 'resume':
        this.phase = 'ready';
        this.clearIdentifyDeadline();
        return void this.resume(decision.resume).catch((error: unknown) => this.fail(error));
      case 'presence':
        return this.setPresence(decision.d);
      case 'voice-state':
        return this.updateVoiceState(decision.voice);
      case 'channel-info':
        return this.answerChannelInfo(decision.request);
      case 'request-guild-members':
        return this.requestGuildMembers(decision.request);
      case 'ignore':
        return;
    }
  }

  /**
   * Op 3 (D:events/gateway-events.mdx §Update Presence): a malformed presence closes with
   * 4002 as any malformed payload; a valid one is stored and announced. Before READY (the
   * Identify still being answered) there is no session to set it for: ignored.
   */
  private setPresence(d: unknown): void {
    const session = this.session;
    if (!session) return;
    const presence = readPresence(d, session.principal.kind, Date.now());
    if (!presence) return this.end(Close.DECODE_ERROR);
    this.announcePresence(session, presence);
  }

  /**
   * Op 4 (D:events/gateway-events.mdx §Update Voice State): permissions records the join,
   * move or leave and announces VOICE_STATE_UPDATE; a channel that is unknown, not a voice
   * channel or without CONNECT for the member changes nothing and answers nothing, as
   * Discord ignores such a request. ACS runs no voice servers: no VOICE_SERVER_UPDATE.
   */
  private updateVoiceState(voice: VoiceStateCommand): void {
    const session = this.session;
    if (!session) return;
    const { principal } = session;
    this.context.permissions
      .updateVoiceState({
        ...voice,
        userId: principal.kind === 'bot' ? principal.applicationId : principal.userId,
        sessionId: session.id,
      })
      .catch((error: unknown) => this.context.logger.debug({ err: error }, 'voice state update refused'));
  }

  /**
   * Op 43 (D:events/gateway-events.mdx §Request Channel Info): CHANNEL_INFO to this session
   * with the guild's voice channels and the fields asked; a guild the caller is not in
   * answers nothing.
   */
  private answerChannelInfo(request: ChannelInfoCommand): void {
    const session = this.session;
    if (!session) return;
    const { principal } = session;
    const userId = principal.kind === 'bot' ? principal.applicationId : principal.userId;
    this.context.permissions
      .channelInfo(request.guildId, userId)
      .then((channels) => {
        if (this.context.registry.isLive(session)) {
          this.context.registry.dispatch(session, 'CHANNEL_INFO', channelInfoPayload(request, channels));
        }
      })
      .catch((error: unknown) => this.context.logger.debug({ err: error }, 'channel info refused'));
  }

  /** Op 8 from a bot session; a user's chat client's is not answered here. */
  private requestGuildMembers(request: RequestGuildMembers): void {
    const session = this.session;
    if (session?.principal.kind !== 'bot' || !session.bot) return;
    const { registry, logger } = this.context;
    const { applicationId } = session.principal;
    void answerMemberRequest(
      this.context,
      {
        applicationId,
        intents: session.bot.intents,
        shard: session.bot.shard,
        dispatch: (t, d) => registry.dispatch(session, t, d),
      },
      request,
    ).catch((error: unknown) => logger.warn({ err: error, applicationId }, 'member request not answered'));
  }

  private async identify(request: IdentifyRequest): Promise<void> {
    const principal = await this.resolvePrincipal(request.token, request.botPrefixed);
    if (!principal) return this.end(Close.AUTHENTICATION_FAILED);
    if (this.closed) return;
    if (principal.kind === 'user') return this.identifyUser(principal.userId, request.presence);
    if (request.intents === null) return this.end(Close.INVALID_INTENTS);
    const { applicationId } = principal;
    const { oauth, permissions, registry } = this.context;
    const shard = request.shard;
    // The flags as they are now: a portal toggle counts from the next Identify on.
    oauth.forgetSettings(applicationId);
    const [settings, guildIds] = await Promise.all([
      oauth.settings(applicationId),
      oauth.botGuilds(applicationId),
    ]);
    if (this.closed) return;
    if (
      disallowedIntents(
        request.intents,
        settings.flags,
        guildIds.length,
        this.context.privilegedIntentsGuildThreshold,
      ) !== 0
    ) {
      return this.end(Close.DISALLOWED_INTENTS);
    }
    if (!(await this.claimIdentify(principal, shard))) return;
    const mine = shard ? guildIds.filter((id) => shardOf(id, shard[1]) === shard[0]) : guildIds;
    const guilds = await Promise.all(mine.map((id) => permissions.guild(id, applicationId)));
    // Looked up before READY: the GUILD_CREATEs then follow it with nothing in between.
    const crowds =
      (request.intents & Intent.GUILD_PRESENCES) !== 0
        ? await this.crowdsOf(
            mine.filter((_, index) => guilds[index]),
            applicationId,
            request.largeThreshold,
          )
        : new Map<string, GuildCrowd>();
    if (this.closed) return;
    const session = registry.createBotSession(
      applicationId,
      {
        shard,
        intents: request.intents,
        capabilities: request.capabilities,
        largeThreshold: request.largeThreshold,
      },
      this,
    );
    this.session = session;
    registry.dispatch(session, 'READY', {
      v: GATEWAY_VERSION,
      user_settings: {},
      user: settings.botUser,
      guilds: mine.map((id) => ({ id, unavailable: true })),
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: this.context.publicUrl,
      ...(shard ? { shard } : {}),
      application: { id: applicationId, flags: settings.flags },
      private_channels: [],
      relationships: [],
      presences: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      auth: {},
      _trace: ['acs-dispatcher'],
    });
    // The presence Identify asked for, when it holds a valid one (D:events/gateway-events.mdx §Identify).
    const presence =
      request.presence === undefined ? null : readPresence(request.presence, 'bot', Date.now());
    if (presence) this.announcePresence(session, presence);
    const joinedAt = new Date().toISOString();
    for (const snapshot of guilds) {
      if (!snapshot) continue;
      const d = guildCreatePayload({
        ...snapshot,
        botUser: settings.botUser,
        joinedAt,
        fillsReadyGuild: true,
        crowd: crowds.get(String(snapshot.guild.id)),
      });
      registry.dispatchGuildCreate(session, d, snapshot.visibleChannelIds);
    }
  }

  /**
   * The GUILD_CREATEs' members and presences, guild by guild, for a session with
   * GUILD_PRESENCES (`guildCrowd`), by guild id; none beyond the bot in a guild of over
   * 75,000 members, nor in one whose members could not be listed (logged).
   */
  private async crowdsOf(
    guildIds: readonly string[],
    botUserId: string,
    largeThreshold: number,
  ): Promise<Map<string, GuildCrowd>> {
    const { permissions } = this.context;
    // The bot is a member of each of its guilds: one lookup counts them all.
    const counts = new Map(
      (await permissions.memberGuildCounts(botUserId)).map((g) => [g.guildId, g.memberCount]),
    );
    const crowds = new Map<string, GuildCrowd>();
    await Promise.all(
      guildIds.map(async (guildId) => {
        if ((counts.get(guildId) ?? 0) > CROWDED_GUILD_SIZE) return;
        try {
          crowds.set(guildId, await crowdOf(this.context, guildId, botUserId, largeThreshold));
        } catch (error: unknown) {
          this.context.logger.warn({ err: error, guildId }, "guild's members not listed in GUILD_CREATE");
        }
      }),
    );
    return crowds;
  }

  /**
   * A user's chat client (UD:gateway/gateway-events.mdx §Ready): no intents and no shard
   * (its `capabilities` are accepted and ignored); the Identify limits count per user;
   * READY carries the user as they see themselves and their guilds.
   */
  private async identifyUser(userId: string, requested: unknown): Promise<void> {
    const { oauth, permissions, registry } = this.context;
    if (!(await this.claimIdentify({ kind: 'user', userId }, null))) return;
    const [user, guilds] = await Promise.all([oauth.currentUser(userId), permissions.memberGuilds(userId)]);
    if (this.closed) return;
    const session = registry.createUserSession(userId, this);
    this.session = session;
    registry.dispatch(
      session,
      'READY',
      userReadyPayload({ user, guilds, sessionId: session.id, resumeGatewayUrl: this.context.publicUrl }),
    );
    // A chat client that connects is online (or what its Identify's presence says).
    const presence = (requested === undefined ? null : readPresence(requested, 'user', Date.now())) ?? {
      ...OFFLINE_PRESENCE,
      status: 'online',
    };
    this.announcePresence(session, presence);
  }

  /** Sets a session's presence in the background; a failure is logged, the session goes on. */
  private announcePresence(session: Session, presence: Presence): void {
    this.context.presences
      .set(session.id, session.principal, presence)
      .catch((error: unknown) => this.context.logger.warn({ err: error }, 'presence not announced'));
  }

  private async resume(request: ResumeRequest): Promise<void> {
    const { registry } = this.context;
    const principal = await this.resolvePrincipal(request.token, request.botPrefixed);
    if (!principal) return this.end(Close.AUTHENTICATION_FAILED);
    if (this.closed) return;
    const resumed = registry.resume(request.sessionId, principal, request.seq, this);
    if (!resumed) {
      // Not resumable: the client identifies anew on this connection (D:events/gateway.mdx).
      this.phase = 'hello';
      this.armIdentifyDeadline();
      return this.send(payload(Op.INVALID_SESSION, false));
    }
    this.session = resumed.session;
    for (const missed of resumed.missed) this.send(missed);
    registry.dispatch(resumed.session, 'RESUMED', null);
  }

  /**
   * Whose token it is: a bot's, or else a user's chat-client session token. Bots send
   * their token bare as often as not (discord.js and discord.py do), so only the `Bot `
   * prefix settles it; a bare token that is no bot's is looked up as a session token
   * (oauth refuses a string without a bot token's shape without a lookup). Undefined
   * when it is neither.
   */
  private async resolvePrincipal(token: string, botPrefixed: boolean): Promise<GatewayPrincipal | undefined> {
    const { oauth } = this.context;
    const applicationId = await oauth.resolveBotToken(token);
    if (applicationId) return { kind: 'bot', applicationId };
    if (botPrefixed) return undefined;
    const userId = await oauth.resolveUserSession(token);
    return userId ? { kind: 'user', userId } : undefined;
  }

  /**
   * Decides and counts the Identify before READY, so a /gateway/bot that follows sees it;
   * false (the client told, the socket closing) when it is over the limits. A database
   * hiccup lets the session start uncounted: the limits protect the service, and an outage
   * of the database must not take the gateway down with it.
   */
  private async claimIdentify(principal: GatewayPrincipal, shard: [number, number] | null): Promise<boolean> {
    const { identifies, logger } = this.context;
    let decision: IdentifyDecision;
    try {
      decision = await identifies.claim(principal, rateLimitKey(shard, identifies.limits.maxConcurrency));
    } catch (error) {
      logger.warn({ err: error, principal }, 'identify not counted');
      return true;
    }
    if (decision.granted) return true;
    // D:events/gateway.mdx §Rate Limiting: over max_concurrency the gateway answers Invalid
    // Session; the socket then closes with 4008 and a reason, so that a client ignoring op 9
    // cannot hold it. Over the day's total Discord resets the token; ACS refuses instead.
    this.send(payload(Op.INVALID_SESSION, false));
    this.end(identifyRefusal(identifies.limits, decision));
    return false;
  }

  private fail(error: unknown): void {
    this.context.logger.warn({ err: error }, 'gateway session could not start');
    this.end(Close.UNKNOWN_ERROR);
  }

  private armHeartbeatDeadline(): void {
    this.clearHeartbeatDeadline();
    this.heartbeatDeadline = setTimeout(
      () => this.end(Close.SESSION_TIMED_OUT),
      this.context.heartbeatIntervalMs * 1.5,
    );
    this.heartbeatDeadline.unref();
  }

  private clearHeartbeatDeadline(): void {
    if (this.heartbeatDeadline) clearTimeout(this.heartbeatDeadline);
    this.heartbeatDeadline = undefined;
  }

  /**
   * A socket must identify (or resume) in time, heartbeats or not: Discord documents no
   * deadline, so this closes with 4003 Not authenticated, whose text covers it ("this
   * session has been invalidated", D:topics/opcodes-and-status-codes.mdx), reconnect: true.
   */
  private armIdentifyDeadline(): void {
    this.clearIdentifyDeadline();
    const ms = this.context.identifyTimeoutMs;
    this.identifyDeadline = setTimeout(
      () =>
        this.end({
          code: Close.NOT_AUTHENTICATED.code,
          reason: `Not authenticated: no Identify within ${ms / 1000} s.`,
        }),
      ms,
    );
    this.identifyDeadline.unref();
  }

  private clearIdentifyDeadline(): void {
    if (this.identifyDeadline) clearTimeout(this.identifyDeadline);
    this.identifyDeadline = undefined;
  }

  private clearDeadlines(): void {
    this.clearHeartbeatDeadline();
    this.clearIdentifyDeadline();
  }

  private onClose(): void {
    this.closed = true;
    this.clearDeadlines();
    if (this.session) this.context.registry.detach(this.session, this);
  }
}
