import type { InstallTarget } from '../domain/plan-authorization';
import type { StoredCode } from '../domain/issue-authorization-code';
import type { PrismaClient } from '../generated/prisma/client';
import { upsertInstallation } from './upsert-installation';
import { writeOutboxEvent } from './write-outbox-event';

/** One consent to record: an installation (and its event), a code, or both. */
export interface Consent {
  applicationId: string;
  userId: string;
  /** Every scope consented to (the event and the code carry them). */
  scopes: string[];
  install: InstallTarget | null;
  /** The scopes merged into the installation. */
  installScopes: string[];
  /** Bot permissions requested; kept on a guild installation. */
  permissions: string | null;
  code: StoredCode | null;
}

/** Installations (app ↔ guild, app ↔ user), their scopes, and the authorization codes of consents. */
export class InstallationStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Records a consent in one transaction: the installation with the union of its old and
   * new scopes, the APPLICATION_AUTHORIZED event (`application.authorized`), the code.
   * For a guild installation, `beforeCommit` then gets the bot permissions it now holds
   * (a consent without `permissions` keeps the earlier ones) and runs last in the
   * transaction: when it throws, nothing is recorded.
   */
  async recordConsent(
    consent: Consent,
    beforeCommit?: (guildPermissions: string) => Promise<void>,
  ): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      let guildPermissions: string | null = null;
      if (consent.install) {
        guildPermissions = await upsertInstallation(tx, consent, consent.install);
        await writeOutboxEvent(tx, 'application.authorized', {
          application_id: consent.applicationId,
          integration_type: consent.install.type,
          user_id: consent.userId,
          scopes: consent.scopes,
          ...(consent.install.type === 0 ? { guild_id: consent.install.guildId } : {}),
        });
      }
      if (consent.code) {
        const { code } = consent;
        await tx.authorizationCode.create({
          data: {
            codeHash: code.codeHash,
            applicationId: BigInt(consent.applicationId),
            userId: BigInt(consent.userId),
            scopes: consent.scopes,
            redirectUri: code.redirectUri,
            codeChallenge: code.codeChallenge,
            codeChallengeMethod: code.codeChallengeMethod,
            guildId: code.guildId === null ? null : BigInt(code.guildId),
            permissions: code.permissions,
            nonce: code.nonce,
            expiresAt: code.expiresAt,
          },
        });
      }
      if (guildPermissions !== null && beforeCommit) await beforeCommit(guildPermissions);
    });
  }

  /** The guilds where the application's bot is installed (`bot` scope), with the permissions granted to it. */
  async listBotGuilds(applicationId: bigint): Promise<{ guildId: string; permissions: string }[]> {
    const rows = await this.prisma.guildInstallation.findMany({
      where: { applicationId, scopes: { has: 'bot' } },
      select: { guildId: true, permissions: true },
      orderBy: { guildId: 'asc' },
    });
    return rows.map((r) => ({ guildId: r.guildId.toString(), permissions: r.permissions }));
  }

  /**
   * Uninstalls the application from a guild (its bot was removed), with the
   * APPLICATION_DEAUTHORIZED event (`application.deauthorized`, integration type 0) in the
   * same transaction; false when it was not installed there.
   */
  async removeGuildInstallation(applicationId: bigint, guildId: bigint): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.guildInstallation.deleteMany({ where: { applicationId, guildId } });
      if (count === 0) return false;
      await writeOutboxEvent(tx, 'application.deauthorized', {
        application_id: applicationId.toString(),
        integration_type: 0,
        guild_id: guildId.toString(),
      });
      return true;
    });
  }

  /** The scopes the application holds in the guild, or undefined when it is not installed there. */
  async findGuildScopes(applicationId: bigint, guildId: bigint): Promise<string[] | undefined> {
    const row = await this.prisma.guildInstallation.findUnique({
      where: { applicationId_guildId: { applicationId, guildId } },
      select: { scopes: true },
    });
    return row?.scopes;
  }
}
