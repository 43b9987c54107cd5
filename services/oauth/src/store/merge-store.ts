import type { Digest } from '../domain/hash-secret';
import {
  planMerge,
  type AccountFacts,
  type MergeCredential,
  type MergeFacts,
} from '../domain/merge-accounts';
import { BOT_AUTH_TYPE } from '../domain/provisional-accounts';
import type { Prisma } from '../generated/prisma/client';
import { announceCredentialsChange } from './announce-credentials-change';
import { revokeGrantTokens } from './revoke-grant-tokens';
import { writeOutboxEvent } from './write-outbox-event';

/** A merge the code exchange asks for, with the digest of the presented external token. */
export interface MergeRequest {
  /** The merge's id (a snowflake): the `merge_operation_id` its completion event carries. */
  operationId: string;
  applicationId: string;
  destinationUserId: string;
  credential: MergeCredential;
  tokenHash: Digest;
  /** The `sub` of an OIDC credential, verified against its issuer before the transaction. */
  verifiedSubject?: string;
  now: Date;
}

const bytes = (digest: Digest): Buffer => Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);

/** Serializes the writers of one identity (the same key as ProvisionalAccountStore's). */
export async function lockIdentity(
  tx: Prisma.TransactionClient,
  applicationId: string,
  authType: string,
  externalUserId: string,
): Promise<void> {
  const key = `provisional:${applicationId}:${authType}:${externalUserId}`;
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))::text`;
}

/** An account's facts, its row locked; undefined when there is no such user. */
export async function lockAccount(
  tx: Prisma.TransactionClient,
  userId: string,
  now: Date,
): Promise<(AccountFacts & { globalName: string | null }) | undefined> {
  const [row] = await tx.$queryRaw<
    { owner: string | null; global_name: string | null; restricted: boolean }[]
  >`
    SELECT u.provisional_application_id::text AS owner, u.global_name,
           EXISTS (SELECT 1 FROM "oauth"."user_ban" b
                    WHERE b.user_id = u.restricted_by_ban_of AND (b.until IS NULL OR b.until > ${now})) AS restricted
      FROM "oauth"."user" u WHERE u.id = ${BigInt(userId)} FOR UPDATE OF u`;
  return (
    row && {
      userId,
      provisionalApplicationId: row.owner,
      banRestricted: row.restricted,
      globalName: row.global_name,
    }
  );
}

/** The identity (and its account) the presented external token proves, locked. */
async function findMergeSource(
  tx: Prisma.TransactionClient,
  request: MergeRequest,
): Promise<Pick<MergeFacts, 'identity' | 'source'>> {
  const app = BigInt(request.applicationId);
  if (request.credential.externalAuthType === 'DISCORD_BOT_ISSUED_ACCESS_TOKEN') {
    // The Bot Token Endpoint's access token (facts A.4), live and of this application.
    const [token] = await tx.$queryRaw<{ user_id: bigint }[]>`
      SELECT user_id FROM "oauth"."access_token"
       WHERE token_hash = ${bytes(request.tokenHash)} AND application_id = ${app}
         AND revoked_at IS NULL AND expires_at > ${request.now} AND user_id IS NOT NULL`;
    if (!token) return { identity: undefined, source: undefined };
    const userId = token.user_id.toString();
    const identities = await tx.$queryRaw<{ external_user_id: string }[]>`
      SELECT external_user_id FROM "oauth"."external_identity"
       WHERE application_id = ${app} AND user_id = ${token.user_id} AND auth_type = ${BOT_AUTH_TYPE}
       ORDER BY external_user_id`;
    for (const identity of identities) {
      await lockIdentity(tx, request.applicationId, BOT_AUTH_TYPE, identity.external_user_id);
    }
    return {
      identity: { authType: BOT_AUTH_TYPE, externalUserId: identities[0]?.external_user_id ?? '' },
      source: await lockAccount(tx, userId, request.now),
    };
  }
  let externalUserId: string | undefined;
  if (request.credential.externalAuthType === 'OIDC') {
    // An ID token its issuer signed, verified by the handler (the fetches stay outside the transaction).
    externalUserId = request.verifiedSubject;
  } else {
    // A test issuer's token of this application and type.
    const [minted] = await tx.$queryRaw<{ external_user_id: string }[]>`
      SELECT external_user_id FROM "oauth"."test_external_token"
       WHERE token_hash = ${bytes(request.tokenHash)} AND application_id = ${app}
         AND auth_type = ${request.credential.externalAuthType} AND expires_at > ${request.now}`;
    externalUserId = minted?.external_user_id;
  }
  if (externalUserId === undefined) return { identity: undefined, source: undefined };
  const identity = { authType: request.credential.externalAuthType, externalUserId };
  await lockIdentity(tx, request.applicationId, identity.authType, identity.externalUserId);
  const [owner] = await tx.$queryRaw<{ user_id: bigint }[]>`
    SELECT user_id FROM "oauth"."external_identity"
     WHERE application_id = ${app} AND auth_type = ${identity.authType}
       AND external_user_id = ${identity.externalUserId}`;
  return {
    identity,
    source: owner ? await lockAccount(tx, owner.user_id.toString(), request.now) : undefined,
  };
}

/**
 * Merges, inside the code exchange's transaction `tx`, the provisional account the external
 * token proves into the code's user (the planner planMerge decides; a refusal throws and the
 * exchange's transaction, code included, rolls back). A merge moves the account's identities
 * to the full account, revokes its tokens, marks it merged and announces `oauth.user.merged`
 * (lobby moves its memberships) with the revocation (api-gateway drops cached tokens).
 */
export async function mergeProvisionalAccount(
  tx: Prisma.TransactionClient,
  request: MergeRequest,
): Promise<void> {
  const { identity, source } = await findMergeSource(tx, request);
  const destination = await lockAccount(tx, request.destinationUserId, request.now);
  if (!destination) throw new Error(`the code's user ${request.destinationUserId} does not exist`);
  const app = BigInt(request.applicationId);
  const dest = BigInt(request.destinationUserId);
  const [other] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "oauth"."external_identity" WHERE application_id = ${app} AND user_id = ${dest}`;
  const facts: MergeFacts = { identity, source, destination, destinationHasIdentity: (other?.n ?? 0) > 0 };
  const plan = planMerge(facts, request.applicationId);
  if (plan.kind === 'none') return;
  if (plan.kind === 'link') {
    await tx.$executeRaw`
      INSERT INTO "oauth"."external_identity" (application_id, auth_type, external_user_id, user_id)
      VALUES (${app}, ${identity!.authType}, ${identity!.externalUserId}, ${dest})`;
    return;
  }
  const src = BigInt(plan.sourceUserId);
  await tx.$executeRaw`
    UPDATE "oauth"."external_identity" SET user_id = ${dest} WHERE application_id = ${app} AND user_id = ${src}`;
  const grants = await tx.$queryRaw<{ id: bigint }[]>`
    UPDATE "oauth"."token_grant" SET revoked_at = ${request.now}
     WHERE user_id = ${src} AND revoked_at IS NULL RETURNING id`;
  await revokeGrantTokens(
    tx,
    grants.map((grant) => grant.id),
    request.now,
  );
  await tx.$executeRaw`UPDATE "oauth"."user" SET merged_into_user_id = ${dest} WHERE id = ${src}`;
  await announceCredentialsChange(tx, app, ['tokens_revoked']);
  await writeOutboxEvent(tx, 'user.merged', {
    merge_operation_id: request.operationId,
    application_id: request.applicationId,
    source_user_id: plan.sourceUserId,
    destination_user_id: request.destinationUserId,
  });
}
