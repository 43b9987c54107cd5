import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { DiscordError, fieldError, UnauthorizedError } from '@acs/discord-errors';
import { isSnowflake } from '@acs/snowflake';
import type { Authenticator } from '../auth/create-authenticator';
import type { PeerClients } from '../clients/peer-clients';
import { refuseEndpointUrlsAtCreation } from '../domain/endpoint-urls';
import { needsEntryPoint } from '../domain/needs-entry-point';
import type { IssuerOf } from '../http/issuer-of';
import type { Route } from '../http/route-table';
import { sendJson, sendNoContent } from '../http/send-json';
import { integerQuery, snowflakeParam, snowflakeQuery } from '../http/path-params';
import { deleteUser } from './delete-user';
import { monetizationAdminRoutes } from './monetization-admin-routes';
import { testControlRoutes, type TestControl } from './test-control-routes';
import { verifyEndpointUrls } from './verify-endpoint-urls';

/** Guilds with an application's commands, read per page when deleting the application. */
const COMMAND_GUILDS_PAGE = 200;

/** Compares the presented admin credential with the configured one in constant time. */
function createAdminCheck(adminToken: string): RequestHandler {
  const expected = createHash('sha256').update(`Admin ${adminToken}`).digest();
  return (req, _res, next) => {
    const presented = createHash('sha256')
      .update(req.headers.authorization ?? '')
      .digest();
    next(timingSafeEqual(presented, expected) ? undefined : new UnauthorizedError());
  };
}

/** `?after=` of `GET /admin/users`: one snowflake (oauth checks it), '' when absent. */
function afterParam(req: Request): string {
  const after = req.query.after;
  if (after === undefined) return '';
  if (typeof after !== 'string' || !isSnowflake(after))
    throw fieldError('after', 'NUMBER_TYPE_COERCE', `Value "${String(after)}" is not snowflake.`);
  return after;
}

/**
 * The admin API of ADMIN-API.md. It only forwards to the owning service's RPCs, which
 * validate bodies under the public API's rules; the gateway adds what spans services
 * (a guild's owner must be a user; an EMBEDDED app gets its entry point command).
 */
export function adminRoutes(
  clients: PeerClients,
  auth: Authenticator,
  readBody: RequestHandler[],
  adminToken: string,
  control: TestControl,
  issuerOf: IssuerOf,
): Route[] {
  const { oauth, permissions, registry, dispatcher, interactions } = clients;
  const admin = createAdminCheck(adminToken);
  const body = (req: Request): string => req.rawBody ?? '';

  /** An EMBEDDED app always has its `Launch` entry point (created when missing). */
  async function ensureEntryPoint(applicationId: string, flags: number): Promise<void> {
    if (needsEntryPoint(flags)) await registry.ensureEntryPoint(applicationId, flags);
  }

  /** A user id in a body must name an existing user: 50035 on that field otherwise. */
  async function assertUserField(field: string, value: unknown): Promise<void> {
    if (typeof value !== 'string' || !isSnowflake(value)) return; // the owning service reports the type error
    try {
      await oauth.getPublicUser(value);
    } catch (error) {
      if (error instanceof DiscordError && error.httpStatus === 404) {
        throw fieldError(field, 'UNKNOWN_USER', `Unknown user ${value}`);
      }
      throw error;
    }
  }

  /**
   * Deletes every command of an application, global and in each guild, while it still
   * exists (its installations authorize the guild overwrites). A guild it was removed from
   * keeps its commands there: the index shows only installed applications' commands.
   */
  async function deleteCommandsOf(applicationId: string): Promise<void> {
    const guilds: string[] = [];
    for (let after = '0'; ;) {
      const page = await registry.commandGuilds(applicationId, after, COMMAND_GUILDS_PAGE);
      guilds.push(...page.map((g) => g.guildId));
      if (page.length < COMMAND_GUILDS_PAGE) break;
      after = page[page.length - 1]?.guildId ?? after;
    }
    for (const guildId of guilds) {
      try {
        await registry.overwriteCommands({ applicationId, guildId }, '[]', 0);
      } catch (error) {
        if (!(error instanceof DiscordError && error.httpStatus === 403)) throw error;
      }
    }
    await registry.overwriteCommands({ applicationId }, '[]', 0);
  }

  const w = (...handlers: RequestHandler[]): RequestHandler[] => [admin, ...readBody, ...handlers];

  return [
    {
      method: 'post',
      path: '/applications',
      handlers: w(async (req, res) => {
        refuseEndpointUrlsAtCreation(req.body);
        const created = await oauth.createApplication(body(req));
        await ensureEntryPoint(created.applicationId, created.flags);
        sendJson(res, 201, created.applicationJson);
      }),
    },
    {
      method: 'patch',
      path: '/applications/:application_id',
      handlers: w(async (req, res) => {
        const application_id = snowflakeParam(req, 'application_id');
        await verifyEndpointUrls(dispatcher, application_id, req.body);
        const updated = await oauth.updateApplication(application_id, body(req));
        auth.cache.invalidateApplication(application_id);
        await ensureEntryPoint(application_id, updated.flags);
        sendJson(res, 200, updated.applicationJson);
      }),
    },
    {
      method: 'put',
      path: '/applications/:application_id/identity-providers/:external_auth_type',
      handlers: w(async (req, res) => {
        const application_id = snowflakeParam(req, 'application_id');
        const type = String(req.params.external_auth_type);
        sendJson(res, 200, await oauth.provisional.putIdentityProvider(application_id, type, body(req)));
      }),
    },
    {
      method: 'post',
      path: '/applications/:application_id/external-tokens',
      handlers: w(async (req, res) => {
        const application_id = snowflakeParam(req, 'application_id');
        sendJson(res, 200, await oauth.provisional.createTestExternalToken(application_id, body(req)));
      }),
    },
    {
      // The Bot Token Endpoint's player, without the bot token: what the console uses to
      // create game players (the console holds the admin token, never an app's secrets).
      method: 'post',
      path: '/applications/:application_id/provisional-tokens',
      handlers: w(async (req, res) => {
        const application_id = snowflakeParam(req, 'application_id');
        await oauth.getApplication(application_id); // 404 / 10002 before anything is made
        sendJson(res, 200, await oauth.provisional.issueBotToken(application_id, body(req), issuerOf(req)));
      }),
    },
    {
      method: 'delete',
      path: '/applications/:application_id',
      handlers: w(async (req, res) => {
        const application_id = snowflakeParam(req, 'application_id');
        // 404 / 10002 before anything is touched.
        await oauth.getApplication(application_id);
        await deleteCommandsOf(application_id);
        await oauth.deleteApplication(application_id);
        auth.cache.invalidateApplication(application_id);
        sendNoContent(res);
      }),
    },
    {
      method: 'post',
      path: '/applications/:application_id/bot/reset-token',
      handlers: w(async (req, res) => {
        const application_id = snowflakeParam(req, 'application_id');
        const token = await oauth.resetBotToken(application_id);
        auth.cache.invalidateApplication(application_id);
        sendJson(res, 200, { token });
      }),
    },
    {
      method: 'post',
      path: '/applications/:application_id/reset-secret',
      handlers: w(async (req, res) => {
        const application_id = snowflakeParam(req, 'application_id');
        const client_secret = await oauth.resetClientSecret(application_id);
        auth.cache.invalidateApplication(application_id);
        sendJson(res, 200, { client_secret });
      }),
    },
    // The test-control surface of interactions (docs/admin-api.md, "Interactions").
    {
      method: 'get',
      path: '/applications/:application_id/interactions',
      handlers: w(async (req, res) => {
        const applicationId = snowflakeParam(req, 'application_id');
        const before = snowflakeQuery(req, 'before');
        const limit = integerQuery(req, 'limit', 1, 100) ?? 0;
        sendJson(res, 200, await interactions.listInteractionTimeline({ applicationId, before, limit }));
      }),
    },
    {
      method: 'get',
      path: '/applications/:application_id/interactions/:interaction_id',
      handlers: w(async (req, res) => {
        const applicationId = snowflakeParam(req, 'application_id');
        const interactionId = snowflakeParam(req, 'interaction_id');
        sendJson(res, 200, await interactions.getInteractionTimeline(applicationId, interactionId));
      }),
    },
    {
      method: 'post',
      path: '/applications/:application_id/interactions/:interaction_id/expire',
      handlers: w(async (req, res) => {
        const applicationId = snowflakeParam(req, 'application_id');
        const interactionId = snowflakeParam(req, 'interaction_id');
        sendJson(res, 200, await interactions.expireInteraction(applicationId, interactionId, body(req)));
      }),
    },
    {
      method: 'post',
      path: '/users',
      handlers: w(async (req, res) => {
        sendJson(res, 201, await oauth.createUser(body(req)));
      }),
    },
    {
      method: 'get',
      path: '/users',
      handlers: w(async (req, res) => {
        sendJson(res, 200, await oauth.listUsers(afterParam(req)));
      }),
    },
    {
      method: 'patch',
      path: '/users/:user_id',
      handlers: w(async (req, res) => {
        sendJson(res, 200, await oauth.updateUser(snowflakeParam(req, 'user_id'), body(req)));
      }),
    },
    {
      method: 'post',
      path: '/users/:user_id/sessions',
      handlers: w(async (req, res) => {
        const token = await oauth.createSession(snowflakeParam(req, 'user_id'));
        sendJson(res, 201, { token });
      }),
    },
    {
      method: 'post',
      path: '/users/:user_id/connections',
      handlers: w(async (req, res) => {
        const user_id = snowflakeParam(req, 'user_id');
        sendJson(res, 201, await oauth.createConnection(user_id, body(req)));
      }),
    },
    {
      method: 'delete',
      path: '/users/:user_id/authorizations/:application_id',
      handlers: w(async (req, res) => {
        const user_id = snowflakeParam(req, 'user_id');
        const application_id = snowflakeParam(req, 'application_id');
        await oauth.removeAuthorization(application_id, user_id);
        // Its revoked tokens must fail here at once, not after the cache's TTL.
        auth.cache.invalidateApplication(application_id);
        sendNoContent(res);
      }),
    },
    {
      method: 'post',
      path: '/users/:user_id/ban',
      handlers: w(async (req, res) => {
        const user_id = snowflakeParam(req, 'user_id');
        const ban = await oauth.provisional.ban(user_id, body(req));
        // Its tokens and sessions must fail here at once (other replicas hear the events).
        auth.cache.invalidateUser(user_id);
        sendJson(res, 200, ban);
      }),
    },
    {
      method: 'delete',
      path: '/users/:user_id/ban',
      handlers: w(async (req, res) => {
        await oauth.provisional.unban(snowflakeParam(req, 'user_id'));
        sendNoContent(res);
      }),
    },
    {
      method: 'delete',
      path: '/users/:user_id',
      handlers: w(async (req, res) => {
        const user_id = snowflakeParam(req, 'user_id');
        await deleteUser(clients, user_id);
        // Its tokens and sessions must fail here at once.
        auth.cache.invalidateUser(user_id);
        sendNoContent(res);
      }),
    },
    {
      method: 'post',
      path: '/guilds',
      handlers: w(async (req, res) => {
        await assertUserField('owner_id', (req.body as { owner_id?: unknown } | undefined)?.owner_id);
        sendJson(res, 201, await permissions.createGuild(body(req)));
      }),
    },
    {
      method: 'get',
      path: '/guilds/:guild_id',
      handlers: w(async (req, res) => {
        sendJson(res, 200, await permissions.getGuild(snowflakeParam(req, 'guild_id')));
      }),
    },
    {
      // The console's members panel: no public route lists members to a user session.
      method: 'get',
      path: '/guilds/:guild_id/members',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        const after = snowflakeQuery(req, 'after');
        const limit = integerQuery(req, 'limit', 1, 1000) ?? 100;
        sendJson(res, 200, await permissions.listGuildMembers(guild_id, after, limit));
      }),
    },
    {
      method: 'patch',
      path: '/guilds/:guild_id',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        sendJson(res, 200, await permissions.updateGuild(guild_id, body(req)));
      }),
    },
    {
      method: 'delete',
      path: '/guilds/:guild_id',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        // 404 / 10004 before anything is touched (no user has the guild's id).
        await permissions.isMember(guild_id, guild_id);
        // Each app is uninstalled first: its bot gets GUILD_DELETE and leaves the members.
        for (const application_id of await oauth.listGuildInstallations(guild_id)) {
          await oauth.removeGuildInstallation(application_id, guild_id);
          auth.cache.invalidateApplication(application_id);
        }
        await permissions.deleteGuild(guild_id);
        sendNoContent(res);
      }),
    },
    {
      method: 'post',
      path: '/guilds/:guild_id/roles',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        sendJson(res, 201, await permissions.createRole(guild_id, body(req)));
      }),
    },
    {
      method: 'patch',
      path: '/guilds/:guild_id/roles/:role_id',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        const role_id = snowflakeParam(req, 'role_id');
        sendJson(res, 200, await permissions.updateRole(guild_id, role_id, body(req)));
      }),
    },
    {
      method: 'put',
      path: '/guilds/:guild_id/members/:user_id',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        const user_id = snowflakeParam(req, 'user_id');
        await oauth.getPublicUser(user_id);
        const member = await permissions.putMember(guild_id, user_id, body(req));
        sendJson(res, member.created ? 201 : 200, member.memberJson);
      }),
    },
    {
      method: 'delete',
      path: '/guilds/:guild_id/members/:user_id',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        const user_id = snowflakeParam(req, 'user_id');
        // Removing an application's bot from a guild uninstalls the application there
        // (APPLICATION_DEAUTHORIZED, integration type 0); bots are not members here.
        const uninstalled = await oauth.removeGuildInstallation(user_id, guild_id);
        if (!uninstalled) await permissions.removeMember(guild_id, user_id);
        sendNoContent(res);
      }),
    },
    {
      method: 'post',
      path: '/guilds/:guild_id/channels',
      handlers: w(async (req, res) => {
        const guild_id = snowflakeParam(req, 'guild_id');
        sendJson(res, 201, await permissions.createChannel(guild_id, body(req)));
      }),
    },
    {
      method: 'patch',
      path: '/channels/:channel_id',
      handlers: w(async (req, res) => {
        const channel_id = snowflakeParam(req, 'channel_id');
        sendJson(res, 200, await permissions.updateChannel(channel_id, body(req)));
      }),
    },
    {
      method: 'delete',
      path: '/channels/:channel_id',
      handlers: w(async (req, res) => {
        await permissions.deleteChannel(snowflakeParam(req, 'channel_id'));
        sendNoContent(res);
      }),
    },
    ...monetizationAdminRoutes(oauth.monetization, permissions, w),
    ...testControlRoutes(oauth, control, w),
    {
      method: 'post',
      path: '/oauth2/authorize',
      handlers: w(async (req, res) => {
        const answer = await oauth.authorize(body(req));
        sendJson(
          res,
          200,
          answer.code ? { location: answer.location, code: answer.code } : { location: answer.location },
        );
      }),
    },
  ];
}
