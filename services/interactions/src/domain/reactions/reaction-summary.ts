import { MAX_REACTION_EMOJIS } from '../messages/message-limits';
import { MaxReactionsError } from './reaction-errors';
import type { ReactionEmoji } from './read-reaction-emoji';

/**
 * One emoji's reactions on a message as the API answers them (D:resources/message.mdx
 * §Reaction Object). ACS has no burst (super) reactions: `burst` counts are 0.
 */
export interface MessageReaction {
  count: number;
  count_details: { burst: number; normal: number };
  /** Whether the reader reacted: false as stored, set for each reader (withReactionsOf). */
  me: boolean;
  me_burst: boolean;
  emoji: ReactionEmoji;
  burst_colors: string[];
}

/** A message's reactions, by emoji in the order they were first added. */
export type Reactions = readonly MessageReaction[];

/**
 * The reactions after one more of `emoji` (a user's first of it): its count grows, or it is
 * the message's newest emoji, at most the 20th (400 / 30010).
 */
export function withReactionAdded(reactions: Reactions, emoji: ReactionEmoji): MessageReaction[] {
  const found = reactions.find((reaction) => reaction.emoji.name === emoji.name);
  if (!found) {
    if (reactions.length >= MAX_REACTION_EMOJIS) throw new MaxReactionsError();
    return [
      ...reactions,
      {
        count: 1,
        count_details: { burst: 0, normal: 1 },
        me: false,
        me_burst: false,
        emoji,
        burst_colors: [],
      },
    ];
  }
  return reactions.map((reaction) => (reaction === found ? counted(reaction, reaction.count + 1) : reaction));
}

/** The reactions after one of `emoji` went: an emoji no one reacts with any more goes too. */
export function withReactionRemoved(reactions: Reactions, emoji: ReactionEmoji, by = 1): MessageReaction[] {
  return reactions.flatMap((reaction) => {
    if (reaction.emoji.name !== emoji.name) return [reaction];
    const count = reaction.count - by;
    return count > 0 ? [counted(reaction, count)] : [];
  });
}

/** The reactions as `emoji`'s first: whether no one has reacted with it yet (ADD_REACTIONS needed then). */
export function isNewReaction(reactions: Reactions, emoji: ReactionEmoji): boolean {
  return !reactions.some((reaction) => reaction.emoji.name === emoji.name);
}

/** The reactions as a reader sees them: `me` set on the emojis of `mine`. */
export function reactionsSeenBy(reactions: Reactions, mine: ReadonlySet<string>): MessageReaction[] {
  return reactions.map((reaction) => ({ ...reaction, me: mine.has(reaction.emoji.name) }));
}

function counted(reaction: MessageReaction, count: number): MessageReaction {
  return { ...reaction, count, count_details: { burst: 0, normal: count } };
}
