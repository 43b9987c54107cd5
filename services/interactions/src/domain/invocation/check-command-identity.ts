import { CommandType, InteractionType } from '../interaction-enums';
import type { CommandSpec } from './command-spec';
import { InvocationErrorCode, InvocationErrorMessage, throwInvocationError } from './invocation-errors';
import type { SentCommandData } from './read-invocation-body';

/**
 * The client's picture of the command must be the stored one (A9, read-repair): an
 * unknown command is refused at `data.id`; another name or type at `data`
 * (INTERACTION_APPLICATION_COMMAND_INVALID), another version at `data`
 * (..._INVALID_VERSION). On either code the real client reloads its command index.
 * An autocomplete exists only for CHAT_INPUT commands.
 */
export function checkCommandIdentity(
  interactionType: number,
  sent: SentCommandData,
  command: CommandSpec | undefined,
): CommandSpec {
  if (!command) {
    throwInvocationError(['data', 'id'], InvocationErrorCode.INVALID, InvocationErrorMessage.UNKNOWN_COMMAND);
  }
  if (sent.name !== command.name || (sent.type !== null && sent.type !== command.type)) {
    throwInvocationError(['data'], InvocationErrorCode.INVALID, InvocationErrorMessage.OUTDATED);
  }
  if (sent.version !== command.version) {
    throwInvocationError(['data'], InvocationErrorCode.INVALID_VERSION, InvocationErrorMessage.OUTDATED);
  }
  if (
    interactionType === InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE &&
    command.type !== CommandType.CHAT_INPUT
  ) {
    throwInvocationError(['type'], InvocationErrorCode.INVALID, 'Only chat input commands have autocomplete');
  }
  return command;
}
