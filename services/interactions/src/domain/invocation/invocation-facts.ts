/** A JSON object as a peer rendered it (a user, a channel, a command...). */
export type JsonRecord = Record<string, unknown>;

/** What oauth says of an invocation: the application, the invoker, the installs, the users named. */
export interface InvocationParties {
  /** The application object as GetApplication answers it. */
  application: JsonRecord;
  applicationFlags: number;
  /** Null when the application has none: its interactions then go to its bot's gateway session. */
  interactionsEndpointUrl: string | null;
  /** PKCS#8 PEM of the Ed25519 key that signs deliveries. */
  signingKeyPem: string;
  /** The application's integration types (0 guild install, 1 user install). */
  integrationTypes: number[];
  botUser: JsonRecord;
  /** The invoker as others see them. */
  user: JsonRecord;
  userLocale: string;
  /** The application is installed in the guild of the invocation (always false outside one). */
  guildInstalled: boolean;
  /** The invoker installed the application to their account. */
  userInstalled: boolean;
  /** The users the invocation names that exist, by id. */
  resolvedUsers: Record<string, JsonRecord>;
  /** The invoker's active entitlements to the application's SKUs (their own and the guild's), as oauth renders them. */
  entitlements: JsonRecord[];
  /**
   * When the next of the invoker's entitlements starts or ends (ms since the epoch), so that
   * `entitlements` changes without an event; absent when none will.
   */
  entitlementsChangeAtMs?: number;
}

/** What command-registry says of the command an invocation names. */
export interface InvocableCommand {
  /** The command as GET answers it (version, options, contexts, integration_types, nsfw, handler...). */
  command: JsonRecord;
  /** Null for a global command. */
  guildId: string | null;
  /** The version at which it got its current name (for the permissions decision). */
  namedVersion: string;
}

/** The command facts permissions decides "may this user use it here" with. */
export interface CommandFacts {
  applicationId: string;
  commandId: string;
  name: string;
  /** Null when the command sets none. */
  defaultMemberPermissions: string | null;
  version: string;
  namedVersion: string;
}

/** What an invocation asks permissions about its place. */
export interface InvocationPlaceQuery {
  channelId: string;
  /** Null for a DM or group DM. */
  guildId: string | null;
  userId: string;
  applicationId: string;
  command: CommandFacts;
  resolveUserIds: string[];
  resolveRoleIds: string[];
  resolveChannelIds: string[];
}

/** What permissions says of the place of an invocation and who is there. */
export interface InvocationPlace {
  channel: JsonRecord;
  /** In a guild: the guild object (id, features, preferred_locale...); else null. */
  guild: JsonRecord | null;
  /** In a guild: the invoker's member (without `user`, with `permissions`); null when not a member. */
  member: JsonRecord | null;
  /** Decimal bit set: the invoker's permissions in the channel. */
  userPermissions: string;
  /** Decimal bit set: the application's permissions in the channel. */
  appPermissions: string;
  botIsMember: boolean;
  /** The command decision (always true outside a guild). */
  allowed: boolean;
  reason: string;
  /** Members (no user, deaf, mute; with permissions), roles and channels (resolved shape), by id. */
  resolvedMembers: Record<string, JsonRecord>;
  resolvedRoles: Record<string, JsonRecord>;
  resolvedChannels: Record<string, JsonRecord>;
  /** In a DM or group DM: every member's user id; empty in a guild. */
  recipientIds: string[];
  /** In a guild whose upload limit an admin set: that limit in bytes (`attachment_size_limit`); else null. */
  attachmentSizeLimit?: number | null;
}
