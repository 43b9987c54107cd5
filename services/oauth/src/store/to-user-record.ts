import type { UserRecord } from '../domain/records';
import { readProfilePrivacy, type PrimaryGuild } from '../domain/validate-user-update';
import type { User } from '../generated/prisma/client';

/** A user row as the domain sees it. */
export function toUserRecord(row: User): UserRecord {
  return {
    id: row.id.toString(),
    username: row.username,
    globalName: row.globalName,
    locale: row.locale,
    email: row.email,
    premiumType: row.premiumType,
    bot: row.bot,
    profilePrivacy: readProfilePrivacy(row.profilePrivacy),
    primaryGuild: row.primaryGuild as PrimaryGuild | null,
    provisional: row.provisionalApplicationId !== null,
  };
}
