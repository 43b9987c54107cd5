import { UnknownUserError } from '../domain/oauth-errors';
import { userDeletionRefusal } from '../domain/check-user-deletable';
import type { PrismaClient } from '../generated/prisma/client';
import { writeOutboxEvent } from './write-outbox-event';

/**
 * Deletes a user (DELETE /admin/users/{id}) in one transaction: their sessions, tokens,
 * grants (with their refresh tokens), codes, user installations, connections, ban and
 * linked game identities go; each application they had authorized gets
 * `application.deauthorized` (APPLICATION_DEAUTHORIZED), and `user.deleted` ends their
 * gateway sessions. Provisional accounts merged into them, and entitlements and
 * subscriptions naming them, stay (records of the applications). An application's bot
 * user, or a user who owns an application, is refused (userDeletionRefusal); unknown:
 * 404 / 10013. The user's row is locked first, so a session created meanwhile waits and
 * then finds no user.
 */
export async function deleteUser(prisma: PrismaClient, id: bigint): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ bot: boolean; is_app: boolean }[]>`
      SELECT u.bot, EXISTS (SELECT 1 FROM "oauth"."application" a WHERE a.id = u.id) AS is_app
        FROM "oauth"."user" u WHERE u.id = ${id} FOR UPDATE`;
    if (!row) throw new UnknownUserError();
    const owned = await tx.application.findMany({
      where: { ownerId: id },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    const refusal = userDeletionRefusal({
      isBot: row.bot || row.is_app,
      ownedApplicationIds: owned.map((application) => application.id.toString()),
    });
    if (refusal) throw refusal;
    const userId = id.toString();
    const where = { userId: id };
    const applications = new Set<string>();
    const grants = await tx.tokenGrant.findMany({ where, select: { id: true, applicationId: true } });
    const tokens = await tx.accessToken.findMany({ where, select: { applicationId: true } });
    const installs = await tx.userInstallation.findMany({ where, select: { applicationId: true } });
    for (const { applicationId } of [...grants, ...tokens, ...installs]) {
      if (applicationId !== null) applications.add(applicationId.toString());
    }
    await tx.refreshToken.deleteMany({ where: { grantId: { in: grants.map((grant) => grant.id) } } });
    const grantIds = grants.map((grant) => grant.id);
    await tx.accessToken.deleteMany({ where: { OR: [{ userId: id }, { grantId: { in: grantIds } }] } });
    await tx.tokenGrant.deleteMany({ where });
    await tx.authorizationCode.deleteMany({ where });
    await tx.userInstallation.deleteMany({ where });
    await tx.session.deleteMany({ where });
    await tx.connection.deleteMany({ where });
    await tx.externalIdentity.deleteMany({ where });
    await tx.userBan.deleteMany({ where });
    await tx.user.delete({ where: { id } });
    for (const applicationId of [...applications].sort()) {
      await writeOutboxEvent(tx, 'application.deauthorized', {
        application_id: applicationId,
        user_id: userId,
      });
    }
    await writeOutboxEvent(tx, 'user.deleted', { user_id: userId });
  });
}
