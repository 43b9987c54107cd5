import { LRUCache } from 'lru-cache';
import type { oauth } from '@acs/protos';
import { callPeer } from '@acs/service-kit';
import type { JsonRecord } from '../domain/lobby-objects';

/** How long a user object is reused (a message's author, posting again), and how many are kept. */
const USER_CACHE_MS = 5_000;
const USER_CACHE_ENTRIES = 10_000;

/**
 * What lobby asks of oauth: a user's object as others see it (a member to add exists; a
 * message's author, shown to every member, the app and linked channels: never e-mail or
 * other private fields), the application's bot user included, whose id is the
 * application's. An unknown user rejects with oauth's 404 / 10013; a failure in transport
 * with 503 or 504. Users found are reused for a few seconds (a member posting a burst of
 * messages costs one lookup); failures are not kept.
 */
export interface OAuthClient {
  getPublicUser(userId: string): Promise<JsonRecord>;
}

/** The OAuthClient over oauth's gRPC client. */
export function createOAuthClient(client: oauth.OAuthServiceClient): OAuthClient {
  const users = new LRUCache<string, Promise<JsonRecord>>({ max: USER_CACHE_ENTRIES, ttl: USER_CACHE_MS });
  return {
    getPublicUser(userId) {
      const known = users.get(userId);
      if (known) return known;
      const lookup = callPeer<oauth.GetUserRequest, oauth.GetUserResponse__Output>(client, client.GetUser, {
        user_id: userId,
      }).then(
        (answer) => JSON.parse(answer.public_user_json) as JsonRecord,
        (error: unknown) => {
          users.delete(userId);
          throw error;
        },
      );
      users.set(userId, lookup);
      return lookup;
    },
  };
}
