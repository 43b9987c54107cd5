import type { oauth } from '@acs/protos';
import { hashSecret } from '../domain/hash-secret';
import { parseJsonObject } from '@acs/discord-errors';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { generateSessionToken } from '../domain/random-token';
import { renderUser } from '../domain/render-user';
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
      };
    },

    async UpdateUser(request: oauth.UpdateUserRequest__Output): Promise<oauth.UpdateUserResponse> {
      const id = parseSnowflakeParam('user_id', request.user_id);
      const user = await users.update(id, validateUserUpdate(parseJsonObject(request.body_json)));
      return { user_json: JSON.stringify(renderUser(user)) };
    },

    async CreateSession(request: oauth.CreateSessionRequest__Output): Promise<oauth.CreateSessionResponse> {
      const token = generateSessionToken();
      await tokens.createSession(parseSnowflakeParam('user_id', request.user_id), hashSecret(token));
      return { token };
    },
  };
}
