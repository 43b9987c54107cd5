import type { oauth } from '@acs/protos';
import { callPeer } from './call-peer';

/**
 * What api-gateway asks oauth about the Social SDK's provisional accounts (oauth owns
 * them). Bodies go as sent, for oauth to validate; answers come back as the API's JSON text.
 */
export interface ProvisionalAccountClient {
  /** `POST /partner-sdk/token/bot` of the bot's application: the ProvisionalTokenResponse. */
  issueBotToken(applicationId: string, bodyJson: string): Promise<string>;
}

/** The ProvisionalAccountClient over oauth's gRPC client. */
export function createProvisionalAccountClient(client: oauth.OAuthServiceClient): ProvisionalAccountClient {
  return {
    async issueBotToken(applicationId, bodyJson) {
      const request = { application_id: applicationId, body_json: bodyJson };
      return (await callPeer(client, client.IssueBotProvisionalToken, request)).token_json;
    },
  };
}
