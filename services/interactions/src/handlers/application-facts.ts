import { LRUCache } from 'lru-cache';
import type { JsonObject } from '@acs/validation';
import type { OAuthClient } from '../clients/oauth-client';
import type { InteractionRecord } from '../store/interaction-record';

/** What answering an interaction needs of its application: the messages' author, and its flags. */
export interface ApplicationFacts {
  /** The application's bot user as others see it. */
  botUser: JsonObject;
  applicationFlags: number;
}

/** Invocations remembered at most, whatever their rate: far more than a deadline's worth. */
const MAX_REMEMBERED = 10_000;
/** How long past the response deadline a remembered fact is kept (the database's clock may lag this one). */
const DEADLINE_MARGIN_MS = 1000;

/**
 * The application facts each invocation of this replica had at hand (from its
 * DescribeInvocation), by interaction id, until the response deadline: the callback that
 * answers it takes the author and the flags from here, as an inline answer takes them from
 * the delivery, instead of asking oauth again. A callback reaching another replica, or
 * coming late, asks oauth.
 */
export class ApplicationFactsMemo {
  private readonly facts: LRUCache<string, ApplicationFacts>;

  constructor(deadlineMs: number) {
    this.facts = new LRUCache({ max: MAX_REMEMBERED, ttl: deadlineMs + DEADLINE_MARGIN_MS });
  }

  /** Remembers the facts of an interaction just recorded. */
  remember(interactionId: string, facts: ApplicationFacts): void {
    this.facts.set(interactionId, facts);
  }

  /** The facts remembered for an interaction, if this replica invoked it lately. */
  recall(interactionId: string): ApplicationFacts | undefined {
    return this.facts.get(interactionId);
  }
}

/**
 * The application facts of an interaction, from oauth (its DescribeInvocation, for the
 * interaction's own user and guild). Asked only when a message is made without an earlier
 * one to take the author from, or when a LAUNCH_ACTIVITY needs the flags, and the
 * invocation's own facts are not at hand.
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
