import { InvalidFormBodyError, MaxCommandsError } from './command-errors';
import { ErrorCode } from './error-codes';
import { FormErrors, type ErrorPath } from '@acs/validation';
import { MAX_BULK_COMMANDS, MAX_COMMANDS_BY_TYPE } from './limits';
import type { CommandContext, NormalizedCommand } from './normalized-command';
import { checkMaxItems, getField, isAbsent, isJsonObject, readList, readSnowflake } from '@acs/validation';
import { collectCommandErrors } from './validate-command';

/** One item of a bulk overwrite: the normalized command and the client's `id`, if it sent one. */
export interface BulkCommand {
  /** Matches an existing command by id; when null, matching is by name + type. */
  id: string | null;
  command: NormalizedCommand;
}

// The client's id of an item: null when absent, else an id under the API's one id rule.
function readItemId(raw: unknown, errors: FormErrors, path: ErrorPath): string | null {
  return isAbsent(raw) ? null : (readSnowflake(raw, errors, path) ?? null);
}

/**
 * Validates a bulk-overwrite body (facts §1): an array (null = empty) of at most 130
 * commands, each validated under its index so one tree reports every item; a name repeated
 * for the same type is APPLICATION_COMMANDS_DUPLICATE_NAME on the later item. Then the
 * body may not exceed the per-type caps (MaxCommandsError). Returns the items in order.
 */
export function validateBulk(input: unknown, ctx: CommandContext): BulkCommand[] {
  if (isAbsent(input)) return [];
  const errors = new FormErrors();
  const list = readList(input, errors, []);
  if (!list || !checkMaxItems(list, MAX_BULK_COMMANDS, errors, [])) throw new InvalidFormBodyError(errors);

  const items: (BulkCommand | undefined)[] = list.map((item, index) => {
    const id = isJsonObject(item) ? readItemId(getField(item, 'id'), errors, [index, 'id']) : null;
    const command = collectCommandErrors(item, ctx, errors, [index]);
    return command ? { id, command } : undefined;
  });

  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (!item) return;
    const key = `${item.command.type}:${item.command.name}`;
    if (seen.has(key)) {
      errors.add(
        [index],
        ErrorCode.APPLICATION_COMMANDS_DUPLICATE_NAME,
        'Application command names must be unique',
      );
    }
    seen.add(key);
  });
  if (!errors.isEmpty()) throw new InvalidFormBodyError(errors);

  const commands = items as BulkCommand[];
  for (const [type, limit] of Object.entries(MAX_COMMANDS_BY_TYPE)) {
    if (commands.filter((c) => c.command.type === Number(type)).length > limit)
      throw new MaxCommandsError(limit);
  }
  return commands;
}
