import type { EventName } from '@acs/events';
import type { InvocationParties, JsonRecord } from '../domain/invocation/invocation-facts';
import { ApplicationMemo } from './application-memo';
import type { DescribeInvocationQuery, OAuthClient } from './oauth-client';

/** Answers remembered at most (one per application, invoker and guild; a few kB each). */
const MAX_ANSWERS = 20_000;

/**
 * oauth's events after which what an application's invocations were told may be wrong:
 * its fields (endpoint, flags, integration types, install counts), its installs, its
 * entitlements. Each carries `application_id`.
 */
export const APPLICATION_FACT_EVENTS = [
  'oauth.application.updated',
  'oauth.application.credentials_changed',
  'oauth.application.authorized',
  'oauth.application.deauthorized',
  'oauth.entitlement.created',
  'oauth.entitlement.updated',
  'oauth.entitlement.deleted',
  'oauth.subscription.created',
  'oauth.subscription.updated',
] as const satisfies readonly EventName[];

/**
 * oauth's events after which a user as an invocation shows them may be wrong: the invoker,
 * and also an application's bot or owner (inside the application's object), so every
 * answer is dropped (they are rare: a rename, a merge or unmerge, a ban, a deletion).
 */
export const USER_FACT_EVENTS = [
  'oauth.user.updated',
  'oauth.user.merged',
  'oauth.user.unmerged',
  'oauth.user.banned',
  'oauth.user.deleted',
] as const;

interface Remembered {
  parties: InvocationParties;
  /** When the entitlements in it change by time (ms since the epoch), or Infinity. */
  until: number;
}

/**
 * oauth's DescribeInvocation answers (application, keys, endpoint, bot user, invoker,
 * installs, entitlements), remembered by (application, invoker, guild) until an event of
 * oauth says they changed (`dropApplication`, `dropAll`: see `followOAuthChanges`), or until
 * the next start or end of one of the entitlements in it (oauth says when): nothing
 * expires by a guess. Every replica hears every event (a NATS core subscription each).
 *
 * Used only while that feed is live (`isLive`): otherwise every lookup asks oauth, and what
 * was remembered is dropped (events missed meanwhile must not be trusted to). A lookup that
 * overlaps a drop of its application (or of everything) is answered but not remembered:
 * it may have read the old facts. Lookups resolving users (USER options, a USER command's
 * target) ask oauth: those users are not part of the key.
 */
export class CachedOAuthClient implements OAuthClient {
  private readonly memo = new ApplicationMemo<Remembered>(MAX_ANSWERS);

  constructor(
    private readonly oauth: OAuthClient,
    private readonly isLive: () => boolean,
    private readonly now: () => number = Date.now,
  ) {}

  async describeInvocation(query: DescribeInvocationQuery): Promise<InvocationParties> {
    if (query.resolveUserIds.length > 0) return this.oauth.describeInvocation(query);
    if (!this.isLive()) {
      this.memo.dropAll();
      return this.oauth.describeInvocation(query);
    }
    const key = `${query.applicationId}/${query.userId}/${query.guildId ?? ''}`;
    const hit = this.memo.get(key, (entry) => entry.until > this.now());
    if (hit) return hit.parties;
    return this.memo.load(
      query.applicationId,
      key,
      () => this.oauth.describeInvocation(query),
      (parties) => ({ parties, until: parties.entitlementsChangeAtMs ?? Number.POSITIVE_INFINITY }),
      this.isLive,
    );
  }

  users(userIds: readonly string[]): Promise<Map<string, JsonRecord>> {
    return this.oauth.users(userIds);
  }

  /** Forgets every answer about the application. */
  dropApplication(applicationId: string): void {
    this.memo.dropApplication(applicationId);
  }

  /** Forgets everything (a user changed, or the event feed was interrupted). */
  dropAll(): void {
    this.memo.dropAll();
  }

  /** Lookups answered from memory and from oauth since start (for tests and metrics). */
  stats(): { hits: number; misses: number; size: number } {
    return this.memo.stats();
  }
}
