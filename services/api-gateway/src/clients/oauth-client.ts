import type { oauth } from '@acs/protos';
import type { ClientAuthentication } from '../domain/client-authentication';
import type { GuildGrant } from '../domain/guild-grant';
import type { Principal } from '../domain/principal';
import { callPeer } from '@acs/service-kit';
import { checkServing } from './check-serving';
import { createMonetizationClient, type MonetizationClient } from './monetization-client';
import { createProvisionalAccountClient, type ProvisionalAccountClient } from './provisional-account-client';

/** A token oauth resolved: its principal, and how long it may be trusted without asking again. */
export interface ResolvedToken {
  principal: Principal;
  cacheSeconds: number;
}

/** What the token endpoint grants (RFC 6749 §5.1). */
export interface TokenGrant {
  accessToken: string;
  tokenType: string;
  expiresIn: number;
  /** '' when none is issued (client credentials). */
  refreshToken: string;
  scope: string;
  /** '' when none is issued (a grant without `openid`). */
  idToken: string;
}

/** An application object as JSON text (passed on to the client as is), with its flags. */
export interface ApplicationAnswer {
  applicationJson: string;
  flags: number;
}

/**
 * What api-gateway asks of oauth: tokens, applications, users, authorizations and
 * installations. Objects come back as oauth's JSON text, which the gateway passes on
 * without re-encoding. A failure oauth answers with its own error rejects with that
 * DiscordError (an OAuth2Error at the token endpoints); one in transport with 503 or 504.
 */
export interface OAuthClient {
  /** Whether oauth reports SERVING on its health service. */
  isServing(deadlineMs: number): Promise<boolean>;
  /** The principal of a credential of `kind`; 401 when oauth does not know it (or it was revoked). */
  resolveToken(kind: Principal['kind'], token: string): Promise<ResolvedToken>;
  /** The token endpoint: a grant for an authenticated client and the form's other parameters. */
  exchangeToken(
    client: ClientAuthentication,
    params: Record<string, string>,
    issuer: string,
  ): Promise<TokenGrant>;
  /** `GET /oauth2/keys`: the JWKS of the keys that sign ID tokens, as JSON text. */
  getIdTokenKeys(): Promise<string>;
  /** RFC 7009 revocation; the application whose token it was, when one was revoked. */
  revokeToken(
    client: ClientAuthentication,
    token: string,
    tokenTypeHint: string,
  ): Promise<{ revoked: boolean; applicationId: string }>;
  /** `GET /oauth2/@me`: the authorization of a Bearer token, as JSON text. */
  describeAuthorization(token: string): Promise<string>;
  createApplication(bodyJson: string): Promise<ApplicationAnswer & { applicationId: string }>;
  /** The admin edit of an application. */
  updateApplication(applicationId: string, bodyJson: string): Promise<ApplicationAnswer>;
  /** What a bot may edit of its own application (`PATCH /applications/@me`); the application JSON. */
  updateCurrentApplication(applicationId: string, bodyJson: string): Promise<string>;
  /** The application object, as JSON text. */
  getApplication(applicationId: string): Promise<string>;
  /** A new bot token (the old one stops resolving). */
  resetBotToken(applicationId: string): Promise<string>;
  /** A new client secret. */
  resetClientSecret(applicationId: string): Promise<string>;
  /** A new user, as JSON text. */
  createUser(bodyJson: string): Promise<string>;
  /**
   * The user as others see them (no e-mail, locale, MFA or premium fields), as JSON text;
   * 404 (10013 Unknown User) when there is none.
   */
  getPublicUser(userId: string): Promise<string>;
  /** `PATCH /admin/users/{id}`: the updated user, as JSON text; 404 (10013) when there is none. */
  updateUser(userId: string, bodyJson: string): Promise<string>;
  /** `DELETE /admin/users/{id}`: the account and its credentials (not its guild memberships: permissions'). */
  deleteUser(userId: string): Promise<void>;
  /** `GET /users/@me` as the principal may see it (its scopes decide the fields), as JSON text. */
  getCurrentUser(principal: Principal): Promise<string>;
  /** `GET /admin/users`: up to 1,000 users by id from the first above `after` ('' for the first), as others see them, as JSON text. */
  listUsers(after: string): Promise<string>;
  /** A chat-client session token for the user. */
  createSession(userId: string): Promise<string>;
  /** A new connection of the user, as JSON text. */
  createConnection(userId: string, bodyJson: string): Promise<string>;
  /** The user's connections, as JSON text. */
  listConnections(userId: string): Promise<string>;
  /** The admin's consent screen: where the browser goes, and the code when one is issued ('' otherwise). */
  authorize(bodyJson: string): Promise<{ location: string; code: string }>;
  /** Ends a user's authorization of an application (its tokens are revoked). */
  removeAuthorization(applicationId: string, userId: string): Promise<void>;
  /** Uninstalls an application from a guild; false when it was not installed there. */
  removeGuildInstallation(applicationId: string, guildId: string): Promise<boolean>;
  /**
   * Deletes the application, its bot user, credentials, tokens and installations (the bot
   * leaves its guilds, its sessions end); 404 (10002 Unknown Application) when there is none.
   */
  deleteApplication(applicationId: string): Promise<void>;
  /** Resolves when the application is installed in the guild; 403 / 50001 Missing Access when not. */
  requireInstallation(applicationId: string, guildId: string): Promise<void>;
  /** The guilds the application's bot is installed in. */
  listBotGuilds(applicationId: string): Promise<GuildGrant[]>;
  /** The ids of the applications installed in the guild (any scope), ascending. */
  listGuildInstallations(guildId: string): Promise<string[]>;
  /** SKUs, entitlements and subscriptions, which oauth owns too. */
  monetization: MonetizationClient;
  /** The Social SDK's provisional accounts, which oauth owns. */
  provisional: ProvisionalAccountClient;
}

/** What oauth is asked to resolve, for each kind of credential. */
const WIRE_KINDS: Record<Principal['kind'], oauth.PrincipalKind> = {
  bot: 'PRINCIPAL_KIND_BOT',
  bearer: 'PRINCIPAL_KIND_BEARER',
  user: 'PRINCIPAL_KIND_USER_SESSION',
};

/** How a client authenticated, as oauth's RPCs take it. */
const WIRE_AUTH_METHODS: Record<ClientAuthentication['method'], oauth.ClientAuthMethod> = {
  none: 'CLIENT_AUTH_METHOD_NONE',
  basic: 'CLIENT_AUTH_METHOD_BASIC',
  post: 'CLIENT_AUTH_METHOD_POST',
};

/** A client's authentication as the fields of oauth's token requests. */
function wireClient(client: ClientAuthentication) {
  return {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    auth_method: WIRE_AUTH_METHODS[client.method],
  };
}

/** The OAuthClient over oauth's gRPC client. */
export function createOAuthClient(client: oauth.OAuthServiceClient): OAuthClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),
    monetization: createMonetizationClient(client),
    provisional: createProvisionalAccountClient(client),

    async resolveToken(kind, token) {
      const answer = await callPeer(client, client.ResolveToken, { kind: WIRE_KINDS[kind], token });
      return {
        principal: {
          kind,
          applicationId: answer.application_id,
          userId: answer.user_id,
          scopes: answer.scopes,
          applicationFlags: Number(answer.application_flags),
          userLocale: answer.user_locale,
        },
        cacheSeconds: answer.cache_seconds,
      };
    },

    async exchangeToken(authentication, params, issuer) {
      const answer = await callPeer(client, client.ExchangeToken, {
        ...wireClient(authentication),
        params,
        issuer,
      });
      return {
        accessToken: answer.access_token,
        tokenType: answer.token_type,
        expiresIn: answer.expires_in,
        refreshToken: answer.refresh_token,
        scope: answer.scope,
        idToken: answer.id_token,
      };
    },

    async getIdTokenKeys() {
      return (await callPeer(client, client.GetIdTokenKeys, {})).jwks_json;
    },

    async revokeToken(authentication, token, tokenTypeHint) {
      const answer = await callPeer(client, client.RevokeToken, {
        ...wireClient(authentication),
        token,
        token_type_hint: tokenTypeHint,
      });
      return { revoked: answer.revoked, applicationId: answer.application_id };
    },

    async describeAuthorization(token) {
      return (await callPeer(client, client.DescribeAuthorization, { token })).authorization_json;
    },

    async createApplication(bodyJson) {
      const answer = await callPeer(client, client.CreateApplication, { body_json: bodyJson });
      return {
        applicationId: answer.application_id,
        applicationJson: answer.application_json,
        flags: Number(answer.flags),
      };
    },

    async updateApplication(applicationId, bodyJson) {
      const answer = await callPeer(client, client.UpdateApplication, {
        application_id: applicationId,
        body_json: bodyJson,
      });
      return { applicationJson: answer.application_json, flags: Number(answer.flags) };
    },

    async updateCurrentApplication(applicationId, bodyJson) {
      const answer = await callPeer(client, client.UpdateCurrentApplication, {
        application_id: applicationId,
        body_json: bodyJson,
      });
      return answer.application_json;
    },

    async getApplication(applicationId) {
      return (await callPeer(client, client.GetApplication, { application_id: applicationId }))
        .application_json;
    },

    async resetBotToken(applicationId) {
      return (await callPeer(client, client.ResetBotToken, { application_id: applicationId })).token;
    },

    async resetClientSecret(applicationId) {
      return (await callPeer(client, client.ResetClientSecret, { application_id: applicationId }))
        .client_secret;
    },

    async createUser(bodyJson) {
      return (await callPeer(client, client.CreateUser, { body_json: bodyJson })).user_json;
    },

    async getPublicUser(userId) {
      return (await callPeer(client, client.GetUser, { user_id: userId })).public_user_json;
    },

    async updateUser(userId, bodyJson) {
      return (await callPeer(client, client.UpdateUser, { user_id: userId, body_json: bodyJson })).user_json;
    },

    async deleteUser(userId) {
      await callPeer(client, client.DeleteUser, { user_id: userId });
    },

    async getCurrentUser(principal) {
      const answer = await callPeer(client, client.GetCurrentUser, {
        user_id: principal.userId,
        scopes: [...principal.scopes],
        // Only a Bearer token is narrowed by its scopes: a bot and the user's own
        // chat-client session see the whole object (e-mail included), as Discord's client does.
        bot: principal.kind !== 'bearer',
      });
      return answer.user_json;
    },

    async listUsers(after) {
      return (await callPeer(client, client.ListUsers, { user_ids: [], every: true, after })).users_json;
    },

    async createSession(userId) {
      return (await callPeer(client, client.CreateSession, { user_id: userId })).token;
    },

    async createConnection(userId, bodyJson) {
      const answer = await callPeer(client, client.CreateConnection, {
        user_id: userId,
        body_json: bodyJson,
      });
      return answer.connection_json;
    },

    async listConnections(userId) {
      return (await callPeer(client, client.ListConnections, { user_id: userId })).connections_json;
    },

    async authorize(bodyJson) {
      const answer = await callPeer(client, client.Authorize, { body_json: bodyJson });
      return { location: answer.location, code: answer.code };
    },

    async removeAuthorization(applicationId, userId) {
      await callPeer(client, client.RemoveAuthorization, { application_id: applicationId, user_id: userId });
    },

    async removeGuildInstallation(applicationId, guildId) {
      const answer = await callPeer(client, client.RemoveGuildInstallation, {
        application_id: applicationId,
        guild_id: guildId,
      });
      return answer.removed;
    },

    async listGuildInstallations(guildId) {
      const answer = await callPeer(client, client.ListGuildInstallations, { guild_id: guildId });
      return answer.installations.map((i) => i.application_id);
    },

    async deleteApplication(applicationId) {
      await callPeer(client, client.DeleteApplication, { application_id: applicationId });
    },

    async requireInstallation(applicationId, guildId) {
      await callPeer(client, client.GetInstallation, { application_id: applicationId, guild_id: guildId });
    },

    async listBotGuilds(applicationId) {
      const answer = await callPeer(client, client.ListBotGuilds, { application_id: applicationId });
      return answer.guilds.map((g) => ({ guildId: g.guild_id, permissions: g.permissions }));
    },
  };
}
