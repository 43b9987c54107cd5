import type { oauth } from '@acs/protos';
import { hashSecret } from '../domain/hash-secret';
import { BaseErrorCode, fieldError, parseJsonObject } from '@acs/discord-errors';
import { MAX_LISTED_USERS } from '../domain/limits';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { generateSessionToken } from '../domain/random-token';
import { renderPublicUser, renderUser } from '../domain/render-user';
import { validateNewUser } from '../domain/validate-user-body';
import { validateUserUpdate } from '../domain/validate-user-update';
import type { HandlerDeps } from './handler-deps';

/** Handlers of the user RPCs (the admin API's `/admin/users…`). */
export function createUserHandlers({ users, tokens, snowflakes }: HandlerDeps) {
  return {
    async CreateUser(request: oauth.CreateUserRequest__Output): Promise<oauth.CreateUserResponse> {
      const user = await users.create(snowflakes.next(), validateNewUser(parseJsonObject(request.body_json)));
      return { user_json: JSON.stringify(renderUser(user)) };
    },

    async GetUser(request: oauth.GetUserRequest__Output): Promise<oauth.GetUserResponse> {
      const user = await users.get(parseSnowflakeParam('user_id', request.user_id));
      return {
        user_json: JSON.stringify(renderUser(user)),
        locale: user.locale,
        profile_privacy: user.profilePrivacy,
        public_user_json: JSON.stringify(renderPublicUser(user)),
      };
    },

    async UpdateUser(request: oauth.UpdateUserRequest__Output): Promise<oauth.UpdateUserResponse> {
      const id = parseSnowflakeParam('user_id', request.user_id);
      const user = await users.update(id, validateUserUpdate(parseJsonObject(request.body_json)));
      return { user_json: JSON.stringify(renderUser(user)) };
    },

    /** DELETE /admin/users/{id} (the user's guild memberships are permissions', removed by the route). */
    async DeleteUser(request: oauth.DeleteUserRequest__Output): Promise<oauth.DeleteUserResponse> {
      await users.delete(parseSnowflakeParam('user_id', request.user_id));
      return {};
    },

    async ListUsers(request: oauth.ListUsersRequest__Output): Promise<oauth.ListUsersResponse> {
      if (request.every) {
        const after = request.after === '' ? 0n : parseSnowflakeParam('after', request.after);
        const page = await users.listAfter(after, MAX_LISTED_USERS);
        return { users_json: JSON.stringify(page.map(renderPublicUser)) };
      }
      if (request.user_ids.length > MAX_LISTED_USERS)
        throw fieldError(
          'user_ids',
          BaseErrorCode.BASE_TYPE_MAX_LENGTH,
          `Must be ${MAX_LISTED_USERS} or fewer in length.`,
        );
      const found = await users.findMany(request.user_ids.map((id) => parseSnowflakeParam('user_ids', id)));
      return { users_json: JSON.stringify(found.map(renderPublicUser)) };
    },

    async CreateSession(request: oauth.CreateSessionRequest__Output): Promise<oauth.CreateSessionResponse> {
      const token = generateSessionToken();
      await tokens.createSession(parseSnowflakeParam('user_id', request.user_id), hashSecret(token));
      return { token };
    },
  };
}
