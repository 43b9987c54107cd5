// The domain's view of a guild: what the store reads and writes and the rules compute on.
// Ids are decimal strings as on the wire; permission bit sets are bigints.

/** A guild. */
export interface Guild {
  id: string;
  name: string;
  ownerId: string;
  /** The guild's language, one of the supported locales ("en-US" unless set at creation). */
  preferredLocale: string;
  /** The upload limit an admin set, in bytes; null: the default. */
  attachmentSizeLimit: number | null;
}

/** A role; the @everyone role has the guild's id. */
export interface Role {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  position: number;
  /** On a bot's managed role (the permissions its app was installed with): the bot user's id. */
  botId: string | null;
}

/** A member of a guild with the ids of its roles (@everyone excluded). */
export interface Member {
  guildId: string;
  userId: string;
  nick: string | null;
  roleIds: string[];
  joinedAt: Date;
  /** Until when the member is timed out (`communication_disabled_until`); null: never, or lifted. */
  communicationDisabledUntil: Date | null;
}

/** Overwrite target kind: 0 role, 1 member (D:resources/channel.mdx §Overwrite Object). */
export type OverwriteType = 0 | 1;

/** One channel permission overwrite. */
export interface Overwrite {
  id: string;
  type: OverwriteType;
  allow: bigint;
  deny: bigint;
}

/** A guild channel or thread. */
export interface Channel {
  id: string;
  guildId: string;
  type: number;
  name: string;
  parentId: string | null;
  position: number;
  overwrites: Overwrite[];
  createdAt: Date;
}
