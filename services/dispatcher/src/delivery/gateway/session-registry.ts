import { randomBytes } from 'node:crypto';
import type { Logger } from '@acs/service-kit';
import { dispatchPayload, type GatewayPayload } from '../../domain/gateway-payload';
import { isSamePrincipal, type GatewayPrincipal } from '../../domain/gateway-principal';
import {
  botSessionReceives,
  userSessionFollowsChannels,
  userSessionReceives,
  type BotDispatch,
  type BotMessage,
  type BotSessionFacts,
  type ChannelDispatch,
  type GuildChannelMessage,
  type UserDispatch,
} from '../../domain/gateway-route';
import { channelViewChanges } from '../../domain/channel-view-changes';
import {
  CHANNEL_OBFUSCATION_CAPABILITY,
  channelForViewer,
  obfuscateGuildCreate,
} from '../../domain/obfuscate-channel';
import { ReplayBuffer } from '../../domain/replay-buffer';
import { CROWDED_GUILD_SIZE, withCrowd, type GuildCrowd } from '../../domain/guild-create';
import type { GuildSnapshot } from '../../clients/permissions-client';
import type { DispatchBus } from './dispatch-bus';

/** Where a session's payloads go while a socket is attached. */
export interface SessionSink {
  send(payload: GatewayPayload): void;
  /** The session was ended by the server (e.g. the bot token was reset). */
  end(code: { code: number; reason: string }): void;
}

/** One gateway session: lives on this replica, outlives its socket for the resume window. */
export interface Session {
  readonly id: string;
  readonly principal: GatewayPrincipal;
  /** A bot session's shard and intents, which route its dispatches; null for a user's session. */
  readonly bot: BotSessionFacts | null;
  seq: number;
  sink: SessionSink | null;
  readonly buffer: ReplayBuffer;
  expiry: NodeJS.Timeout | null;
  unsubscribe: () => void;
  /**
   * Settles once the session's last dispatch was sent or dropped. A user session's
   * dispatches wait for a decision (may the user view the channel?) and leave in the order
   * they came, whichever decision comes first.
   */
  pending: Promise<void>;
  /**
   * How many of a bot session's dispatches wait in `pending` behind the members of a
   * GUILD_CREATE (`SessionRegistryOptions.crowdOf`): while any do, the next ones queue too.
   */
  held: number;
  /**
   * A bot session's guilds (those of the GUILD_CREATEs it was sent): the subscription to
   * each guild's channel changes and, when the session asked for channel obfuscation, the
   * ids of the channels it was shown in full.
   */
  readonly guilds: Map<string, { unsubscribe: () => void; visible: Set<string> | null }>;
}

/** GUILDS (1 << 0): channel events need it (D:events/gateway.mdx §List of Intents). */
const GUILDS_INTENT = 1 << 0;
/** GUILD_PRESENCES (1 << 8): a GUILD_CREATE lists the guild's members and presences (§Guild Create). */
const GUILD_PRESENCES_INTENT = 1 << 8;
/** MESSAGE_CONTENT (1 << 15): message dispatches carry their content (D:events/gateway.mdx §Message Content Intent). */
const MESSAGE_CONTENT_INTENT = 1 << 15;
/** Identify's default `large_threshold` (D:events/gateway-events.mdx §Identify). */
const DEFAULT_LARGE_THRESHOLD = 50;

/** What the registry needs besides the bus. */
export interface SessionRegistryOptions {
  resumeWindowMs: number;
  replayBufferSize: number;
  /** Whether the user may view the guild channel (VIEW_CHANNEL); a rejection counts as no. */
  canViewChannel: (userId: string, guildId: string, channelId: string) => Promise<boolean>;
  /** The guild's channels and which of them `viewerId` (a bot) may view now; undefined: no such guild. */
  guildView: (guildId: string, viewerId: string) => Promise<GuildSnapshot | undefined>;
  logger: Pick<Logger, 'warn'>;
  /**
   * The members and presences of the GUILD_CREATE of a guild the bot joins, for its sessions
   * with GUILD_PRESENCES (as after Identify); absent, or rejecting (logged), only the bot is listed.
   */
  crowdOf?: (guildId: string, botUserId: string, largeThreshold: number) => Promise<GuildCrowd>;
  /** Called once when a session ends for good (its presence goes). */
  onSessionEnd?: (session: Session) => void;
}

/**
 * The sessions of this replica: creates them (subscribing to their application's or their
 * user's dispatches), numbers and buffers every dispatch, keeps a detached session for the
 * resume window, and hands it to the socket that resumes it.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly bus: DispatchBus,
    private readonly options: SessionRegistryOptions,
  ) {}

  /** A new session of the application's bot, attached to `sink`. */
  createBotSession(applicationId: string, facts: BotSessionFacts, sink: SessionSink): Session {
    const session = this.newSession({ kind: 'bot', applicationId }, facts, sink);
    session.unsubscribe = this.bus.subscribe(applicationId, (message) => this.receiveBot(session, message));
    return session;
  }

  /**
   * A new session of a user's client (a chat client's, or a Social SDK client's with its
   * Bearer token's grant), attached to `sink`; only a chat client's follows guild channels.
   */
  createUserSession(principal: Extract<GatewayPrincipal, { kind: 'user' }>, sink: SessionSink): Session {
    const session = this.newSession(principal, null, sink);
    const { userId } = principal;
    const unsubscribeUser = this.bus.subscribeUser(userId, (message) => this.receiveUser(session, message));
    const unsubscribeChannels = userSessionFollowsChannels({ id: session.id, grant: principal.grant })
      ? this.bus.subscribeChannels((message) => this.receiveChannel(session, message))
      : () => undefined;
    session.unsubscribe = () => {
      unsubscribeUser();
      unsubscribeChannels();
    };
    return session;
  }

  /** Numbers, buffers and sends a dispatch (buffered only while detached). */
  dispatch(session: Session, t: string, d: unknown): void {
    session.seq += 1;
    const payload = dispatchPayload(t, session.seq, d);
    session.buffer.push(payload);
    session.sink?.send(payload);
  }

  /**
   * Sends a GUILD_CREATE to a bot session, its channels obfuscated where the bot may not
   * view them when the session asked for it, and follows the guild's channel changes from
   * then on.
   */
  dispatchGuildCreate(session: Session, d: Record<string, unknown>, visibleChannelIds?: string[]): void {
    const guildId = String(d.id);
    const visible = this.obfuscates(session) && visibleChannelIds ? new Set(visibleChannelIds) : null;
    this.dispatch(session, 'GUILD_CREATE', visible ? obfuscateGuildCreate(d, visible) : d);
    const known = this.sessions.get(session.id) === session ? session.guilds.get(guildId) : undefined;
    if (known) {
      known.visible = visible;
      return;
    }
    if (this.sessions.get(session.id) !== session) return;
    const unsubscribe = this.bus.subscribeGuildBots(guildId, (message) =>
      this.receiveGuildChannel(session, message),
    );
    session.guilds.set(guildId, { unsubscribe, visible });
  }

  /** The socket went away: the session waits for a resume, then ends. */
  detach(session: Session, sink: SessionSink): void {
    if (session.sink !== sink) return;
    session.sink = null;
    session.expiry = setTimeout(() => this.destroy(session), this.options.resumeWindowMs);
    session.expiry.unref();
  }

  /**
   * Reattaches a session for a resume: the dispatches after `seq`, or undefined when the
   * session is unknown here, belongs to another bot or user, or can no longer replay.
   */
  resume(
    sessionId: string,
    principal: GatewayPrincipal,
    seq: number,
    sink: SessionSink,
  ): { session: Session; missed: GatewayPayload[] } | undefined {
    const session = this.sessions.get(sessionId);
    if (!session || !isSamePrincipal(session.principal, principal)) return undefined;
    const missed = session.buffer.after(seq, session.seq);
    if (!missed) {
      this.destroy(session);
      return undefined;
    }
    if (session.expiry) clearTimeout(session.expiry);
    session.expiry = null;
    const previous = session.sink;
    session.sink = sink;
    // A client resuming on a new socket while the old one lingers: the old one is done.
    previous?.end({ code: 4000, reason: 'Session resumed elsewhere.' });
    return { session, missed };
  }

  /** Ends a session for good. */
  destroy(session: Session): void {
    if (session.expiry) clearTimeout(session.expiry);
    session.unsubscribe();
    for (const guild of session.guilds.values()) guild.unsubscribe();
    session.guilds.clear();
    if (this.sessions.delete(session.id)) this.options.onSessionEnd?.(session);
  }

  /** Ends every session (shutdown). */
  closeAll(): void {
    for (const session of [...this.sessions.values()]) {
      session.sink?.end({ code: 4000, reason: 'Server restarting.' });
      this.destroy(session);
    }
  }

  /** Whether the session still lives on this replica. */
  isLive(session: Session): boolean {
    return this.sessions.get(session.id) === session;
  }

  /** Number of live sessions (for logs and tests). */
  get size(): number {
    return this.sessions.size;
  }

  private newSession(principal: GatewayPrincipal, bot: BotSessionFacts | null, sink: SessionSink): Session {
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      principal,
      bot,
      seq: 0,
      sink,
      buffer: new ReplayBuffer(this.options.replayBufferSize),
      expiry: null,
      unsubscribe: () => undefined,
      pending: Promise.resolve(),
      held: 0,
      guilds: new Map(),
    };
    this.sessions.set(session.id, session);
    return session;
  }

  private receiveBot(session: Session, message: BotMessage): void {
    if (message.kind === 'invalidate') {
      session.sink?.end({ code: 4004, reason: 'Authentication failed.' });
      this.destroy(session);
      return;
    }
    if (!session.bot || !botSessionReceives(session.bot, message)) return;
    if (message.channelId !== undefined) return this.receiveBotChannelMessage(session, message);
    const crowd = message.t === 'GUILD_CREATE' ? this.crowdFor(session, message.d) : undefined;
    if (!crowd && session.held === 0) return this.deliverBot(session, message);
    // Behind a GUILD_CREATE whose members are being listed: in turn.
    session.held += 1;
    session.pending = session.pending
      .then(() => crowd)
      .then((found) => {
        session.held -= 1;
        if (this.sessions.get(session.id) !== session) return;
        const d = message.d as Record<string, unknown>;
        this.deliverBot(session, found ? { ...message, d: withCrowd(d, found) } : message);
      });
  }

  /**
   * A guild channel's message for a bot session: sent, in turn, when its bot may view the
   * channel; without its content when the session did not ask for MESSAGE_CONTENT and the
   * dispatch has a blanked form.
   */
  private receiveBotChannelMessage(session: Session, message: BotDispatch): void {
    const { channelId, guildId } = message;
    if (session.principal.kind !== 'bot' || channelId === undefined || typeof guildId !== 'string') return;
    const botId = session.principal.applicationId;
    const readsContent = ((session.bot?.intents ?? 0) & MESSAGE_CONTENT_INTENT) !== 0;
    const d = message.withoutContent !== undefined && !readsContent ? message.withoutContent : message.d;
    const allowed = this.options.canViewChannel(botId, guildId, channelId).catch((error: unknown) => {
      this.options.logger.warn(
        { err: error, applicationId: botId, guildId, channelId },
        'channel visibility unknown; message not dispatched to the bot',
      );
      return false;
    });
    this.dispatchInTurn(session, allowed, message.t, d);
  }

  private deliverBot(session: Session, message: BotDispatch): void {
    if (message.t === 'GUILD_CREATE') {
      return this.dispatchGuildCreate(
        session,
        message.d as Record<string, unknown>,
        message.visibleChannelIds,
      );
    }
    if (message.t === 'GUILD_DELETE') this.leaveGuild(session, String((message.d as { id?: unknown }).id));
    // A dispatch with a blanked form (AUTO_MODERATION_ACTION_EXECUTION) for a session without MESSAGE_CONTENT.
    const readsContent = ((session.bot?.intents ?? 0) & MESSAGE_CONTENT_INTENT) !== 0;
    const d = message.withoutContent !== undefined && !readsContent ? message.withoutContent : message.d;
    this.dispatch(session, message.t, d);
  }

  /**
   * The members and presences a joined guild's GUILD_CREATE lists for a session with
   * GUILD_PRESENCES (undefined when it lists the bot alone: no such intent, a guild of over
   * 75,000 members, or a lookup that failed, logged).
   */
  private crowdFor(session: Session, d: unknown): Promise<GuildCrowd | undefined> | undefined {
    const { crowdOf } = this.options;
    const facts = session.bot;
    if (!crowdOf || !facts || session.principal.kind !== 'bot') return undefined;
    if ((facts.intents & GUILD_PRESENCES_INTENT) === 0) return undefined;
    const { id, member_count: count } = d as { id?: unknown; member_count?: unknown };
    if (typeof count === 'number' && count > CROWDED_GUILD_SIZE) return undefined;
    const guildId = String(id);
    const threshold = facts.largeThreshold ?? DEFAULT_LARGE_THRESHOLD;
    return crowdOf(guildId, session.principal.applicationId, threshold).catch((error: unknown) => {
      this.options.logger.warn({ err: error, guildId }, "guild's members not listed in GUILD_CREATE");
      return undefined;
    });
  }

  private leaveGuild(session: Session, guildId: string): void {
    session.guilds.get(guildId)?.unsubscribe();
    session.guilds.delete(guildId);
  }

  private obfuscates(session: Session): boolean {
    return ((session.bot?.capabilities ?? 0) & CHANNEL_OBFUSCATION_CAPABILITY) !== 0;
  }

  /**
   * A channel change in one of the session's guilds. A session that did not ask for
   * obfuscation gets the channel as it is. One that did learns, where it is, which channels
   * its bot may view now: the changed channel goes out in full or obfuscated, then every
   * other channel whose visibility differs from what the session was told
   * (`onGuildPermissionsChanged`'s recheck does only the latter). Not knowing (permissions
   * unreachable), it is told nothing now; the next change of the guild catches up.
   */
  private receiveGuildChannel(session: Session, message: GuildChannelMessage): void {
    const facts = session.bot;
    if (!facts || session.principal.kind !== 'bot') return;
    const route = {
      kind: 'dispatch',
      t: '',
      d: null,
      guildId: message.guildId,
      intent: GUILDS_INTENT,
    } as const;
    if (!botSessionReceives(facts, route)) return;
    const view = session.guilds.get(message.guildId);
    if (!view) return;
    const deleted =
      message.kind === 'channel' && (message.t === 'CHANNEL_DELETE' || message.t === 'THREAD_DELETE');
    if (!view.visible) {
      if (message.kind === 'channel') this.dispatch(session, message.t, message.channel);
      if (deleted) this.leaveChannel(view, String(message.channel.id));
      return;
    }
    const botId = session.principal.applicationId;
    session.pending = session.pending
      .then(() => this.options.guildView(message.guildId, botId))
      .then(
        (snapshot) => {
          const current = session.guilds.get(message.guildId);
          if (!snapshot || !current?.visible || this.sessions.get(session.id) !== session) return;
          const before = current.visible;
          const after = new Set(snapshot.visibleChannelIds ?? []);
          const changedId = message.kind === 'channel' ? String(message.channel.id) : undefined;
          if (message.kind === 'channel') {
            // THREAD_DELETE carries ids only: nothing to hide.
            const shownAs = deleted ? before : after;
            const d =
              message.t === 'THREAD_DELETE'
                ? message.channel
                : channelForViewer(message.channel, message.guildId, shownAs);
            this.dispatch(session, message.t, d);
          }
          for (const change of channelViewChanges(
            message.guildId,
            before,
            snapshot.channels,
            after,
            changedId,
          )) {
            this.dispatch(session, change.t, change.d);
          }
          current.visible = after;
        },
        (error: unknown) => {
          this.options.logger.warn(
            { err: error, guildId: message.guildId, applicationId: botId },
            'channel visibility unknown; channel change not dispatched to the bot session',
          );
        },
      );
  }

  private leaveChannel(view: { visible: Set<string> | null }, channelId: string): void {
    view.visible?.delete(channelId);
  }

  private receiveUser(session: Session, message: UserDispatch): void {
    const grant = session.principal.kind === 'user' ? session.principal.grant : undefined;
    if (!userSessionReceives({ id: session.id, grant }, message)) return;
    if (message.close) {
      session.sink?.end(message.close);
      this.destroy(session);
      return;
    }
    this.dispatchInTurn(session, true, message.t, message.d);
  }

  private receiveChannel(session: Session, message: ChannelDispatch): void {
    if (session.principal.kind !== 'user') return;
    const { userId } = session.principal;
    const allowed = this.options
      .canViewChannel(userId, message.guildId, message.channelId)
      .catch((error: unknown) => {
        // The event was acknowledged already: not knowing, the session is not shown the message.
        this.options.logger.warn(
          { err: error, userId, guildId: message.guildId, channelId: message.channelId },
          'channel visibility unknown; message not dispatched to the user',
        );
        return false;
      });
    this.dispatchInTurn(session, allowed, message.t, message.d);
  }

  /** Dispatches once the session's earlier dispatches have left, if `allowed` says so (and the session lives). */
  private dispatchInTurn(session: Session, allowed: boolean | Promise<boolean>, t: string, d: unknown): void {
    session.pending = session.pending
      .then(() => allowed)
      .then((ok) => {
        if (ok && this.sessions.get(session.id) === session) this.dispatch(session, t, d);
      });
  }
}
