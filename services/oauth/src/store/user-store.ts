import { deleteUser } from './delete-user';
import { UnknownUserError } from '../domain/oauth-errors';
import type { UserRecord } from '../domain/records';
import type { NewUser } from '../domain/validate-user-body';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import type { UserUpdate } from '../domain/validate-user-update';
import { toUserRecord } from './to-user-record';
import { writeOutboxEvent } from './write-outbox-event';

/** Users: people created through the admin API (bot users are made with their application). */
export class UserStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Deletes the user and everything of theirs (deleteUser): a bot or an owner of applications is refused. */
  async delete(id: bigint): Promise<void> {
    await deleteUser(this.prisma, id);
  }

  /** Creates a user with the given id. */
  async create(id: string, user: NewUser): Promise<UserRecord> {
    const row = await this.prisma.user.create({
      data: {
        id: BigInt(id),
        username: user.username,
        globalName: user.globalName,
        locale: user.locale,
        email: user.email,
        premiumType: user.premiumType,
      },
    });
    return toUserRecord(row);
  }

  /** Applies an admin update (absent fields kept), announced (`user.updated`); 404 / 10013 when the user is unknown. */
  async update(id: bigint, update: UserUpdate): Promise<UserRecord> {
    await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.user.updateMany({
        where: { id },
        data: {
          ...(update.globalName !== undefined ? { globalName: update.globalName } : {}),
          ...(update.locale !== undefined ? { locale: update.locale } : {}),
          ...(update.profilePrivacy !== undefined ? { profilePrivacy: update.profilePrivacy } : {}),
          ...(update.primaryGuild !== undefined
            ? { primaryGuild: update.primaryGuild === null ? Prisma.DbNull : { ...update.primaryGuild } }
            : {}),
        },
      });
      if (count === 0) throw new UnknownUserError();
      // Their sessions get USER_UPDATE; caches of invocation facts drop the user.
      await writeOutboxEvent(tx, 'user.updated', { user_id: id.toString() });
    });
    return this.get(id);
  }

  /** The user, or undefined. */
  async find(id: bigint): Promise<UserRecord | undefined> {
    const row = await this.prisma.user.findUnique({ where: { id } });
    return row ? toUserRecord(row) : undefined;
  }

  /** The user; 404 / 10013 when unknown. */
  async get(id: bigint): Promise<UserRecord> {
    const user = await this.find(id);
    if (!user) throw new UnknownUserError();
    return user;
  }

  /** The users among `ids` that exist, in the order of `ids` (duplicates once). */
  async findMany(ids: readonly bigint[]): Promise<UserRecord[]> {
    const rows = await this.prisma.user.findMany({ where: { id: { in: [...ids] } } });
    const byId = new Map(rows.map((row) => [row.id, toUserRecord(row)]));
    return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
  }

  /** Up to `limit` users by id, from the first id above `after` (the admin's list of users). */
  async listAfter(after: bigint, limit: number): Promise<UserRecord[]> {
    const rows = await this.prisma.user.findMany({
      where: { id: { gt: after } },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toUserRecord);
  }
}
