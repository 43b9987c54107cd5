import type { NewConnection } from '../domain/validate-connection-body';
import { UnknownUserError } from '../domain/oauth-errors';
import type { PrismaClient } from '../generated/prisma/client';

/** Users' connected accounts (created through the admin API). */
export class ConnectionStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Creates or replaces the user's connection of that type and account; 404 / 10013 for an unknown or bot user. */
  async upsert(userId: bigint, connection: NewConnection): Promise<NewConnection> {
    const user = await this.prisma.user.findUnique({ where: { id: userId }, select: { bot: true } });
    if (!user || user.bot) throw new UnknownUserError();
    const { type, accountId, ...rest } = connection;
    await this.prisma.connection.upsert({
      where: { userId_type_accountId: { userId, type, accountId } },
      create: { userId, type, accountId, ...rest },
      update: rest,
    });
    return connection;
  }

  /** The user's connections, oldest first. */
  async list(userId: bigint): Promise<NewConnection[]> {
    const rows = await this.prisma.connection.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } });
    return rows.map((r) => ({
      type: r.type,
      accountId: r.accountId,
      name: r.name,
      verified: r.verified,
      friendSync: r.friendSync,
      showActivity: r.showActivity,
      twoWayLink: r.twoWayLink,
      visibility: r.visibility,
      revoked: r.revoked,
    }));
  }
}
