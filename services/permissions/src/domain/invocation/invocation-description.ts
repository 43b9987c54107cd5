/**
 * What `DescribeInvocationContext` answers, before it is written as JSON: the place of an
 * invocation and who is there, computed by `describeGuildInvocation` or
 * `describeDmInvocation`.
 */
export interface InvocationDescription {
  /** The channel object (a DM's without `recipients`, which the caller renders). */
  channel: Record<string, unknown>;
  /** In a guild: the guild object; null in a DM. */
  guild: Record<string, unknown> | null;
  /** In a guild: the invoker's member object (no `user`, with `permissions`); null for a non-member or in a DM. */
  member: Record<string, unknown> | null;
  userPermissions: bigint;
  appPermissions: bigint;
  botIsMember: boolean;
  /** The command decision; `reason` empty when there was nothing to decide (DMs, no command). */
  allowed: boolean;
  reason: string;
  /** `resolved` members, roles and channels by id; ids that do not resolve are absent. */
  resolvedMembers: Record<string, unknown>;
  resolvedRoles: Record<string, unknown>;
  resolvedChannels: Record<string, unknown>;
  /** In a DM or group DM: every user in it; empty in a guild. */
  recipientIds: string[];
  /** In a guild whose upload limit an admin set: that limit in bytes; else null. */
  attachmentSizeLimit: number | null;
}
