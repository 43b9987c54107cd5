import { DiscordError } from '@acs/discord-errors';
import { MAX_PINS_PER_CHANNEL } from '../messages/message-limits';

/** 400 / 30003: the channel already has its maximum of pins (D:topics/opcodes-and-status-codes.mdx). */
export class MaxPinsError extends DiscordError {
  constructor() {
    super(400, 30003, `Maximum number of pins reached for the channel (${MAX_PINS_PER_CHANNEL})`);
  }
}
