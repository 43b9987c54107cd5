import { MAX_EMOJI_LENGTH } from '../messages/message-limits';
import { UnknownEmojiError } from './reaction-errors';

/** A reaction's emoji as messages and events show it (D:resources/emoji.mdx, a partial emoji). */
export interface ReactionEmoji {
  /** Null for a Unicode emoji: the only kind ACS has. */
  id: null;
  name: string;
}

// One emoji as Unicode defines them (RGI: flags, keycaps, ZWJ sequences, skin tones), or a
// single pictograph with or without its emoji presentation selector (the client sends "❤" too).
// Built with `new RegExp`: the `v` flag is newer than the compiler's target.
const RGI_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');
const PICTOGRAPH = /^\p{Extended_Pictographic}\uFE0F?$/u;
/** A custom emoji's path form `name:id` (D §Create Reaction); `a:` marks an animated one. */
const CUSTOM_EMOJI = /^(a:)?\w{2,32}:\d{1,20}$/;

/**
 * The emoji of a reaction route's path (already URL-decoded, D:resources/message.mdx §Create
 * Reaction): one Unicode emoji. A custom emoji `name:id` names a guild emoji ACS does not
 * have, and anything else names none: 400 / 10014.
 */
export function readReactionEmoji(value: string): ReactionEmoji {
  if (value.length === 0 || value.length > MAX_EMOJI_LENGTH || CUSTOM_EMOJI.test(value)) {
    throw new UnknownEmojiError();
  }
  if (!RGI_EMOJI.test(value) && !PICTOGRAPH.test(value)) throw new UnknownEmojiError();
  return { id: null, name: value };
}
