import { UnknownApplicationError } from '../domain/oauth-errors';
import type { PrismaClient } from '../generated/prisma/client';
import { announceCredentialsChange } from './announce-credentials-change';
import { lockApplicationCredentials } from './lock-application-credentials';
import { writeOutboxEvent } from './write-outbox-event';

/**
 * Deletes an application (DELETE /admin/applications/{id}) in one transaction: its
 * installations, each with its `application.deauthorized` (the dispatcher sends the bot
 * GUILD_DELETE for a guild's), its tokens, grants and codes, its SKUs with their
 * entitlements and subscriptions, its Social SDK identities, providers and test tokens,
 * then the application and its bot user; `application.bot_token_reset` ends the bot's
 * sessions and `application.credentials_changed` drops its resolved tokens from every
 * cache. Provisional accounts it created stay, as plain users. Its row is locked first,
 * so an authorization racing the delete waits and then finds no application.
 * Unknown application: 404 / 10002.
 */
export async function deleteApplication(prisma: PrismaClient, id: bigint): Promise<void> {
  await prisma.$transaction(async (tx) => {
    if (!(await lockApplicationCredentials(tx, id))) throw new UnknownApplicationError();
    const applicationId = id.toString();
    const guilds = await tx.guildInstallation.findMany({
      where: { applicationId: id },
      select: { guildId: true },
    });
    const users = await tx.userInstallation.findMany({
      where: { applicationId: id },
      select: { userId: true },
    });
    const where = { applicationId: id };
    await tx.guildInstallation.deleteMany({ where });
    await tx.userInstallation.deleteMany({ where });
    await tx.authorizationCode.deleteMany({ where });
    await tx.refreshToken.deleteMany({ where });
    await tx.accessToken.deleteMany({ where });
    await tx.tokenGrant.deleteMany({ where });
    await tx.testExternalToken.deleteMany({ where });
    await tx.externalIdentity.deleteMany({ where });
    await tx.identityProvider.deleteMany({ where });
    await tx.user.updateMany({
      where: { provisionalApplicationId: id },
      data: { provisionalApplicationId: null },
    });
    await tx.entitlement.deleteMany({ where });
    await tx.subscription.deleteMany({ where });
    await tx.sku.deleteMany({ where });
    await tx.application.delete({ where: { id } });
    // The bot user: nothing else refers to it (a bot owns no application and has no session).
    await tx.session.deleteMany({ where: { userId: id } });
    await tx.user.delete({ where: { id } });
    for (const { guildId } of guilds) {
      await writeOutboxEvent(tx, 'application.deauthorized', {
        application_id: applicationId,
        integration_type: 0,
        guild_id: guildId.toString(),
      });
    }
    for (const { userId } of users) {
      await writeOutboxEvent(tx, 'application.deauthorized', {
        application_id: applicationId,
        integration_type: 1,
        user_id: userId.toString(),
      });
    }
    await writeOutboxEvent(tx, 'application.bot_token_reset', { application_id: applicationId });
    await announceCredentialsChange(tx, id, ['tokens_revoked']);
  });
}
