import { callApi, describeError } from '../http/call-api';
import {
  clearFaults,
  describeRequests,
  fetchRequests,
  injectFault,
  type FaultOptions,
  type InjectedFault,
  type RequestEntry,
} from './request-log';
import { Transcript } from './transcript';
import type { ChannelRef, DiscordMessage, InteractionResult, TimelineEntry, Timing, UserRef } from './types';
import type { Dispatch } from './user-session';
import type { WorldContext } from './world-context';
import { WorldUser } from './world-user';
import { WorldPlayer } from './world-player';

/** The world's application: what a bot needs to log in or verify requests. */
export interface WorldApp {
  id: string;
  name: string;
  /** `client.login(botToken)` */
  botToken: string;
  /** The Ed25519 public key an HTTP bot verifies requests with (hex). */
  publicKey: string;
  clientSecret: string;
}

/** A text channel of the world. */
export interface WorldChannel {
  id: string;
  name: string;
  /** Its messages as `viewer` (a world user or their name) sees them, newest first. */
  history(options: { viewer: WorldUser | string; limit?: number }): Promise<DiscordMessage[]>;
}

/** What createWorld built, as the world keeps it. */
export interface WorldParts {
  base: string;
  adminToken: string;
  app: WorldApp;
  guild: { id: string; name: string };
  owner: { id: string; username: string };
  channels: { id: string; name: string }[];
  users: { id: string; name: string }[];
  timing: Required<Timing>;
}

/**
 * A guild of its own with text channels and users who are its members, and an
 * application installed in it with `bot applications.commands`, owned by the guild's
 * owner. Its users act as the chat client does; `transcript()` tells what happened.
 */
export class World implements WorldContext {
  readonly app: WorldApp;
  readonly guild: { id: string; name: string };
  /** The guild's owner, who also owns the app (not one of the named users). */
  readonly owner: { id: string; username: string };
  /** @internal */ readonly base: string;
  /** @internal */ readonly adminToken: string;
  /** @internal */ readonly timing: Required<Timing>;
  private readonly channels: WorldChannel[];
  private readonly users: Map<string, WorldUser>;
  private readonly players = new Map<string, WorldPlayer>();
  private readonly log = new Transcript();
  /** The app's REST calls as `requests()` last read them, for the transcript. */
  private requestLog: RequestEntry[] = [];
  private gateway: Promise<string> | undefined;
  private destroyed = false;

  /** @internal built by Acs.createWorld */
  constructor(parts: WorldParts) {
    this.base = parts.base;
    this.adminToken = parts.adminToken;
    this.app = parts.app;
    this.guild = parts.guild;
    this.owner = parts.owner;
    this.channels = parts.channels.map((channel) => ({
      ...channel,
      history: ({ viewer, limit }) =>
        (typeof viewer === 'string' ? this.user(viewer) : viewer).history(channel.id, { limit }),
    }));
    this.timing = parts.timing;
    this.users = new Map(parts.users.map((u) => [u.name, new WorldUser(this, u.id, u.name)]));
    this.log.note(
      `world: guild "${this.guild.name}" (${this.guild.id}), channels ${this.channels.map((c) => `#${c.name}`).join(', ')}, ` +
        `users ${[...this.users.keys()].join(', ')}, app "${this.app.name}" (${this.app.id})`,
    );
  }

  /** A user of the world by name; throws naming the world's users. */
  user(name: string): WorldUser {
    const user = this.users.get(name);
    if (!user)
      throw new Error(`no user "${name}" in this world (its users: ${[...this.users.keys()].join(', ')})`);
    return user;
  }

  /**
   * A game's player without a chat account: the world's app makes them a provisional
   * account with its Bot Token Endpoint (`POST /partner-sdk/token/bot`; the same
   * `externalUserId` is the same player every time). `name` is their display name
   * (`preferred_global_name`). The player joins lobbies and chats with their Bearer token.
   */
  async player(externalUserId: string, { name }: { name?: string } = {}): Promise<WorldPlayer> {
    const answer = await callApi(this.base, 'POST', '/api/v10/partner-sdk/token/bot', {
      token: `Bot ${this.app.botToken}`,
      body: {
        external_user_id: externalUserId,
        ...(name === undefined ? {} : { preferred_global_name: name }),
      },
    });
    if (answer.status !== 200)
      throw new Error(`making the player "${externalUserId}" failed:\n${describeError(answer)}`);
    const token = `Bearer ${String(answer.body.access_token)}`;
    const me = await callApi(this.base, 'GET', '/api/v10/users/@me', { token });
    if (me.status !== 200)
      throw new Error(`reading the player "${externalUserId}" failed:\n${describeError(me)}`);
    const player = new WorldPlayer(
      { base: this.base, note: (line) => this.log.note(line) },
      String(me.body.id),
      externalUserId,
      token,
    );
    this.players.set(player.id, player);
    this.log.note(`player ${externalUserId}: provisional account ${player.id}`);
    return player;
  }

  /** A channel of the world by name (or its object or id); no argument: the first one. Throws naming the channels. */
  channel(ref?: ChannelRef): WorldChannel {
    if (ref === undefined) return this.channels[0] as WorldChannel;
    const key = typeof ref === 'string' ? ref.replace(/^#/, '') : ref.id;
    const found = this.channels.find((c) => c.name === key || c.id === key);
    if (!found)
      throw new Error(
        `no channel "${key}" in this world (its channels: ${this.channels.map((c) => c.name).join(', ')})`,
      );
    return found;
  }

  /**
   * The server's timeline of the world's app: its interactions, newest first, each with
   * the payload, the delivery, the answer or the exact failure reason, refused callbacks,
   * follow-ups and edits (`limit` 1-100, default 25; `before`: an interaction id).
   */
  async interactions(options: { limit?: number; before?: string } = {}): Promise<TimelineEntry[]> {
    const query = new URLSearchParams();
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.before !== undefined) query.set('before', options.before);
    const search = query.toString();
    const route = `/admin/applications/${this.app.id}/interactions${search ? `?${search}` : ''}`;
    const answer = await callApi(this.base, 'GET', route, { token: `Admin ${this.adminToken}` });
    if (answer.status !== 200)
      throw new Error(`reading the interaction timeline failed:\n${describeError(answer)}`);
    return answer.body as TimelineEntry[];
  }

  /**
   * Makes an interaction's 3-second window for the initial response (`initial`) or its
   * 15-minute token (`token`) pass now, so that a test of "too late" does not wait: the
   * app's next callback gets Discord's 10062 / 40060, its follow-ups 50027. Answers the
   * interaction's timeline entry as it now is.
   */
  async expireInteraction(
    result: InteractionResult | { id: string },
    window: 'initial' | 'token',
  ): Promise<TimelineEntry> {
    const id = 'interaction' in result ? result.interaction?.id : result.id;
    if (!id)
      throw new Error(
        'expireInteraction: this result has no interaction (ACS refused it before the app saw it)',
      );
    const route = `/admin/applications/${this.app.id}/interactions/${id}/expire`;
    const answer = await callApi(this.base, 'POST', route, {
      token: `Admin ${this.adminToken}`,
      body: { window },
    });
    if (answer.status !== 200)
      throw new Error(`expiring interaction ${id} failed:\n${describeError(answer)}`);
    const entry = answer.body as TimelineEntry;
    this.log.note(
      `the ${window === 'initial' ? '3-second window' : '15-minute token'} of interaction ${id} expired` +
        (entry.reason ? `: ${entry.reason}` : ''),
    );
    return entry;
  }

  /**
   * Every interaction, answer and message the world's users saw, as readable text, then
   * the app's REST calls as `requests()` last read them (`withTranscript` reads them anew).
   */
  transcript(): string {
    return [this.log.text(), ...describeRequests(this.requestLog)].join('\n');
  }

  /** Every REST call the world's app made (its bot and Bearer tokens, its interaction webhooks), oldest first. */
  async requests(): Promise<RequestEntry[]> {
    this.requestLog = await fetchRequests({
      base: this.base,
      adminToken: this.adminToken,
      applicationId: this.app.id,
    });
    return [...this.requestLog];
  }

  /** Makes the app's next `times` calls matching `route` fail as told (e.g. 429, to test its retries). */
  injectFault(fault: FaultOptions): Promise<InjectedFault> {
    return injectFault({ base: this.base, adminToken: this.adminToken, applicationId: this.app.id }, fault);
  }

  /** Removes the app's injected faults (all, or one). */
  clearFaults(faultId?: string): Promise<void> {
    return clearFaults({ base: this.base, adminToken: this.adminToken, applicationId: this.app.id }, faultId);
  }

  /**
   * Cleans up through the admin API: closes the users' sessions, deletes the app
   * (`DELETE /admin/applications/{id}`: its bot leaves the guild and its sessions end, its
   * commands, installs and tokens go), then the guild with its channels and members
   * (`DELETE /admin/guilds/{id}`), then the users, the players and the owner
   * (`DELETE /admin/users/{id}`: their sessions and tokens end).
   */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    await Promise.all([...this.users.values()].map((u) => u.close()));
    const steps: [string, string][] = [
      ['DELETE', `/admin/applications/${this.app.id}`],
      ['DELETE', `/admin/guilds/${this.guild.id}`],
      ...[...this.users.values(), ...this.players.values()].map((user): [string, string] => [
        'DELETE',
        `/admin/users/${user.id}`,
      ]),
      ['DELETE', `/admin/users/${this.owner.id}`],
    ];
    const failures: string[] = [];
    for (const [method, route] of steps) {
      const answer = await callApi(this.base, method, route, { token: `Admin ${this.adminToken}` });
      // 404: gone already (the test removed it).
      if (answer.status !== 204 && answer.status !== 404)
        failures.push(`${method} ${route}: ${describeError(answer)}`);
    }
    this.log.note('world destroyed');
    if (failures.length > 0) throw new Error(`destroying the world failed:\n${failures.join('\n')}`);
  }

  /** @internal */
  transcriptOf(): Transcript {
    return this.log;
  }

  /** @internal a message dispatch one of the users heard */
  heard(dispatch: Dispatch): void {
    const channelId = dispatch.d?.channel_id;
    const name = this.channels.find((c) => c.id === channelId)?.name ?? String(channelId);
    this.log.observe(dispatch, name);
  }

  /** @internal a user's id: a world user's name, a user object, or an id */
  userId(ref: UserRef): string {
    if (typeof ref !== 'string') return ref.id;
    return this.users.get(ref)?.id ?? (/^\d+$/.test(ref) ? ref : this.user(ref).id);
  }

  /** @internal */
  userNameOf(id: string): string | undefined {
    return [...this.users.values()].find((u) => u.id === id)?.name;
  }

  /** @internal the gateway's WebSocket URL, as `GET /gateway` answers it */
  gatewayUrl(): Promise<string> {
    this.gateway ??= callApi(this.base, 'GET', '/api/v10/gateway').then((answer) => {
      if (answer.status !== 200 || typeof answer.body?.url !== 'string')
        throw new Error(`GET /gateway failed:\n${describeError(answer)}`);
      return answer.body.url as string;
    });
    return this.gateway;
  }
}
