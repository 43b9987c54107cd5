import type { PrismaClient } from '../generated/prisma/client';

/** An application installed in a guild, as the command picker needs it. */
export interface GuildInstallationSummary {
  applicationId: string;
  scopes: string[];
  name: string;
}

/** Every application installed in a guild with its scopes and name, by application id (one indexed query). */
export async function listGuildInstallations(
  prisma: PrismaClient,
  guildId: bigint,
): Promise<GuildInstallationSummary[]> {
  const rows = await prisma.guildInstallation.findMany({
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
