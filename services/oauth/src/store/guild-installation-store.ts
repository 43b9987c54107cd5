import type { PrismaClient } from '../generated/prisma/client';

/** An application installed in a guild, as the command picker needs it. */
export interface GuildInstallationSummary {
  applicationId: string;
  scopes: string[];
  name: string;
}

/** The applications installed in a guild (command-registry's picker index). */
export class GuildInstallationStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Every application installed in the guild with its scopes and name, by application id (one indexed query). */
  async list(guildId: bigint): Promise<GuildInstallationSummary[]> {
    const rows = await this.prisma.guildInstallation.findMany({
      where: { guildId },
      select: { applicationId: true, scopes: true, application: { select: { name: true } } },
      orderBy: { applicationId: 'asc' },
    });
    return rows.map((r) => ({
      applicationId: r.applicationId.toString(),
      scopes: r.scopes,
      name: r.application.name,
    }));
  }
}
