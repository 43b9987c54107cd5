import { DiscordError } from '@acs/discord-errors';
import type { BanRequest } from '../domain/bans';
import { planUnmerge, type UnmergePlan } from '../domain/merge-accounts';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { lockAccount, lockIdentity } from './merge-store';
import { retryOnWriteConflict } from './retry-on-write-conflict';
import { revokeGrantTokens } from './revoke-grant-tokens';
import { writeOutboxEvent } from './write-outbox-event';

/** A game identity of an application. */
export interface IdentityKey {
  applicationId: string;
  authType: string;
  externalUserId: string;
}

/**
 * Unmerges and bans (facts A.4b, A.5), each in one transaction: the planner planUnmerge
 * decides, this executes. An unmerge gives the identity a new provisional account and ends
 * the full account's authorization of the application (APPLICATION_DEAUTHORIZED); a ban
 * does that for every identity of the user, restricted while the ban lasts, and ends every
 * token and session of the user at once.
 */
export class AccountLinkStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Unmerges `identity` (404 / 10013 when none, 400 / 50229 when it is provisional). */
  async unmerge(identity: IdentityKey, newUserId: string, now: Date): Promise<void> {
    await retryOnWriteConflict(() =>
      this.prisma.$transaction(async (tx) => {
        await lockIdentity(tx, identity.applicationId, identity.authType, identity.externalUserId);
        const [owner] = await tx.$queryRaw<{ user_id: bigint }[]>`
          SELECT user_id FROM "oauth"."external_identity"
           WHERE application_id = ${BigInt(identity.applicationId)} AND auth_type = ${identity.authType}
             AND external_user_id = ${identity.externalUserId}`;
        const account = owner ? await lockAccount(tx, owner.user_id.toString(), now) : undefined;
        const plan = planUnmerge({ account }, identity.applicationId, newUserId);
        await applyUnmerge(tx, identity, plan);
        await endAuthorization(tx, identity.applicationId, plan.fullUserId, now);
      }),
    );
  }

  /**
   * Bans a user (again: the new `reason`/`until` replace the old): every game identity of a
   * full account goes to a new provisional account restricted by this ban, every grant,
   * token, code and session of the user dies, and each application that had an
   * authorization or identity of theirs hears APPLICATION_DEAUTHORIZED. 404 / 10013 for no
   * such user. `newUserId` mints the ids of the new accounts.
   */
  async ban(userId: string, ban: BanRequest, newUserId: () => string, now: Date): Promise<void> {
    await retryOnWriteConflict(() =>
      this.prisma.$transaction(async (tx) => {
        const user = BigInt(userId);
        const account = await lockAccount(tx, userId, now);
        if (!account) throw new DiscordError(404, 10013, 'Unknown User');
        await tx.$executeRaw`
          INSERT INTO "oauth"."user_ban" (user_id, reason, until) VALUES (${user}, ${ban.reason}, ${ban.until})
          ON CONFLICT (user_id) DO UPDATE SET reason = EXCLUDED.reason, until = EXCLUDED.until, created_at = now()`;
        const identities =
          account.provisionalApplicationId === null
            ? await tx.$queryRaw<{ application_id: bigint; auth_type: string; external_user_id: string }[]>`
                SELECT application_id, auth_type, external_user_id FROM "oauth"."external_identity"
                 WHERE user_id = ${user} ORDER BY application_id, auth_type, external_user_id`
            : [];
        const applications = new Set<string>();
        for (const row of identities) {
          const identity = {
            applicationId: row.application_id.toString(),
            authType: row.auth_type,
            externalUserId: row.external_user_id,
          };
          await lockIdentity(tx, identity.applicationId, identity.authType, identity.externalUserId);
          const plan = planUnmerge({ account }, identity.applicationId, newUserId(), userId);
          await applyUnmerge(tx, identity, plan);
          applications.add(identity.applicationId);
        }
        // Every token of the user, with a grant or without, and every session.
        await tx.$executeRaw`
          UPDATE "oauth"."authorization_code" SET used_at = ${now} WHERE user_id = ${user} AND used_at IS NULL`;
        const grants = await tx.$queryRaw<{ id: bigint; application_id: bigint }[]>`
          UPDATE "oauth"."token_grant" SET revoked_at = ${now}
           WHERE user_id = ${user} AND revoked_at IS NULL RETURNING id, application_id`;
        await revokeGrantTokens(
          tx,
          grants.map((grant) => grant.id),
          now,
        );
        const loose = await tx.$queryRaw<{ application_id: bigint }[]>`
          UPDATE "oauth"."access_token" SET revoked_at = ${now}
           WHERE user_id = ${user} AND revoked_at IS NULL RETURNING application_id`;
        await tx.$executeRaw`
          UPDATE "oauth"."session" SET revoked_at = ${now} WHERE user_id = ${user} AND revoked_at IS NULL`;
        for (const row of [...grants, ...loose]) applications.add(row.application_id.toString());
        // The user's gateway sessions end on every dispatcher replica (4004).
        await writeOutboxEvent(tx, 'user.banned', { user_id: userId });
        for (const applicationId of [...applications].sort()) {
          await writeOutboxEvent(tx, 'application.deauthorized', {
            application_id: applicationId,
            user_id: userId,
          });
        }
      }),
    );
  }

  /** Lifts a user's ban (none: nothing changes); 404 / 10013 for no such user. */
  async unban(userId: string): Promise<void> {
    const user = BigInt(userId);
    await this.prisma.$transaction(async (tx) => {
      const [exists] = await tx.$queryRaw<{ id: bigint }[]>`SELECT id FROM "oauth"."user" WHERE id = ${user}`;
      if (!exists) throw new DiscordError(404, 10013, 'Unknown User');
      await tx.$executeRaw`DELETE FROM "oauth"."user_ban" WHERE user_id = ${user}`;
    });
  }
}

/**
 * Creates the plan's provisional account and gives it the identity; `oauth.user.unmerged`
 * has lobby copy the full account's lobby memberships of the application to it (facts A.4b).
 */
async function applyUnmerge(
  tx: Prisma.TransactionClient,
  identity: IdentityKey,
  plan: UnmergePlan,
): Promise<void> {
  const { user } = plan;
  await tx.$executeRaw`
    INSERT INTO "oauth"."user" (id, username, global_name, provisional_application_id, restricted_by_ban_of)
    VALUES (${BigInt(user.id)}, ${user.username}, ${user.globalName}, ${BigInt(user.applicationId)},
            ${plan.restrictedByBanOf === null ? null : BigInt(plan.restrictedByBanOf)})`;
  await tx.$executeRaw`
    UPDATE "oauth"."external_identity" SET user_id = ${BigInt(user.id)}
     WHERE application_id = ${BigInt(identity.applicationId)} AND auth_type = ${identity.authType}
       AND external_user_id = ${identity.externalUserId}`;
  await writeOutboxEvent(tx, 'user.unmerged', {
    application_id: identity.applicationId,
    full_user_id: plan.fullUserId,
    provisional_user_id: user.id,
  });
}

/**
 * Ends the user's authorization of the application (facts A.4b: every access and refresh
 * token of the user for the app at once): codes spent, grants and their tokens revoked,
 * APPLICATION_DEAUTHORIZED (which also drops api-gateway's cached tokens).
 */
async function endAuthorization(
  tx: Prisma.TransactionClient,
  applicationId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const app = BigInt(applicationId);
  const user = BigInt(userId);
  await tx.$executeRaw`
    UPDATE "oauth"."authorization_code" SET used_at = ${now}
     WHERE application_id = ${app} AND user_id = ${user} AND used_at IS NULL`;
  const grants = await tx.$queryRaw<{ id: bigint }[]>`
    UPDATE "oauth"."token_grant" SET revoked_at = ${now}
     WHERE application_id = ${app} AND user_id = ${user} AND revoked_at IS NULL RETURNING id`;
  await revokeGrantTokens(
    tx,
    grants.map((grant) => grant.id),
    now,
  );
  await writeOutboxEvent(tx, 'application.deauthorized', { application_id: applicationId, user_id: userId });
}
