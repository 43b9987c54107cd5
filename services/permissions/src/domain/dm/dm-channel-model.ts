// DM and group DM channels (D:resources/channel.mdx §Channel Types): not a guild's, so no
// roles and no overwrites; who may see one is who is in it.

/** The private channel types. */
export const DmChannelType = { DM: 1, GROUP_DM: 3 } as const;
export type DmChannelType = (typeof DmChannelType)[keyof typeof DmChannelType];

/** A DM or group DM channel with every user in it (its opener included), by ascending id. */
export interface DmChannel {
  id: string;
  type: DmChannelType;
  /** A group DM's owner (who opened it); null for a DM. */
  ownerId: string | null;
  /** A group DM an application's bot opened: that application; null otherwise. */
  applicationId: string | null;
  recipientIds: string[];
}
