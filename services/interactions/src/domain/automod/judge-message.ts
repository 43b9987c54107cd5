import { PERMISSION_FLAGS } from '@acs/validation';
import { ActionType, EventType, type AutoModAction, type AutoModRule } from './automod-rule';
import type { CompiledRule, JudgedMessage, RuleMatch } from './compile-rule';

/** Who sent a message and where, as AutoMod weighs it. */
export interface MessageSender {
  userId: string;
  /** The sender's roles in the guild. */
  roleIds: readonly string[];
  /** The sender's permissions in the channel (an owner's and ADMINISTRATOR's are all). */
  permissions: bigint;
  channelId: string;
}

/** One action a rule's match sets off. */
export interface Execution {
  rule: AutoModRule;
  action: AutoModAction;
  match: RuleMatch;
}

/** What AutoMod decided of a message: the actions to run, and whether it is blocked. */
export interface Verdict {
  executions: Execution[];
  blocked: boolean;
  /** The longest TIMEOUT of the executions, in seconds; 0 for none. */
  timeoutSeconds: number;
}

const NONE: Verdict = { executions: [], blocked: false, timeoutSeconds: 0 };

/**
 * Judges a message against a guild's rules (D:resources/auto-moderation.mdx): members with
 * ADMINISTRATOR or MANAGE_GUILD (the owner among them) are exempt from every rule, as
 * Discord's Help Center says; a rule applies when it is enabled, is a MESSAGE_SEND rule, and
 * neither the channel nor one of the sender's roles is exempt. Every action of every rule
 * that matches runs (one execution each); any BLOCK_MESSAGE blocks the message.
 */
export function judgeMessage(
  rules: readonly CompiledRule[],
  message: JudgedMessage,
  sender: MessageSender,
): Verdict {
  const { ADMINISTRATOR, MANAGE_GUILD } = PERMISSION_FLAGS;
  if ((sender.permissions & (ADMINISTRATOR | MANAGE_GUILD)) !== 0n) return NONE;
  const executions: Execution[] = [];
  for (const compiled of rules) {
    const { rule } = compiled;
    if (!rule.enabled || rule.event_type !== EventType.MESSAGE_SEND) continue;
    if (rule.exempt_channels.includes(sender.channelId)) continue;
    if (rule.exempt_roles.some((roleId) => sender.roleIds.includes(roleId))) continue;
    const match = compiled.match(message);
    if (!match) continue;
    for (const action of rule.actions) executions.push({ rule, action, match });
  }
  if (executions.length === 0) return NONE;
  return {
    executions,
    blocked: executions.some((execution) => execution.action.type === ActionType.BLOCK_MESSAGE),
    timeoutSeconds: Math.max(
      0,
      ...executions.map((execution) =>
        execution.action.type === ActionType.TIMEOUT ? (execution.action.metadata.duration_seconds ?? 0) : 0,
      ),
    ),
  };
}

const USER_MENTION = /<@!?(\d{1,20})>/g;
const ROLE_MENTION = /<@&(\d{1,20})>/g;

/** A message's text and the distinct users and roles it mentions (`<@id>`, `<@!id>`, `<@&id>`). */
export function judgedMessageOf(content: string): JudgedMessage {
  return {
    content,
    mentionedUserIds: new Set(Array.from(content.matchAll(USER_MENTION), (found) => found[1] as string)),
    mentionedRoleIds: new Set(Array.from(content.matchAll(ROLE_MENTION), (found) => found[1] as string)),
  };
}
