import type { oauth } from '@acs/protos';
import { callUnary, fromGrpcError } from '@acs/service-kit';
import type { JsonRecord } from '../domain/lobby-objects';

/**
 * What lobby asks of oauth: a user's object (a member to add exists; a message's author;
 * the application's bot user, whose id is the application's). An unknown user rejects with
 * oauth's 404 / 10013; a failure in transport with 503 or 504.
 */
export interface OAuthClient {
  getUser(userId: string): Promise<JsonRecord>;
}

/** The OAuthClient over oauth's gRPC client. */
export function createOAuthClient(client: oauth.OAuthServiceClient): OAuthClient {
  return {
    async getUser(userId) {
      const answer = await callUnary<oauth.GetUserRequest, oauth.GetUserResponse__Output>(
        client,
        client.GetUser,
        { user_id: userId },
      ).catch((error: unknown) => {
        throw fromGrpcError(error) ?? error;
      });
      return JSON.parse(answer.user_json) as JsonRecord;
    },
  };
}
