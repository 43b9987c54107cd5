import type { oauth } from '@acs/protos';
import { UnauthorizedError, parseJsonObject } from '@acs/discord-errors';
import { hashSecret } from '../domain/hash-secret';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { renderAuthorization } from '../domain/render-authorization';
import { renderCurrentUser } from '../domain/render-user';
import {
  isListedConnection,
  renderConnection,
  validateConnectionBody,
} from '../domain/validate-connection-body';
import type { HandlerDeps } from './handler-deps';

/** Handlers behind `/users/@me…` and `/oauth2/@me`, and the admin API's connections. */
export function createCurrentUserHandlers({
  applications,
  users,
  tokens,
  connections,
  now = () => new Date(),
}: HandlerDeps) {
  return {
    async DescribeAuthorization(
      request: oauth.DescribeAuthorizationRequest__Output,
    ): Promise<oauth.DescribeAuthorizationResponse> {
      if (request.token === '' || request.token.length > 512) throw new UnauthorizedError();
      const grant = await tokens.findLiveAccessToken(hashSecret(request.token), now());
      if (!grant) throw new UnauthorizedError();
      const [application, user] = await Promise.all([
        applications.get(BigInt(grant.applicationId)),
        grant.userId === null ? null : users.find(BigInt(grant.userId)),
      ]);
      const json = renderAuthorization({
        application,
        scopes: grant.scopes,
        expiresAt: grant.expiresAt,
        user: user ?? null,
      });
      return { authorization_json: JSON.stringify(json) };
    },

    async GetCurrentUser(
      request: oauth.GetCurrentUserRequest__Output,
    ): Promise<oauth.GetCurrentUserResponse> {
      const user = await users.get(parseSnowflakeParam('user_id', request.user_id));
      return { user_json: JSON.stringify(renderCurrentUser(user, request.bot ? null : request.scopes)) };
    },

    async ListConnections(
      request: oauth.ListConnectionsRequest__Output,
    ): Promise<oauth.ListConnectionsResponse> {
      const list = await connections.list(parseSnowflakeParam('user_id', request.user_id));
      return { connections_json: JSON.stringify(list.filter(isListedConnection).map(renderConnection)) };
    },

    async CreateConnection(
      request: oauth.CreateConnectionRequest__Output,
    ): Promise<oauth.CreateConnectionResponse> {
      const userId = parseSnowflakeParam('user_id', request.user_id);
      const connection = await connections.upsert(
        userId,
        validateConnectionBody(parseJsonObject(request.body_json)),
      );
      return { connection_json: JSON.stringify(renderConnection(connection)) };
    },
  };
}
