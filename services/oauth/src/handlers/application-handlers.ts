import type { oauth } from '@acs/protos';
import { hashSecret } from '../domain/hash-secret';
import { generateBotToken } from '../domain/bot-token';
import { issueApplicationCredentials } from '../domain/issue-application-credentials';
import { parseJsonObject } from '@acs/discord-errors';
import { parseSnowflakeParam } from '../domain/parse-snowflake-param';
import { generateClientSecret } from '../domain/random-token';
import { renderApplication } from '../domain/render-application';
import {
  validateApplicationPatch,
  validateCurrentApplicationPatch,
  validateNewApplication,
} from '../domain/validate-application-body';
import type { HandlerDeps } from './handler-deps';

/** Handlers of the application RPCs (the admin API's `/admin/applications…`, and a bot's `/applications/@me`). */
export function createApplicationHandlers({
  applications,
  installations,
  permissions,
  snowflakes,
  now = () => new Date(),
}: HandlerDeps) {
  /**
   * A renamed application's bot keeps a managed role of the app's name in each guild (the
   * real service renames it with the app). After the commit: permissions is another
   * service; a failure is the request's (503), and a repeated PATCH renames them then.
   */
  const renameManagedRoles = async (patch: { name?: string }, app: { id: string; name: string }) => {
    if (patch.name !== undefined) await permissions.renameManagedRoles(app.id, app.name);
  };
  return {
    async CreateApplication(
      request: oauth.CreateApplicationRequest__Output,
    ): Promise<oauth.CreateApplicationResponse> {
      const fields = validateNewApplication(parseJsonObject(request.body_json));
      const id = snowflakes.next();
      const credentials = issueApplicationCredentials(id, now());
      const app = await applications.create(id, fields, credentials.stored);
      // The only answer that ever shows the raw token and secret.
      const json = {
        ...renderApplication(app),
        bot_token: credentials.botToken,
        client_secret: credentials.clientSecret,
      };
      return { application_json: JSON.stringify(json), application_id: app.id, flags: app.flags };
    },

    async UpdateApplication(
      request: oauth.UpdateApplicationRequest__Output,
    ): Promise<oauth.UpdateApplicationResponse> {
      const id = parseSnowflakeParam('application_id', request.application_id);
      const patch = validateApplicationPatch(parseJsonObject(request.body_json));
      const app = await applications.update(id, patch, now());
      await renameManagedRoles(patch, app);
      return { application_json: JSON.stringify(renderApplication(app)), flags: app.flags };
    },

    /** PATCH /applications/@me: the fields a bot may edit, read as the admin PATCH reads them. */
    async UpdateCurrentApplication(
      request: oauth.UpdateCurrentApplicationRequest__Output,
    ): Promise<oauth.UpdateCurrentApplicationResponse> {
      const id = parseSnowflakeParam('application_id', request.application_id);
      const patch = validateCurrentApplicationPatch(parseJsonObject(request.body_json));
      const app = await applications.update(id, patch, now());
      await renameManagedRoles(patch, app);
      return { application_json: JSON.stringify(renderApplication(app)), flags: app.flags };
    },

    async GetApplication(
      request: oauth.GetApplicationRequest__Output,
    ): Promise<oauth.GetApplicationResponse> {
      const app = await applications.get(parseSnowflakeParam('application_id', request.application_id));
      return { application_json: JSON.stringify(renderApplication(app)), flags: app.flags };
    },

    async ResetBotToken(request: oauth.ResetBotTokenRequest__Output): Promise<oauth.ResetBotTokenResponse> {
      const id = parseSnowflakeParam('application_id', request.application_id);
      const token = generateBotToken(id.toString(), now());
      await applications.replaceBotToken(id, hashSecret(token));
      return { token };
    },

    async DeleteApplication(
      request: oauth.DeleteApplicationRequest__Output,
    ): Promise<oauth.DeleteApplicationResponse> {
      const id = parseSnowflakeParam('application_id', request.application_id);
      await applications.get(id);
      // The bot leaves its guilds' members (with its managed roles) before the delete
      // commits: should a call fail, the DELETE fails and its retry does it all again.
      for (const { guildId } of await installations.listBotGuilds(id)) {
        await permissions.removeBotMember(guildId, id.toString());
      }
      await applications.delete(id);
      return {};
    },

    async ResetClientSecret(
      request: oauth.ResetClientSecretRequest__Output,
    ): Promise<oauth.ResetClientSecretResponse> {
      const id = parseSnowflakeParam('application_id', request.application_id);
      const clientSecret = generateClientSecret();
      await applications.replaceClientSecret(id, hashSecret(clientSecret));
      return { client_secret: clientSecret };
    },
  };
}
