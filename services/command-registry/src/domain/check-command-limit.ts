import type { ApplicationCommandType } from './command-enums';
import { MaxCommandsError } from './command-errors';
import { MAX_COMMANDS_BY_TYPE } from './limits';

/**
 * The per-scope cap of a type (100 CHAT_INPUT, 15 USER, 15 MESSAGE, 1 PRIMARY_ENTRY_POINT):
 * one command more of `type` on top of the `ofType` the scope holds, else 400 / 30032.
 */
export function checkCommandLimit(type: ApplicationCommandType, ofType: number): void {
  const limit = MAX_COMMANDS_BY_TYPE[type];
  if (ofType >= limit) throw new MaxCommandsError(limit);
}
