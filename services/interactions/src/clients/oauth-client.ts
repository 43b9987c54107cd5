import type { oauth } from '@acs/protos';
import { callPeer } from '@acs/service-kit';
import type { InvocationParties, JsonRecord } from '../domain/invocation/invocation-facts';

/** What an invocation asks oauth. */
export interface DescribeInvocationQuery {
  applicationId: string;
  userId: string;
  /** Null outside a guild. */
  guildId: string | null;
  /** USER and MENTIONABLE option values, a USER command's target. */
  resolveUserIds: string[];
}

/**
 * What interactions asks of oauth: the application of an invocation, its invoker and the
 * installs that authorize it. A failure oauth answers with its own error rejects with that
 * DiscordError (404 / 10002 for an unknown application); one in transport with 503 or 504.
 */
export interface OAuthClient {
  describeInvocation(query: DescribeInvocationQuery): Promise<InvocationParties>;
  /** The users of `userIds` that exist, as others see them (a message's author and mentions), by id. */
  users(userIds: readonly string[]): Promise<Map<string, JsonRecord>>;
}

/** The OAuthClient over oauth's gRPC client. */
export function createOAuthClient(client: oauth.OAuthServiceClient): OAuthClient {
  return {
    async describeInvocation(query) {
      const answer = await callPeer<
        oauth.DescribeInvocationRequest,
        oauth.DescribeInvocationResponse__Output
      >(client, client.DescribeInvocation, {
        application_id: query.applicationId,
        user_id: query.userId,
        guild_id: query.guildId ?? '',
        resolve_user_ids: query.resolveUserIds,
      });
      return {
        application: JSON.parse(answer.application_json) as JsonRecord,
        applicationFlags: Number(answer.application_flags),
        interactionsEndpointUrl:
          answer.interactions_endpoint_url === '' ? null : answer.interactions_endpoint_url,
        signingKeyPem: answer.signing_key_pem,
        integrationTypes: answer.integration_types,
        botUser: JSON.parse(answer.bot_user_json) as JsonRecord,
        user: JSON.parse(answer.user_json) as JsonRecord,
        userLocale: answer.user_locale,
        guildInstalled: answer.guild_installed,
        userInstalled: answer.user_installed,
        resolvedUsers: answer.resolved_users_json
          ? (JSON.parse(answer.resolved_users_json) as Record<string, JsonRecord>)
          : {},
        entitlements: answer.entitlements_json ? (JSON.parse(answer.entitlements_json) as JsonRecord[]) : [],
        ...(answer.entitlements_change_at
          ? { entitlementsChangeAtMs: Date.parse(answer.entitlements_change_at) }
          : {}),
      };
    },

    async users(userIds) {
      const found = new Map<string, JsonRecord>();
      if (userIds.length === 0) return found;
      // ListUsers answers the users as others see them (oauth's renderPublicUser).
      const answer = await callPeer<oauth.ListUsersRequest, oauth.ListUsersResponse__Output>(
        client,
        client.ListUsers,
        { user_ids: [...userIds] },
      );
      for (const user of JSON.parse(answer.users_json) as JsonRecord[]) found.set(String(user.id), user);
      return found;
    },
  };
}
