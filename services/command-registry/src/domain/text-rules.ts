import { ErrorCode } from './error-codes';
import type { ErrorPath, FormErrors } from '@acs/validation';
import {
  MAX_CHOICE_NAME_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  MIN_CHOICE_NAME_LENGTH,
  MIN_DESCRIPTION_LENGTH,
  MIN_NAME_LENGTH,
} from './limits';
import { addRequired, checkLength, isAbsent, readString } from '@acs/validation';

/** Length bounds of a text field, and whether it is a CHAT_INPUT-style name. */
export interface TextRule {
  min: number;
  max: number;
  isChatInputName?: boolean;
}

/** CHAT_INPUT command names and all option names. */
export const CHAT_INPUT_NAME_RULE: TextRule = {
  min: MIN_NAME_LENGTH,
  max: MAX_NAME_LENGTH,
  isChatInputName: true,
};
/** USER, MESSAGE and PRIMARY_ENTRY_POINT names: any case, spaces allowed. */
export const FREE_NAME_RULE: TextRule = { min: MIN_NAME_LENGTH, max: MAX_NAME_LENGTH };
/** CHAT_INPUT and option descriptions. */
export const DESCRIPTION_RULE: TextRule = { min: MIN_DESCRIPTION_LENGTH, max: MAX_DESCRIPTION_LENGTH };
/** PRIMARY_ENTRY_POINT descriptions: optional, so empty is fine. */
export const OPTIONAL_DESCRIPTION_RULE: TextRule = { min: 0, max: MAX_DESCRIPTION_LENGTH };
/** Choice names. */
export const CHOICE_NAME_RULE: TextRule = { min: MIN_CHOICE_NAME_LENGTH, max: MAX_CHOICE_NAME_LENGTH };

// D:interactions/application-commands.mdx §Application Command Naming (facts §16).
const CHAT_INPUT_NAME_PATTERN = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** Whether a CHAT_INPUT/option name matches the pattern and uses lowercase wherever a letter has one. */
export function isValidChatInputName(name: string): boolean {
  return CHAT_INPUT_NAME_PATTERN.test(name) && name.toLowerCase() === name;
}

/** Checks length (BASE_TYPE_BAD_LENGTH / MAX_LENGTH), then the name pattern (APPLICATION_COMMAND_INVALID_NAME). */
export function checkText(value: string, rule: TextRule, errors: FormErrors, path: ErrorPath): boolean {
  if (!checkLength(value, rule.min, rule.max, errors, path)) return false;
  if (rule.isChatInputName && !isValidChatInputName(value)) {
    errors.add(path, ErrorCode.APPLICATION_COMMAND_INVALID_NAME, 'Command name is invalid');
    return false;
  }
  return true;
}

/** A required text field: BASE_TYPE_REQUIRED when missing or null, else string + `checkText`. */
export function readRequiredText(
  raw: unknown,
  rule: TextRule,
  errors: FormErrors,
  path: ErrorPath,
): string | undefined {
  if (isAbsent(raw)) {
    addRequired(errors, path);
    return undefined;
  }
  const text = readString(raw, errors, path);
  return text !== undefined && checkText(text, rule, errors, path) ? text : undefined;
}
