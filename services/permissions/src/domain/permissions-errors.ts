import { DiscordError, UnknownResourceError } from '@acs/discord-errors';
import { MAX_CHANNELS_PER_GUILD, MAX_ROLES_PER_GUILD } from './limits';

// Codes and messages: facts §3.2 and D:topics/opcodes-and-status-codes.mdx §JSON Error Codes.

/** 404 / 10004. */
export class UnknownGuildError extends UnknownResourceError {
  constructor() {
    super(10004, 'Unknown Guild');
  }
}

/** 404 / 10011. */
export class UnknownRoleError extends UnknownResourceError {
  constructor() {
    super(10011, 'Unknown Role');
  }
}

/** 404 / 10007. */
export class UnknownMemberError extends UnknownResourceError {
  constructor() {
    super(10007, 'Unknown Member');
  }
}

/** 404 / 10003. */
export class UnknownChannelError extends UnknownResourceError {
  constructor() {
    super(10003, 'Unknown Channel');
  }
}

/** 400 / 30005: the guild already has 250 roles. */
export class MaxRolesError extends DiscordError {
  constructor() {
    super(400, 30005, `Maximum number of guild roles reached (${MAX_ROLES_PER_GUILD})`);
  }
}

/** 400 / 30013: the guild already has 500 channels. */
export class MaxChannelsError extends DiscordError {
  constructor() {
    super(400, 30013, `Maximum number of guild channels reached (${MAX_CHANNELS_PER_GUILD})`);
  }
}

/**
 * 403 / 50013: the owner cannot be removed from their guild (on the real service kicking
 * the owner fails with Missing Permissions whoever asks); the message says why.
 */
export class OwnerNotRemovableError extends DiscordError {
  constructor() {
    super(403, 50013, 'Missing Permissions: the guild owner cannot be removed from the guild');
  }
}

/** 404 / 10009: no overwrite for that target on the channel. */
export class UnknownOverwriteError extends UnknownResourceError {
  constructor() {
    super(10009, 'Unknown Overwrite');
  }
}

/** 400 / 50024: the action does not apply to this kind of channel (a thread's overwrites; a voice status or voice state for a channel
 * that is not a voice or stage channel; D:topics/opcodes-and-status-codes.mdx). */
export class InvalidChannelTypeError extends DiscordError {
  constructor() {
    super(400, 50024, 'Cannot execute action on this channel type');
  }
}
