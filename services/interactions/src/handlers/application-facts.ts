import type { JsonObject } from '@acs/validation';
import type { OAuthClient } from '../clients/oauth-client';
import type { InteractionRecord } from '../store/interaction-record';

/** What answering an interaction needs of its application: the messages' author, and its flags. */
export interface ApplicationFacts {
  /** The application's bot user as others see it. */
  botUser: JsonObject;
  applicationFlags: number;
}

/**
 * The application facts of an interaction, from oauth (its DescribeInvocation, for the
 * interaction's own user and guild). Asked only when a message is made without an earlier
 * one to take the author from, or when a LAUNCH_ACTIVITY needs the flags.
 */
export async function describeApplication(
  oauth: OAuthClient,
  record: InteractionRecord,
): Promise<ApplicationFacts> {
  const parties = await oauth.describeInvocation({
    applicationId: record.applicationId,
    userId: record.userId,
    guildId: record.guildId,
    resolveUserIds: [],
  });
  return { botUser: parties.botUser, applicationFlags: parties.applicationFlags };
}
