import { randomBytes } from 'node:crypto';
import { callApi, describeError } from './http/call-api';
import { locateStack } from './locate-stack';
import type { Timing } from './world/types';
import { World } from './world/world';

/** Scopes the world's app is installed with. */
const INSTALL_SCOPES = 'bot applications.commands';

/** Where the stack is, when not found by locateStack, and how long to wait for answers. */
export interface ConnectOptions extends Timing {
  /** ACS's origin (default ACS_URL, else the running npm start's). */
  url?: string;
  /** The admin token (default ACS_ADMIN_TOKEN, else the running npm start's). */
  adminToken?: string;
}

/** What a world is made of. */
export interface WorldSpec {
  /** Users by name, each a member of the guild (default `['alice']`). */
  users?: string[];
  /** Text channels by name (default `['general']`); the first is where actions happen by default. */
  channels?: string[];
  /** The guild's name (default "Test World <random>"). */
  guildName?: string;
  /** The app's name, also its bot's username (default "Test App"). */
  appName?: string;
}

/** A running ACS, through its admin API. */
export class Acs {
  /** @internal */
  constructor(
    readonly url: string,
    private readonly adminToken: string,
    private readonly timing: Required<Timing>,
  ) {}

  /**
   * Builds a new world: an owner, a guild with `channels` and `users` as members, an
   * application owned by the owner and installed in the guild with `bot applications.commands`.
   */
  async createWorld({
    users = ['alice'],
    channels = ['general'],
    guildName,
    appName,
  }: WorldSpec = {}): Promise<World> {
    if (channels.length === 0) throw new Error('a world needs at least one channel');
    for (const [what, names] of [
      ['user', users],
      ['channel', channels],
    ] as const) {
      const twice = names.find((name, i) => names.indexOf(name) !== i);
      if (twice !== undefined) throw new Error(`the ${what} name "${twice}" is given twice`);
    }
    const suffix = randomBytes(3).toString('hex');
    const owner = await this.admin(201, 'POST', '/admin/users', { username: `owner-${suffix}` });
    const guild = await this.admin(201, 'POST', '/admin/guilds', {
      name: guildName ?? `Test World ${suffix}`,
      owner_id: owner.id,
    });
    const created: { id: string; name: string }[] = [];
    for (const name of channels) {
      const channel = await this.admin(201, 'POST', `/admin/guilds/${guild.id}/channels`, { name, type: 0 });
      created.push({ id: channel.id, name: channel.name });
    }
    const members: { id: string; name: string }[] = [];
    for (const name of users) {
      const user = await this.admin(201, 'POST', '/admin/users', { username: name });
      await this.admin(201, 'PUT', `/admin/guilds/${guild.id}/members/${user.id}`, {});
      members.push({ id: user.id, name });
    }
    const app = await this.admin(201, 'POST', '/admin/applications', {
      name: appName ?? 'Test App',
      owner_id: owner.id,
    });
    await this.admin(200, 'POST', '/admin/oauth2/authorize', {
      client_id: app.id,
      user_id: owner.id,
      scope: INSTALL_SCOPES,
      guild_id: guild.id,
    });
    return new World({
      base: this.url,
      adminToken: this.adminToken,
      app: {
        id: app.id,
        name: app.name,
        botToken: app.bot_token,
        publicKey: app.verify_key,
        clientSecret: app.client_secret,
      },
      guild: { id: guild.id, name: guild.name },
      owner: { id: owner.id, username: owner.username },
      channels: created,
      users: members,
      timing: this.timing,
    });
  }

  /** One admin call; throws with the answer when its status is not `expected`. */
  private async admin(
    expected: number,
    method: string,
    route: string,
    body?: unknown,
    // The admin API's objects, read field by field.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<any> {
    const answer = await callApi(this.url, method, route, { token: `Admin ${this.adminToken}`, body });
    if (answer.status !== expected)
      throw new Error(`building the world: ${method} ${route} answered\n${describeError(answer)}`);
    return answer.body;
  }
}

/**
 * Connects to a running ACS: `options.url` and `options.adminToken`, else ACS_URL and
 * ACS_ADMIN_TOKEN, else the `npm start` found through ACS_DATA_DIR, a `.data/` above the
 * current folder or `~/.acs/stack.json`. Checks that the admin token is accepted.
 */
export async function connectAcs(options: ConnectOptions = {}): Promise<Acs> {
  const located =
    options.url && options.adminToken
      ? { apiUrl: options.url.replace(/\/+$/, ''), adminToken: options.adminToken }
      : locateStack({
          ...process.env,
          ...(options.url ? { ACS_URL: options.url } : {}),
          ...(options.adminToken ? { ACS_ADMIN_TOKEN: options.adminToken } : {}),
        });
  let probe;
  try {
    // An admin route that answers 404 for an unknown user, 401 for a wrong token.
    probe = await callApi(located.apiUrl, 'POST', '/admin/users/1/sessions', {
      token: `Admin ${located.adminToken}`,
    });
  } catch (error) {
    throw new Error(`ACS does not answer at ${located.apiUrl} (${(error as Error).message}): is it running?`);
  }
  if (probe.status === 401)
    throw new Error(
      `ACS at ${located.apiUrl} refused the admin token (401): is it the one this stack started with?`,
    );
  return new Acs(located.apiUrl, located.adminToken, {
    quietMs: options.quietMs ?? 500,
    finalTimeoutMs: options.finalTimeoutMs ?? 10_000,
  });
}
