import type { NatsConnection, Subscription } from 'nats';
import { botGatewaySubject } from '@acs/events';
import type {
  BotMessage,
  ChannelDispatch,
  GatewayRoute,
  GuildChannelMessage,
  UserDispatch,
} from '../../domain/gateway-route';

/**
 * Carries dispatches from the replica that consumed an event to the replicas holding the
 * sessions it is for, over core NATS (outside the event stream's `<prefix>.>`):
 * - `<prefix>_gateway.<application_id>`: an application's bot sessions;
 * - `<prefix>_gateway_user.<user_id>`: a user's sessions;
 * - `<prefix>_gateway_guild.<guild_id>`: a guild channel's message, for every user session
 *   that may view the channel. Who may is decided where the sessions are, so every replica
 *   holding a user session subscribes to all guilds (`<prefix>_gateway_guild.*`);
 * - `<prefix>_gateway_guild_bots.<guild_id>`: a guild's channel changes, for the bot
 *   sessions in that guild (each subscribes to the guilds of its GUILD_CREATEs).
 * A replica subscribes to a subject only while it holds a session that needs it, so a
 * message with a reply subject is a probe (`@acs/events`' `hasBotSession`, which the
 * interactions service asks when a gateway app did not answer): answered at once, never
 * delivered. Dispatches
 * are not durable (Discord's are not either): a session that misses one because its
 * replica died cannot resume, and identifies anew.
 */
export class DispatchBus {
  private readonly subscriptions = new Map<
    string,
    { sub: Subscription; handlers: Set<(m: unknown) => void> }
  >();

  private readonly encoded = new WeakMap<UserDispatch, Uint8Array>();
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly nats: NatsConnection,
    private readonly subjectPrefix: string,
  ) {}

  /** Sends a dispatch where its route says. */
  send(route: GatewayRoute): void {
    switch (route.to) {
      case 'bot':
        return this.publish(route.applicationId, route.message);
      case 'user':
        return this.nats.publish(this.userSubject(route.userId), this.encode(route.message));
      case 'channel-viewers':
        return this.nats.publish(this.guildSubject(route.message.guildId), JSON.stringify(route.message));
      case 'guild-bots':
        return this.nats.publish(this.guildBotsSubject(route.message.guildId), JSON.stringify(route.message));
    }
  }

  /** Sends a message to every session of the application. */
  publish(applicationId: string, message: BotMessage): void {
    this.nats.publish(this.applicationSubject(applicationId), JSON.stringify(message));
  }

  /**
   * A dispatch as published: one event's routes to many users (a lobby message to 1,000
   * members) share one message object, encoded once (JSON, then UTF-8).
   */
  private encode(message: UserDispatch): Uint8Array {
    let bytes = this.encoded.get(message);
    if (bytes === undefined) {
      bytes = this.encoder.encode(JSON.stringify(message));
      this.encoded.set(message, bytes);
    }
    return bytes;
  }

  /** Resolves once everything published so far has reached the server. */
  flush(): Promise<void> {
    return this.nats.flush();
  }

  /** Receives the application's messages until the returned function is called. */
  subscribe(applicationId: string, handler: (message: BotMessage) => void): () => void {
    return this.subscribeTo(this.applicationSubject(applicationId), handler as (m: unknown) => void);
  }

  /** Receives the dispatches addressed to the user until the returned function is called. */
  subscribeUser(userId: string, handler: (message: UserDispatch) => void): () => void {
    return this.subscribeTo(this.userSubject(userId), handler as (m: unknown) => void);
  }

  /** Receives every guild channel's messages for user sessions until the returned function is called. */
  subscribeChannels(handler: (message: ChannelDispatch) => void): () => void {
    return this.subscribeTo(this.guildSubject('*'), handler as (m: unknown) => void);
  }

  /** Receives the guild's channel changes for bot sessions until the returned function is called. */
  subscribeGuildBots(guildId: string, handler: (message: GuildChannelMessage) => void): () => void {
    return this.subscribeTo(this.guildBotsSubject(guildId), handler as (m: unknown) => void);
  }

  private guildBotsSubject(guildId: string): string {
    return `${this.subjectPrefix}_gateway_guild_bots.${guildId}`;
  }

  private applicationSubject(applicationId: string): string {
    return botGatewaySubject(this.subjectPrefix, applicationId);
  }

  private userSubject(userId: string): string {
    return `${this.subjectPrefix}_gateway_user.${userId}`;
  }

  private guildSubject(guildId: string): string {
    return `${this.subjectPrefix}_gateway_guild.${guildId}`;
  }

  /** One NATS subscription per subject, shared by the handlers of this replica's sessions. */
  private subscribeTo(subject: string, handler: (message: unknown) => void): () => void {
    let entry = this.subscriptions.get(subject);
    if (!entry) {
      const handlers = new Set<(m: unknown) => void>();
      const sub = this.nats.subscribe(subject, {
        callback: (error, msg) => {
          if (error) return;
          // A probe: "does any replica hold a session here?"
          if (msg.reply) {
            msg.respond();
            return;
          }
          const message: unknown = JSON.parse(msg.string());
          for (const h of handlers) h(message);
        },
      });
      entry = { sub, handlers };
      this.subscriptions.set(subject, entry);
    }
    const current = entry;
    current.handlers.add(handler);
    return () => {
      current.handlers.delete(handler);
      if (current.handlers.size === 0 && this.subscriptions.get(subject) === current) {
        current.sub.unsubscribe();
        this.subscriptions.delete(subject);
      }
    };
  }
}
