import { ChannelType, isThreadType, THREAD_PARENT_TYPES } from './channel-types';
import type { CreateChannelInput } from './validate-create-channel';
import { ErrorCode } from './validation/error-codes';
import { FormErrors } from '@acs/validation';
import { addRequired } from './validation/read-value';

/** What a new channel refers to, as found in its guild. */
export interface ChannelReferences {
  /** The channel named by parent_id, or null when the guild has no such channel (or none was named). */
  parent: { type: number } | null;
  /** The ids of the guild's roles, @everyone included. */
  roleIds: ReadonlySet<string>;
}

/**
 * Checks a validated CreateChannel body against its guild; throws 50035 naming each field.
 * A thread needs a parent of a type that holds that kind of thread and has no overwrites
 * of its own; any other channel may only sit in a category, and a category in nothing.
 * Role overwrites must name roles of the guild; member overwrites may name any user.
 */
export function checkChannelReferences(input: CreateChannelInput, references: ChannelReferences): void {
  const errors = new FormErrors();
  const { parent } = references;
  if (isThreadType(input.type)) {
    const parentTypes = THREAD_PARENT_TYPES.get(input.type) ?? [];
    if (input.parentId === null) addRequired(errors, ['parent_id']);
    else if (!parent) errors.add(['parent_id'], ErrorCode.CHANNEL_PARENT_INVALID, 'Unknown Channel');
    else if (!parentTypes.includes(parent.type as ChannelType)) {
      errors.add(
        ['parent_id'],
        ErrorCode.CHANNEL_PARENT_INVALID,
        `A thread of type ${input.type} must be in a channel of type ${parentTypes.join(', ')}.`,
      );
    }
    if (input.overwrites.length > 0) {
      errors.add(
        ['permission_overwrites'],
        ErrorCode.CHANNEL_OVERWRITES_INVALID,
        "Threads have no permission overwrites; they use their parent channel's.",
      );
    }
  } else if (input.parentId !== null) {
    if (input.type === ChannelType.GUILD_CATEGORY) {
      errors.add(['parent_id'], ErrorCode.CHANNEL_PARENT_INVALID, 'A category cannot have a parent.');
    } else if (!parent) {
      errors.add(['parent_id'], ErrorCode.CHANNEL_PARENT_INVALID, 'Unknown Channel');
    } else if (parent.type !== ChannelType.GUILD_CATEGORY) {
      errors.add(['parent_id'], ErrorCode.CHANNEL_PARENT_INVALID, 'The parent must be a category (type 4).');
    }
  }
  input.overwrites.forEach((overwrite, index) => {
    if (overwrite.type === 0 && !references.roleIds.has(overwrite.id)) {
      errors.add(['permission_overwrites', index, 'id'], ErrorCode.UNKNOWN_ROLE, 'Unknown Role');
    }
  });
  if (errors.count > 0) throw errors.toError();
}
