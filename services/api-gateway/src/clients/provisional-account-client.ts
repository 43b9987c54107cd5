import type { oauth } from '@acs/protos';
import { callPeer } from '@acs/service-kit';

/**
 * What api-gateway asks oauth about the Social SDK's provisional accounts (oauth owns
 * them). Bodies go as sent, for oauth to validate; answers come back as the API's JSON text.
 */
export interface ProvisionalAccountClient {
  /** `POST /partner-sdk/token/bot` of the bot's application: the ProvisionalTokenResponse. */
  issueBotToken(applicationId: string, bodyJson: string, issuer: string): Promise<string>;
  /** `POST /partner-sdk/token` (the External Credentials Exchange): the ProvisionalTokenResponse. */
  exchange(bodyJson: string, issuer: string): Promise<string>;
  /** The admin's `PUT …/identity-providers/{type}`: the provider. */
  putIdentityProvider(applicationId: string, externalAuthType: string, bodyJson: string): Promise<string>;
  /** The admin's `POST …/external-tokens`: `{external_auth_token}`. */
  createTestExternalToken(applicationId: string, bodyJson: string): Promise<string>;
  /** `POST /partner-sdk/provisional-accounts/unmerge/bot`: the application whose tokens were revoked. */
  unmergeBot(applicationId: string, bodyJson: string): Promise<string>;
  /** `POST /partner-sdk/provisional-accounts/unmerge`: the application whose tokens were revoked. */
  unmerge(bodyJson: string): Promise<string>;
  /** The admin's `POST /admin/users/{id}/ban`: the ban. */
  ban(userId: string, bodyJson: string): Promise<string>;
  /** The admin's `DELETE /admin/users/{id}/ban`. */
  unban(userId: string): Promise<void>;
  /** `PATCH /users/@me/account` of a provisional account: the user. */
  rename(applicationId: string, userId: string, bodyJson: string): Promise<string>;
}

/** The ProvisionalAccountClient over oauth's gRPC client. */
export function createProvisionalAccountClient(client: oauth.OAuthServiceClient): ProvisionalAccountClient {
  return {
    async issueBotToken(applicationId, bodyJson, issuer) {
      const request = { application_id: applicationId, body_json: bodyJson, issuer };
      return (await callPeer(client, client.IssueBotProvisionalToken, request)).token_json;
    },
    async exchange(bodyJson, issuer) {
      const request = { body_json: bodyJson, issuer };
      return (await callPeer(client, client.ExchangeExternalCredentials, request)).token_json;
    },
    async putIdentityProvider(applicationId, externalAuthType, bodyJson) {
      const request = {
        application_id: applicationId,
        external_auth_type: externalAuthType,
        body_json: bodyJson,
      };
      return (await callPeer(client, client.PutIdentityProvider, request)).provider_json;
    },
    async createTestExternalToken(applicationId, bodyJson) {
      const request = { application_id: applicationId, body_json: bodyJson };
      return (await callPeer(client, client.CreateTestExternalToken, request)).token_json;
    },
    async unmergeBot(applicationId, bodyJson) {
      const request = { application_id: applicationId, body_json: bodyJson };
      return (await callPeer(client, client.UnmergeBotProvisionalAccount, request)).application_id;
    },
    async unmerge(bodyJson) {
      return (await callPeer(client, client.UnmergeProvisionalAccount, { body_json: bodyJson }))
        .application_id;
    },
    async ban(userId, bodyJson) {
      return (await callPeer(client, client.BanUser, { user_id: userId, body_json: bodyJson })).ban_json;
    },
    async unban(userId) {
      await callPeer(client, client.UnbanUser, { user_id: userId });
    },
    async rename(applicationId, userId, bodyJson) {
      const request = { application_id: applicationId, user_id: userId, body_json: bodyJson };
      return (await callPeer(client, client.RenameProvisionalAccount, request)).user_json;
    },
  };
}
