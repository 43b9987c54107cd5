import { DiscordError, SocialSdkErrorCode } from '@acs/discord-errors';
import { EXTERNAL_AUTH_TYPES, MAX_EXTERNAL_AUTH_TOKEN_LENGTH } from './external-credentials';
import {
  ProvisionalAccountError,
  provisionalUsername,
  type NewProvisionalUser,
} from './provisional-accounts';

// Merging a provisional account into a full account (facts A.4: the code exchange with
// `external_auth_type` / `external_auth_token`), unmerging it again (A.4b) and the
// ban-driven unmerge (A.5). The planners decide; the stores execute in one transaction.

/** The external credential a code exchange presents for a merge (form parameters). */
export interface MergeCredential {
  externalAuthType: string;
  externalAuthToken: string;
}

/** 403 / 50025: the external token proves nothing (facts A.4: "Invalid OAuth2 access token"). */
export function invalidMergeTokenError(): DiscordError {
  return new DiscordError(403, 50025, 'Invalid OAuth2 access token');
}

/**
 * The merge credential of a code exchange's form: none when neither parameter is there; a
 * half (one without the other), an unknown type or an oversize token is 50025 ([Inf]: the
 * token cannot be valid, and the form's other errors are RFC 6749's, not a field tree).
 */
export function readMergeCredential(params: Readonly<Record<string, string>>): MergeCredential | null {
  const type = params.external_auth_type;
  const token = params.external_auth_token;
  if (type === undefined && token === undefined) return null;
  if (
    type === undefined ||
    token === undefined ||
    !(EXTERNAL_AUTH_TYPES as readonly string[]).includes(type) ||
    token.length === 0 ||
    token.length > MAX_EXTERNAL_AUTH_TOKEN_LENGTH
  ) {
    throw invalidMergeTokenError();
  }
  return { externalAuthType: type, externalAuthToken: token };
}

/** An account as a merge or unmerge sees it. */
export interface AccountFacts {
  userId: string;
  /** The owning application of a provisional account; null for a full account. */
  provisionalApplicationId: string | null;
  /** Whether a ban restricts it now (a ban-driven unmerge's account while its ban lasts). */
  banRestricted: boolean;
}

/** What a merge is checked against, read by the store. */
export interface MergeFacts {
  /** The identity the external token proves; undefined when it proves none. */
  identity: { authType: string; externalUserId: string } | undefined;
  /** The identity's account; undefined when it has none yet. */
  source: AccountFacts | undefined;
  /** The full account the code was granted by. */
  destination: AccountFacts;
  /** Whether the destination already has an identity of this application (other than this one). */
  destinationHasIdentity: boolean;
}

/** What a merge does. */
export type MergePlan =
  /** Move the source's identities (and, asynchronously, its lobbies) to the destination. */
  | { kind: 'merge'; sourceUserId: string; destinationUserId: string }
  /** The identity had no account yet: link it to the destination ([Inf]). */
  | { kind: 'link'; destinationUserId: string }
  /** The identity is the destination's already: nothing to do ([Inf]: a repeated merge). */
  | { kind: 'none' };

/**
 * Checks a merge (facts A.4) in the order of Discord's table: the token proves an identity
 * (else 50025), its account is a provisional one of this application (530014), the
 * destination is a full account (530016), the source is not restricted by a ban (530017),
 * and the destination has no other identity of the application (530023).
 */
export function planMerge(facts: MergeFacts, applicationId: string): MergePlan {
  if (!facts.identity) throw invalidMergeTokenError();
  const { source, destination } = facts;
  if (source && source.userId === destination.userId) return { kind: 'none' };
  if (source && source.provisionalApplicationId !== applicationId) {
    throw new ProvisionalAccountError(
      SocialSdkErrorCode.MERGE_SOURCE_NOT_PROVISIONAL,
      'Merge source user is not provisional',
    );
  }
  if (destination.provisionalApplicationId !== null) {
    throw new ProvisionalAccountError(
      SocialSdkErrorCode.MERGE_DESTINATION_PROVISIONAL,
      'Merge destination user is provisional',
    );
  }
  if (source?.banRestricted)
    throw new ProvisionalAccountError(SocialSdkErrorCode.MERGE_SOURCE_BANNED, 'Merge source user is banned');
  if (facts.destinationHasIdentity) {
    throw new ProvisionalAccountError(
      SocialSdkErrorCode.TOO_MANY_APPLICATION_IDENTITIES,
      'Too many application identities',
    );
  }
  return source
    ? { kind: 'merge', sourceUserId: source.userId, destinationUserId: destination.userId }
    : { kind: 'link', destinationUserId: destination.userId };
}

/** The account an unmerge found for an identity. */
export interface UnmergeFacts {
  /** undefined: no identity (404). */
  account: (AccountFacts & { globalName: string | null }) | undefined;
}

/** A new provisional account for an identity cut from its full account. */
export interface UnmergePlan {
  fullUserId: string;
  user: NewProvisionalUser;
  /** Set by a ban: the banned user whose ban restricts the new account while it lasts. */
  restrictedByBanOf: string | null;
}

/**
 * Unmerges an identity (facts A.4b): none is 404 / 10013 ([Inf]: Discord documents a 404
 * without a code), a provisional account is 400 / 50229; otherwise a new provisional
 * account of the application takes the identity, with the full account's global name.
 */
export function planUnmerge(
  facts: UnmergeFacts,
  applicationId: string,
  newUserId: string,
  restrictedByBanOf: string | null = null,
): UnmergePlan {
  const { account } = facts;
  if (!account) throw new DiscordError(404, 10013, 'Unknown User');
  if (account.provisionalApplicationId !== null) {
    throw new DiscordError(400, 50229, 'Cannot unmerge a provisional account');
  }
  return {
    fullUserId: account.userId,
    user: {
      id: newUserId,
      username: provisionalUsername(newUserId),
      globalName: account.globalName,
      applicationId,
    },
    restrictedByBanOf,
  };
}
