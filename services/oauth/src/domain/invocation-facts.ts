import type { EntitlementRecord } from './monetization/monetization-records';
import type { ApplicationRecord, UserRecord } from './records';

/** Which invocation to describe: the application, the invoking user, where, and whom the options name. */
export interface InvocationQuery {
  applicationId: bigint;
  userId: bigint;
  /** Null outside a guild. */
  guildId: bigint | null;
  resolveUserIds: bigint[];
}

/** What the interactions service needs to know of an application and a user to run an invocation. */
export interface InvocationFacts {
  application: ApplicationRecord;
  /** PKCS#8 PEM of the application's Ed25519 private key (it signs the deliveries). */
  signingKeyPem: string;
  user: UserRecord;
  /** The scopes of the application's installation in the guild, or null when it is not installed there. */
  guildScopes: string[] | null;
  /** The invoking user installed the application to their account. */
  userInstalled: boolean;
  /** The users of `resolveUserIds` that exist, each once. */
  resolvedUsers: UserRecord[];
  /** The invoker's active entitlements to the application's SKUs: their own and the guild's. */
  entitlements: EntitlementRecord[];
  /** When the next of those entitlements (active or not yet) starts or ends; null when none will. */
  entitlementsChangeAt: Date | null;
}
