import type { OAuth2Error } from '@acs/discord-errors';
import type { RedeemableCode } from '../domain/check-code-redemption';
import type { Digest } from '../domain/hash-secret';
import type { IssuedTokens } from '../domain/issue-oauth2-tokens';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { announceCredentialsChange } from './announce-credentials-change';
import { createGrant, insertGrantTokens } from './create-grant';
import { mergeProvisionalAccount, type MergeRequest } from './merge-store';
import { retryOnWriteConflict } from './retry-on-write-conflict';
import { revokeGrantTokens } from './revoke-grant-tokens';
import { writeOutboxEvent } from './write-outbox-event';

/** Why a client-credentials grant was refused, as of the issuing transaction; null when made. */
export type ClientCredentialsRefusal = 'no_owner' | 'public_client' | null;

/** The outcome of a code exchange or a refresh. */
export type GrantOutcome =
  | { kind: 'issued'; scopes: string[]; userId: string | null; nonce?: string | null }
  /** Unknown, expired, revoked or another client's: nothing changed. */
  | { kind: 'invalid' }
  /** A code or refresh token used a second time: its whole grant was revoked. */
  | { kind: 'reused' }
  /** The client's own code was consumed but failed a check (redirect URI, PKCE, expiry). */
  | { kind: 'rejected'; error: OAuth2Error };

interface CodeRow {
  application_id: bigint;
  user_id: bigint;
  scopes: string[];
  redirect_uri: string | null;
  code_challenge: string | null;
  nonce: string | null;
  expires_at: Date;
}

interface SpentRow {
  application_id: bigint;
  grant_id: bigint | null;
}

const bytes = (digest: Digest): Buffer => Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);

/**
 * Authorizations (grants) and their access and refresh tokens. Single use of codes and
 * refresh tokens rests on conditional UPDATEs (`… WHERE used_at IS NULL RETURNING`): of
 * two concurrent uses, the second waits for the first's row lock, then matches nothing.
 * Locks are taken in one order, code → grant → tokens, so that a revocation and a request
 * racing it serialize instead of each missing what the other has not committed yet.
 */
export class GrantStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Exchanges a code, in one transaction: marks it used, runs `check` on it, and on success
   * creates the grant `grantId` with its tokens. A code already used revokes the grant its
   * first exchange created (RFC 6749 §4.1.2). Only the code's own client can spend it: another
   * client's attempt changes nothing (else any client could burn codes it was never issued).
   * The own client's failed check (redirect URI, PKCE, expiry) still spends the code.
   */
  async redeemCode(input: {
    codeHash: Digest;
    clientId: string;
    grantId: string;
    tokens: IssuedTokens;
    now: Date;
    check: (code: RedeemableCode) => OAuth2Error | null;
    /**
     * A merge of a provisional account into the code's user (facts A.4), made in the
     * transaction once the code passed its checks: a refusal rolls all back, the code included.
     */
    merge?: Omit<MergeRequest, 'destinationUserId'>;
  }): Promise<GrantOutcome> {
    const { now } = input;
    const clientId = BigInt(input.clientId);
    return retryOnWriteConflict(() =>
      this.prisma.$transaction(async (tx) => {
        const [code] = await tx.$queryRaw<CodeRow[]>`
        UPDATE "oauth"."authorization_code" SET used_at = ${now}
         WHERE code_hash = ${bytes(input.codeHash)} AND application_id = ${clientId} AND used_at IS NULL
         RETURNING application_id, user_id, scopes, redirect_uri, code_challenge, nonce, expires_at`;
        if (!code) {
          const [spent] = await tx.$queryRaw<SpentRow[]>`
          SELECT application_id, grant_id FROM "oauth"."authorization_code" WHERE code_hash = ${bytes(input.codeHash)}`;
          if (!spent || spent.application_id !== clientId) return { kind: 'invalid' };
          if (spent.grant_id !== null) await revokeGrant(tx, spent.grant_id, now);
          return { kind: 'reused' };
        }
        const error = input.check({
          applicationId: code.application_id.toString(),
          redirectUri: code.redirect_uri,
          codeChallenge: code.code_challenge,
          expiresAt: code.expires_at,
        });
        if (error) return { kind: 'rejected', error };
        if (input.merge) {
          await mergeProvisionalAccount(tx, { ...input.merge, destinationUserId: code.user_id.toString() });
        }
        const grantId = BigInt(input.grantId);
        await createGrant(tx, {
          id: grantId,
          applicationId: code.application_id,
          userId: code.user_id,
          kind: 'authorization_code',
          scopes: code.scopes,
          tokens: input.tokens,
        });
        await tx.$executeRaw`
        UPDATE "oauth"."authorization_code" SET grant_id = ${grantId} WHERE code_hash = ${bytes(input.codeHash)}`;
        return { kind: 'issued', scopes: code.scopes, userId: code.user_id.toString(), nonce: code.nonce };
      }),
    );
  }

  /**
   * Rotates a refresh token, in one transaction: spends it (only if live and the client's),
   * and issues new tokens in the same grant with `scopes` (a subset of the grant's, or all
   * of them when null; otherwise `invalid_scope` and nothing changes). Presenting a spent
   * refresh token revokes its whole grant (RFC 9700 §4.14.2).
   */
  async rotateRefreshToken(input: {
    tokenHash: Digest;
    clientId: string;
    tokens: IssuedTokens;
    now: Date;
    narrowScopes: (granted: string[]) => string[];
  }): Promise<GrantOutcome> {
    const { now } = input;
    const clientId = BigInt(input.clientId);
    const hash = bytes(input.tokenHash);
    return retryOnWriteConflict(() =>
      this.prisma.$transaction(async (tx) => {
        // The grant first, as a revocation locks it: a revocation in flight makes this wait,
        // then find the grant revoked; one that comes later waits for the tokens issued here.
        // An exclusive lock, not FOR SHARE: two refreshes of one token that both detect
        // reuse would otherwise deadlock upgrading their shared locks to revoke the grant.
        await tx.$queryRaw`
        SELECT g.id FROM "oauth"."token_grant" g
          JOIN "oauth"."refresh_token" r ON r.grant_id = g.id
         WHERE r.token_hash = ${hash} AND r.application_id = ${clientId}
           FOR NO KEY UPDATE OF g`;
        const [live] = await tx.$queryRaw<{ grant_id: bigint; user_id: bigint | null; scopes: string[] }[]>`
        UPDATE "oauth"."refresh_token" r SET used_at = ${now}
          FROM "oauth"."token_grant" g
         WHERE r.token_hash = ${hash} AND r.used_at IS NULL AND r.revoked_at IS NULL
           AND r.expires_at > ${now} AND r.application_id = ${clientId}
           AND g.id = r.grant_id AND g.revoked_at IS NULL
         RETURNING r.grant_id, g.user_id, g.scopes`;
        if (!live) {
          const [spent] = await tx.$queryRaw<{ grant_id: bigint }[]>`
          SELECT grant_id FROM "oauth"."refresh_token"
           WHERE token_hash = ${hash} AND application_id = ${clientId} AND used_at IS NOT NULL`;
          if (!spent) return { kind: 'invalid' };
          await revokeGrant(tx, spent.grant_id, now);
          return { kind: 'reused' };
        }
        // Throws invalid_scope, which rolls the spending back.
        const scopes = input.narrowScopes(live.scopes);
        await insertGrantTokens(tx, live.grant_id, clientId, live.user_id, scopes, input.tokens);
        return { kind: 'issued', scopes, userId: live.user_id?.toString() ?? null };
      }),
    );
  }

  /**
   * Creates a client-credentials grant with its access token, for the application's owner
   * as of this transaction; refused (nothing created) when it has no owner or is a public
   * client by then.
   */
  async createClientCredentialsGrant(input: {
    grantId: string;
    applicationId: string;
    scopes: string[];
    tokens: IssuedTokens;
  }): Promise<ClientCredentialsRefusal> {
    const applicationId = BigInt(input.applicationId);
    return this.prisma.$transaction(async (tx) => {
      // FOR SHARE waits for an owner change or a switch to public client in flight, which
      // revoke the client-credentials grants: a grant made here is then either allowed by
      // the new settings or seen (and revoked) by the change.
      const [app] = await tx.$queryRaw<{ owner_id: bigint | null; public_client: boolean }[]>`
        SELECT owner_id, public_client FROM "oauth"."application" WHERE id = ${applicationId} FOR SHARE`;
      if (!app || app.owner_id === null) return 'no_owner';
      if (app.public_client) return 'public_client';
      await createGrant(tx, {
        id: BigInt(input.grantId),
        applicationId,
        userId: app.owner_id,
        kind: 'client_credentials',
        scopes: input.scopes,
        tokens: input.tokens,
      });
      return null;
    });
  }

  /**
   * Revokes the grant of an access or refresh token of `clientId` (RFC 7009), with all its
   * tokens; false when the token is unknown, another client's or already dead.
   */
  async revokeByToken(tokenHash: Digest, clientId: string, hint: string, now: Date): Promise<boolean> {
    const hash = bytes(tokenHash);
    const app = BigInt(clientId);
    return retryOnWriteConflict(() =>
      this.prisma.$transaction(async (tx) => {
        // The hint only orders the lookups (RFC 7009 §2.1); both tables are searched.
        const lookups = [
          () => tx.$queryRaw<{ grant_id: bigint | null }[]>`
          SELECT grant_id FROM "oauth"."access_token" WHERE token_hash = ${hash} AND application_id = ${app}`,
          () => tx.$queryRaw<{ grant_id: bigint | null }[]>`
          SELECT grant_id FROM "oauth"."refresh_token" WHERE token_hash = ${hash} AND application_id = ${app}`,
        ];
        if (hint === 'refresh_token') lookups.reverse();
        for (const lookup of lookups) {
          const [row] = await lookup();
          if (!row) continue;
          if (row.grant_id === null) {
            // A token from before grants existed: revoke it alone.
            const count = await tx.$executeRaw`
            UPDATE "oauth"."access_token" SET revoked_at = ${now} WHERE token_hash = ${hash} AND revoked_at IS NULL`;
            if (count > 0) await announceCredentialsChange(tx, app, ['tokens_revoked']);
            return count > 0;
          }
          return revokeGrant(tx, row.grant_id, now);
        }
        return false;
      }),
    );
  }

  /**
   * Removes a user's authorization of an application: spends the user's codes not yet
   * exchanged, revokes every grant between them and deletes the user installation, with
   * one APPLICATION_DEAUTHORIZED event when a grant or the installation was removed. False
   * when there was none.
   */
  async removeAuthorization(applicationId: string, userId: string, now: Date): Promise<boolean> {
    const app = BigInt(applicationId);
    const user = BigInt(userId);
    return retryOnWriteConflict(() =>
      this.prisma.$transaction(async (tx) => {
        // Codes first: an exchange in flight holds its code's row lock, so this waits for
        // it to commit, and the grant it created is among those revoked next. Expired codes
        // are spent too: the exchange checks expiry with its own clock.
        await tx.$executeRaw`
        UPDATE "oauth"."authorization_code" SET used_at = ${now}
         WHERE application_id = ${app} AND user_id = ${user} AND used_at IS NULL`;
        const grants = await tx.$queryRaw<{ id: bigint }[]>`
        UPDATE "oauth"."token_grant" SET revoked_at = ${now}
         WHERE application_id = ${app} AND user_id = ${user} AND revoked_at IS NULL
         RETURNING id`;
        const ids = grants.map((g) => g.id);
        if (ids.length > 0) await revokeGrantTokens(tx, ids, now);
        const uninstalled = await tx.$executeRaw`
        DELETE FROM "oauth"."user_installation" WHERE application_id = ${app} AND user_id = ${user}`;
        if (ids.length === 0 && uninstalled === 0) return false;
        await writeOutboxEvent(tx, 'application.deauthorized', {
          application_id: applicationId,
          user_id: userId,
          ...(uninstalled > 0 ? { integration_type: 1 } : {}),
        });
        return true;
      }),
    );
  }
}

/**
 * Revokes a grant and every token of it; a live user authorization ending this way is
 * announced (APPLICATION_DEAUTHORIZED), a client-credentials grant as a credentials change
 * (it is no user's authorization). False when it was already revoked.
 */
async function revokeGrant(tx: Prisma.TransactionClient, grantId: bigint, now: Date): Promise<boolean> {
  const [grant] = await tx.$queryRaw<{ application_id: bigint; user_id: bigint | null; kind: string }[]>`
    UPDATE "oauth"."token_grant" SET revoked_at = ${now} WHERE id = ${grantId} AND revoked_at IS NULL
    RETURNING application_id, user_id, kind`;
  if (!grant) return false;
  await revokeGrantTokens(tx, [grantId], now);
  if (grant.kind === 'authorization_code' && grant.user_id !== null) {
    await writeOutboxEvent(tx, 'application.deauthorized', {
      application_id: grant.application_id.toString(),
      user_id: grant.user_id.toString(),
    });
  } else {
    await announceCredentialsChange(tx, grant.application_id, ['tokens_revoked']);
  }
  return true;
}
