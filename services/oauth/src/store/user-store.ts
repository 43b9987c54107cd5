import { UnknownUserError } from '../domain/oauth-errors';
import type { UserRecord } from '../domain/records';
import type { NewUser } from '../domain/validate-user-body';
import type { PrismaClient } from '../generated/prisma/client';
import { toUserRecord } from './to-user-record';

/** Users: people created through the admin API (bot users are made with their application). */
export class UserStore {
  constructor(private readonly prisma: PrismaClient) {}

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
}
