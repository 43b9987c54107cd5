import { isSnowflake } from '@acs/snowflake';
import { describeValue, FormErrors, isLengthWithin, type ErrorPath } from '@acs/validation';
import { InteractionType, OptionType } from '../interaction-enums';
import type { OptionSpec } from './command-spec';
import type { JsonRecord } from './invocation-facts';
import { InvocationErrorCode, InvocationErrorMessage } from './invocation-errors';
import type { SentOption } from './read-invocation-body';

/** An option as the application receives it (A2): `value` and `options` are exclusive. */
export interface WireOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: WireOption[];
  focused?: true;
}

/** The users, members, roles and channels the invocation's ids resolve to (from oauth and permissions). */
export interface OptionLookups {
  users: Record<string, JsonRecord>;
  members: Record<string, JsonRecord>;
  roles: Record<string, JsonRecord>;
  channels: Record<string, JsonRecord>;
}

/** The ids the options name, each of its kind, for `resolved`. */
export interface ReferencedIds {
  users: string[];
  roles: string[];
  channels: string[];
}

/** The options as the application receives them, and what they name. */
export interface ValidatedOptions {
  /** Undefined when the command has none (the key is then left out). */
  options: WireOption[] | undefined;
  referenced: ReferencedIds;
}

/** A STRING option's longest value when the command sets no max_length (D: max_length ≤ 6000). */
const MAX_STRING_VALUE_LENGTH = 6000;
/** INTEGER values are within ±2^53 (D:interactions/application-commands.mdx, option types). */
const MAX_INTEGER_MAGNITUDE = 2 ** 53;

const isStructural = (type: number): boolean =>
  type === OptionType.SUB_COMMAND || type === OptionType.SUB_COMMAND_GROUP;

/** State shared by the walk over one invocation's options. */
interface Walk {
  errors: FormErrors;
  isAutocomplete: boolean;
  focused: number;
  lookups: OptionLookups;
  referenced: { users: Set<string>; roles: Set<string>; channels: Set<string> };
}

/**
 * Judges a CHAT_INPUT invocation's options against the command (issue item 2): the
 * subcommand path exists (one subcommand, inside one group when there are groups); every
 * option is the command's, once, of its type; values have the option's type and meet its
 * `choices`, min/max value and length and `channel_types`; ids name existing users, roles
 * and channels; required options are present. An autocomplete carries exactly one
 * `focused` option, of an option with `autocomplete`, whose value is any string (it may be
 * partial; its other rules are not checked, and required options may still be missing).
 * Every error is at its `data.options…` path, all of them at once.
 */
export function validateOptions(
  interactionType: number,
  sent: SentOption[] | null,
  specs: OptionSpec[],
  lookups: OptionLookups,
): ValidatedOptions {
  const walk: Walk = {
    errors: new FormErrors(),
    isAutocomplete: interactionType === InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
    focused: 0,
    lookups,
    referenced: { users: new Set(), roles: new Set(), channels: new Set() },
  };
  const path = ['data', 'options'];
  const options = validateLevel(sent, specs, path, walk);
  if (walk.isAutocomplete && walk.focused !== 1 && walk.errors.isEmpty()) {
    walk.errors.add(path, InvocationErrorCode.OPTION_INVALID, 'Exactly one option must be focused');
  }
  walk.errors.throwIfAny();
  return {
    options: specs.length === 0 && (sent === null || sent.length === 0) ? undefined : options,
    referenced: {
      users: [...walk.referenced.users],
      roles: [...walk.referenced.roles],
      channels: [...walk.referenced.channels],
    },
  };
}

function validateLevel(
  sent: SentOption[] | null,
  specs: OptionSpec[],
  path: ErrorPath,
  walk: Walk,
): WireOption[] {
  return specs.some((s) => isStructural(s.type))
    ? validateSubcommand(sent ?? [], specs, path, walk)
    : validateValues(sent ?? [], specs, path, walk);
}

/** A level of subcommands (or groups): exactly one of them, with its own options. */
function validateSubcommand(
  sent: SentOption[],
  specs: OptionSpec[],
  path: ErrorPath,
  walk: Walk,
): WireOption[] {
  const { errors } = walk;
  const [first, ...extra] = sent;
  if (first === undefined) {
    errors.add(path, InvocationErrorCode.OPTION_MISSING, InvocationErrorMessage.OPTION_MISSING);
    return [];
  }
  extra.forEach((_, index) =>
    errors.add(
      [...path, index + 1, 'name'],
      InvocationErrorCode.OPTION_INVALID,
      'Only one subcommand may be given',
    ),
  );
  const at = [...path, 0];
  const spec = specs.find((s) => s.name === first.name);
  if (!spec) {
    errors.add(
      [...at, 'name'],
      InvocationErrorCode.OPTION_INVALID,
      // Quoted short: the client sent the name, which may be as long as a body.
      `Unknown subcommand "${describeValue(first.name)}"`,
    );
    return [];
  }
  if (!checkSentType(first, spec, at, walk)) return [];
  if (first.value !== undefined) {
    errors.add(
      [...at, 'value'],
      InvocationErrorCode.OPTION_INVALID,
      'A subcommand takes options, not a value',
    );
  }
  if (first.focused) {
    errors.add([...at, 'focused'], InvocationErrorCode.OPTION_INVALID, 'A subcommand cannot be focused');
  }
  const options = validateLevel(first.options, spec.options, [...at, 'options'], walk);
  return [{ name: spec.name, type: spec.type, options }];
}

/** A level of value options: each the command's, once, with a valid value; required ones present. */
function validateValues(sent: SentOption[], specs: OptionSpec[], path: ErrorPath, walk: Walk): WireOption[] {
  const { errors } = walk;
  const given = new Set<string>();
  const options: WireOption[] = [];
  sent.forEach((option, index) => {
    const at = [...path, index];
    const spec = specs.find((s) => s.name === option.name);
    if (!spec) {
      errors.add(
        [...at, 'name'],
        InvocationErrorCode.OPTION_INVALID,
        `Unknown option "${describeValue(option.name)}"`,
      );
      return;
    }
    if (given.has(spec.name)) {
      errors.add(
        [...at, 'name'],
        InvocationErrorCode.OPTION_INVALID,
        `Option "${spec.name}" is given more than once`,
      );
      return;
    }
    given.add(spec.name);
    if (!checkSentType(option, spec, at, walk)) return;
    if (option.options !== null) {
      errors.add([...at, 'options'], InvocationErrorCode.OPTION_INVALID, 'Only subcommands take options');
      return;
    }
    const wire = option.focused ? readFocused(option, spec, at, walk) : readValue(option, spec, at, walk);
    if (wire) options.push(wire);
  });
  if (!walk.isAutocomplete && specs.some((s) => s.required && !given.has(s.name))) {
    errors.add(path, InvocationErrorCode.OPTION_MISSING, InvocationErrorMessage.OPTION_MISSING);
  }
  return options;
}

/** The type the client says an option has, when it says one, must be the command's. */
function checkSentType(option: SentOption, spec: OptionSpec, at: ErrorPath, walk: Walk): boolean {
  if (option.type === null || option.type === spec.type) return true;
  walk.errors.add(
    [...at, 'type'],
    InvocationErrorCode.OPTION_INVALID,
    `Option "${spec.name}" is of type ${spec.type}`,
  );
  return false;
}

/** The focused option of an autocomplete: its value is whatever the user typed so far, as a string. */
function readFocused(
  option: SentOption,
  spec: OptionSpec,
  at: ErrorPath,
  walk: Walk,
): WireOption | undefined {
  const { errors } = walk;
  walk.focused += 1;
  if (!walk.isAutocomplete) {
    errors.add(
      [...at, 'focused'],
      InvocationErrorCode.OPTION_INVALID,
      'Only an autocomplete focuses an option',
    );
    return undefined;
  }
  if (!spec.autocomplete) {
    errors.add(
      [...at, 'focused'],
      InvocationErrorCode.OPTION_INVALID,
      `Option "${spec.name}" has no autocomplete`,
    );
    return undefined;
  }
  if (typeof option.value !== 'string') {
    errors.add(
      [...at, 'value'],
      InvocationErrorCode.OPTION_INVALID,
      "The focused option's value must be a string",
    );
    return undefined;
  }
  return { name: spec.name, type: spec.type, value: option.value, focused: true };
}

/** A value option's value, checked against the option's type and rules. */
function readValue(option: SentOption, spec: OptionSpec, at: ErrorPath, walk: Walk): WireOption | undefined {
  const path = [...at, 'value'];
  const invalid = (message: string): undefined => {
    walk.errors.add(path, InvocationErrorCode.OPTION_INVALID, message);
    return undefined;
  };
  if (option.value === undefined) return invalid(`Option "${spec.name}" needs a value`);
  const value = checkValue(option.value, spec, walk);
  if (typeof value === 'object') return invalid(value.problem);
  return { name: spec.name, type: spec.type, value };
}

type Checked = string | number | boolean | { problem: string };

function checkValue(value: unknown, spec: OptionSpec, walk: Walk): Checked {
  switch (spec.type) {
    case OptionType.STRING:
      return checkString(value, spec);
    case OptionType.INTEGER:
      if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > MAX_INTEGER_MAGNITUDE) {
        return { problem: 'Value must be an integer' };
      }
      return checkNumber(value, spec);
    case OptionType.NUMBER:
      if (typeof value !== 'number' || !Number.isFinite(value)) return { problem: 'Value must be a number' };
      return checkNumber(value, spec);
    case OptionType.BOOLEAN:
      return typeof value === 'boolean' ? value : { problem: 'Value must be a boolean' };
    default:
      return checkId(value, spec, walk);
  }
}

function checkString(value: unknown, spec: OptionSpec): Checked {
  if (typeof value !== 'string') return { problem: 'Value must be a string' };
  const min = spec.minLength ?? 0;
  const max = spec.maxLength ?? MAX_STRING_VALUE_LENGTH;
  if (!isLengthWithin(value, min, max))
    return { problem: `Value must be between ${min} and ${max} characters long` };
  return checkChoice(value, spec);
}

function checkNumber(value: number, spec: OptionSpec): Checked {
  if (spec.minValue !== null && value < spec.minValue) {
    return { problem: `Value must be greater than or equal to ${spec.minValue}` };
  }
  if (spec.maxValue !== null && value > spec.maxValue) {
    return { problem: `Value must be less than or equal to ${spec.maxValue}` };
  }
  return checkChoice(value, spec);
}

function checkChoice(value: string | number, spec: OptionSpec): Checked {
  if (spec.choices === null || spec.choices.length === 0) return value;
  return spec.choices.some((c) => c.value === value)
    ? value
    : { problem: "Value is not one of the option's choices" };
}

/** USER, CHANNEL, ROLE, MENTIONABLE and ATTACHMENT values: ids of things that exist here. */
function checkId(value: unknown, spec: OptionSpec, walk: Walk): Checked {
  const id = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof id !== 'string' || !isSnowflake(id)) return { problem: 'Value must be a snowflake' };
  const { lookups, referenced } = walk;
  switch (spec.type) {
    case OptionType.USER:
      if (!lookups.users[id]) return { problem: 'Unknown user' };
      referenced.users.add(id);
      return id;
    case OptionType.ROLE:
      if (!lookups.roles[id]) return { problem: 'Unknown role' };
      referenced.roles.add(id);
      return id;
    case OptionType.MENTIONABLE:
      if (lookups.users[id]) referenced.users.add(id);
      else if (lookups.roles[id]) referenced.roles.add(id);
      else return { problem: 'Unknown user or role' };
      return id;
    case OptionType.CHANNEL: {
      const channel = lookups.channels[id];
      if (!channel) return { problem: 'Unknown channel' };
      if (
        spec.channelTypes !== null &&
        spec.channelTypes.length > 0 &&
        !spec.channelTypes.includes(channel.type as number)
      ) {
        return { problem: `Channel type ${String(channel.type)} is not allowed for this option` };
      }
      referenced.channels.add(id);
      return id;
    }
    default:
      // Attachments come with multipart invocations (`files[n]`), which are not taken yet:
      // no attachment id can name one.
      return { problem: 'Unknown attachment' };
  }
}
