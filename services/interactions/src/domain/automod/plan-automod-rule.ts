import { MissingAccessError, MissingPermissionsError } from '@acs/discord-errors';
import { FormErrors, PERMISSION_FLAGS } from '@acs/validation';
import { AutoModErrorCode } from './automod-error-codes';
import { ActionType, MAX_RULES_PER_TRIGGER, type TriggerType } from './automod-rule';
import type { RuleFields } from './read-automod-rule';

/** What the rule routes know of the guild: its roles and its channels (by id, with their type). */
export interface GuildFacts {
  roleIds: ReadonlySet<string>;
  channelTypes: ReadonlyMap<string, number>;
}

/** The caller's standing in the guild, as permissions answers it. */
export interface RuleManager {
  isMember: boolean;
  /** The caller's guild-level permissions. */
  permissions: bigint;
}

/** Channel types an alert may be posted to: GUILD_TEXT (0) and GUILD_ANNOUNCEMENT (5) [Inf]. */
const ALERT_CHANNEL_TYPES: ReadonlySet<number> = new Set([0, 5]);

/**
 * Every rule route needs MANAGE_GUILD (D:resources/auto-moderation.mdx): 403 / 50001 for
 * who is not in the guild, 403 / 50013 naming it otherwise. A rule with a TIMEOUT action
 * also needs MODERATE_MEMBERS (D §Action Types).
 */
export function assertMayManageRules(manager: RuleManager, actions: readonly { type: number }[] = []): void {
  if (!manager.isMember) throw new MissingAccessError();
  const { MANAGE_GUILD, MODERATE_MEMBERS, ADMINISTRATOR } = PERMISSION_FLAGS;
  if ((manager.permissions & ADMINISTRATOR) === ADMINISTRATOR) return;
  if ((manager.permissions & MANAGE_GUILD) !== MANAGE_GUILD)
    throw new MissingPermissionsError(['MANAGE_GUILD']);
  if (
    actions.some((action) => action.type === ActionType.TIMEOUT) &&
    (manager.permissions & MODERATE_MEMBERS) !== MODERATE_MEMBERS
  ) {
    throw new MissingPermissionsError(['MODERATE_MEMBERS']);
  }
}

/**
 * The ids a rule names must be the guild's: exempt roles (UNKNOWN_ROLE), exempt channels and
 * alert channels (UNKNOWN_CHANNEL; an alert channel must be a text channel), each at its
 * path (400 / 50035). Another guild's role or channel is unknown here.
 */
export function checkRuleInGuild(fields: RuleFields, guild: GuildFacts): void {
  const errors = new FormErrors();
  fields.exempt_roles.forEach((id, index) => {
    if (!guild.roleIds.has(id))
      errors.add(['exempt_roles', index], AutoModErrorCode.UNKNOWN_ROLE, `Unknown role ${id}`);
  });
  fields.exempt_channels.forEach((id, index) => {
    if (!guild.channelTypes.has(id))
      errors.add(['exempt_channels', index], AutoModErrorCode.UNKNOWN_CHANNEL, `Unknown channel ${id}`);
  });
  fields.actions.forEach((action, index) => {
    const id = action.metadata.channel_id;
    if (action.type !== ActionType.SEND_ALERT_MESSAGE || id === undefined) return;
    const type = guild.channelTypes.get(id);
    const path = ['actions', index, 'metadata', 'channel_id'];
    if (type === undefined) errors.add(path, AutoModErrorCode.UNKNOWN_CHANNEL, `Unknown channel ${id}`);
    else if (!ALERT_CHANNEL_TYPES.has(type))
      errors.add(path, AutoModErrorCode.ALERT_CHANNEL_TYPE, 'Alert channel must be a text channel');
  });
  errors.throwIfAny();
}

/** A guild has room for one more rule of `triggerType` (D §Trigger Types, "Max per Guild"): else 400 / 50035 at `trigger_type`. */
export function assertRuleRoom(
  triggerType: TriggerType,
  existing: readonly { trigger_type: number }[],
): void {
  const count = existing.filter((rule) => rule.trigger_type === triggerType).length;
  const max = MAX_RULES_PER_TRIGGER[triggerType];
  if (count < max) return;
  const errors = new FormErrors();
  errors.add(
    ['trigger_type'],
    AutoModErrorCode.MAX_RULES_OF_TYPE,
    `Maximum number of rules of this trigger type reached (${max})`,
  );
  errors.throwIfAny();
}
