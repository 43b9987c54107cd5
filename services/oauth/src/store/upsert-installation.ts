import type { InstallTarget } from '../domain/plan-authorization';
import type { Prisma } from '../generated/prisma/client';

/** What a consent installs: the scopes merged in, the bot permissions (guilds), who consented. */
export interface InstallationGrant {
  applicationId: string;
  userId: string;
  installScopes: string[];
  permissions: string | null;
}

/**
 * Installs the application for the consent's target, merging its scopes into an existing
 * installation's. Merging in SQL keeps concurrent consents from losing each other's scopes;
 * the union keeps first-granted order. A guild installation answers the permissions it now
 * holds (a consent without `permissions` keeps the earlier ones); a user's, null.
 */
export async function upsertInstallation(
  tx: Prisma.TransactionClient,
  consent: InstallationGrant,
  target: InstallTarget,
): Promise<string | null> {
  const applicationId = BigInt(consent.applicationId);
  if (target.type === 0) {
    const [row] = await tx.$queryRaw<{ permissions: string }[]>`
      INSERT INTO "oauth"."guild_installation" (application_id, guild_id, scopes, permissions, installed_by, updated_at)
      VALUES (${applicationId}, ${BigInt(target.guildId)}, ${consent.installScopes}::text[], ${consent.permissions ?? '0'},
              ${BigInt(consent.userId)}, now())
      ON CONFLICT (application_id, guild_id) DO UPDATE SET
        scopes = ARRAY(SELECT s FROM unnest(guild_installation.scopes || EXCLUDED.scopes) WITH ORDINALITY AS u(s, n)
                       GROUP BY s ORDER BY min(n)),
        permissions = COALESCE(${consent.permissions}::text, guild_installation.permissions),
        installed_by = EXCLUDED.installed_by,
        updated_at = now()
      RETURNING permissions`;
    return row?.permissions ?? null;
  }
  await tx.$executeRaw`
      INSERT INTO "oauth"."user_installation" (application_id, user_id, scopes, updated_at)
      VALUES (${applicationId}, ${BigInt(target.userId)}, ${consent.installScopes}::text[], now())
      ON CONFLICT (application_id, user_id) DO UPDATE SET
        scopes = ARRAY(SELECT s FROM unnest(user_installation.scopes || EXCLUDED.scopes) WITH ORDINALITY AS u(s, n)
                       GROUP BY s ORDER BY min(n)),
        updated_at = now()`;
  return null;
}
