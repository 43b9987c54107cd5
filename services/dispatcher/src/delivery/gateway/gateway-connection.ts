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
  type TokenPrefix,
  type VoiceStateCommand,
} from '../../domain/decide-inbound';
import {
  Close,
  Intent,
  MAX_SENDS_PER_WINDOW,
  Op,
  SEND_WINDOW_MS,
  type CloseCode,
} from '../../domain/gateway-codes';
import { payload, type GatewayPayload } from '../../domain/gateway-payload';
import type { GatewayPrincipal } from '../../domain/gateway-principal';
import { CROWDED_GUILD_SIZE, guildCreatePayload, type GuildCrowd } from '../../domain/guild-create';
import {
  decideBotIdentify,
  identifyAs,
  identifyBeforeLookup,
  principalOf,
  refusedIdentify,
  tokenLookups,
  userReadyLists,
  type TokenAnswer,
  type TokenLookup,
} from '../../domain/identify-flow';
import { rateLimitKey, type IdentifyDecision } from '../../domain/identify-limits';
import { SendWindow } from '../../domain/send-window';
import { OFFLINE_PRESENCE, readPresence, type Presence } from '../../domain/presence';
import { readyPayload } from '../../domain/ready';
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
 * guilds; a Social SDK client's Bearer token: READY with the user) or Resume (the missed
 * dispatches, then RESUMED); Heartbeat → ACK, and a connection that stops heartbeating is
 * closed (4009); more than 120 payloads a minute → 4008; an Identify over the bot's (or
 * user's) limits → 4008; neither Identify nor Resume in time → 4003. It carries decisions
 * out: the protocol's are `decideInbound`'s, the Identify flow's `identify-flow.ts`'s and
 * READY is `readyPayload`'s.
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

  /**
   * Identify (op 2), carried out as `identify-flow.ts` decides it: the token looked up,
   * whose it is, then a bot's or a user's session started (or the close it ends with).
   */
  private async identify(request: IdentifyRequest): Promise<void> {
    const early = identifyBeforeLookup(request);
    if (early) return this.end(early.close);
    const start = identifyAs(request, await this.resolvePrincipal(request.token, request.prefix));
    if (this.closed) return;
    switch (start.kind) {
      case 'close':
        return this.end(start.close);
      case 'user':
        return this.identifyUser(start.principal, request.presence);
      case 'bot':
        return this.identifyBot(start.applicationId, start.intents, request);
    }
  }

  /** A bot's Identify: READY with its shard's guilds unavailable, then a GUILD_CREATE for each. */
  private async identifyBot(applicationId: string, intents: number, request: IdentifyRequest): Promise<void> {
    const { oauth, permissions, registry } = this.context;
    const { shard } = request;
    // The flags as they are now: a portal toggle counts from the next Identify on.
    oauth.forgetSettings(applicationId);
    const [settings, botGuildIds] = await Promise.all([
      oauth.settings(applicationId),
      oauth.botGuilds(applicationId),
    ]);
    if (this.closed) return;
    const decision = decideBotIdentify(intents, shard, {
      applicationFlags: settings.flags,
      guildIds: botGuildIds,
      privilegedIntentsGuildThreshold: this.context.privilegedIntentsGuildThreshold,
    });
    if (decision.kind === 'close') return this.end(decision.close);
    if (!(await this.claimIdentify({ kind: 'bot', applicationId }, shard))) return;
    const mine = decision.guildIds;
    const guilds = await Promise.all(mine.map((id) => permissions.guild(id, applicationId)));
    // Looked up before READY: the GUILD_CREATEs then follow it with nothing in between.
    const crowds =
      (intents & Intent.GUILD_PRESENCES) !== 0
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
        intents,
        capabilities: request.capabilities,
        largeThreshold: request.largeThreshold,
      },
      this,
    );
    this.session = session;
    registry.dispatch(
      session,
      'READY',
      readyPayload({
        kind: 'bot',
        user: settings.botUser,
        guildIds: mine,
        shard,
        application: { id: applicationId, flags: settings.flags },
        sessionId: session.id,
        resumeGatewayUrl: this.context.publicUrl,
      }),
    );
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
   * A user's client (UD:gateway/gateway-events.mdx §Ready): a chat client, or a Social SDK
   * client with its Bearer token. The Identify limits count per user; READY carries the
   * user as their token shows them and, for a chat client or a Bearer token with `guilds`,
   * their guilds.
   */
  private async identifyUser(
    principal: Extract<GatewayPrincipal, { kind: 'user' }>,
    requested: unknown,
  ): Promise<void> {
    const { oauth, permissions, registry } = this.context;
    if (!(await this.claimIdentify(principal, null))) return;
    const { userId, grant } = principal;
    const [user, guilds] = await Promise.all([
      grant ? oauth.currentUserOfBearer(userId, grant.scopes) : oauth.currentUser(userId),
      userReadyLists(principal).guilds ? permissions.memberGuilds(userId) : [],
    ]);
    if (this.closed) return;
    const session = registry.createUserSession(principal, this);
    this.session = session;
    registry.dispatch(
      session,
      'READY',
      readyPayload({
        kind: 'user',
        user,
        guilds,
        sessionId: session.id,
        resumeGatewayUrl: this.context.publicUrl,
      }),
    );
    // A client that connects is online (or what its Identify's presence says).
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
    const principal = await this.resolvePrincipal(request.token, request.prefix);
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

  /** Whose token it is (`principalOf`), after the lookups `tokenLookups` names, in turn. */
  private async resolvePrincipal(token: string, prefix: TokenPrefix): Promise<GatewayPrincipal | undefined> {
    for (const lookup of tokenLookups(prefix)) {
      const answer = await this.lookUp(lookup, token);
      if (answer) return principalOf(answer);
    }
    return undefined;
  }

  /** One of oauth's token lookups (oauth refuses a string without a bot token's shape without a lookup). */
  private async lookUp(lookup: TokenLookup, token: string): Promise<TokenAnswer | undefined> {
    const { oauth } = this.context;
    switch (lookup) {
      case 'bot': {
        const applicationId = await oauth.resolveBotToken(token);
        return applicationId ? { kind: 'bot', applicationId } : undefined;
      }
      case 'user-session': {
        const userId = await oauth.resolveUserSession(token);
        return userId ? { kind: 'user-session', userId } : undefined;
      }
      case 'bearer': {
        const bearer = await oauth.resolveBearer(token);
        return bearer ? { kind: 'bearer', ...bearer } : undefined;
      }
    }
  }

  /**
   * Decides and counts the Identify before READY, so a /gateway/bot that follows sees it;
   * false (the client told, the socket closing: `refusedIdentify`) when it is over the
   * limits. A database hiccup lets the session start uncounted: the limits protect the
   * service, and an outage of the database must not take the gateway down with it.
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
    const refused = refusedIdentify(identifies.limits, decision);
    if (!refused) return true;
    this.send(refused.send);
    this.end(refused.close);
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
