import type { Localizations } from '@acs/validation';
import type { NormalizedChoice, NormalizedCommand, NormalizedOption } from './normalized-command';
import { codePointLength } from '@acs/validation';

// Longest of the default and its localizations: only that one counts (D: §8000 rule).
function longest(value: string, localizations: Localizations | null | undefined): number {
  let max = codePointLength(value);
  for (const localized of Object.values(localizations ?? {})) {
    if (localized !== undefined) max = Math.max(max, codePointLength(localized));
  }
  return max;
}

function choiceSize(choice: NormalizedChoice): number {
  return longest(choice.name, choice.name_localizations) + codePointLength(String(choice.value));
}

function optionSize(option: NormalizedOption): number {
  let size = longest(option.name, option.name_localizations);
  size += longest(option.description, option.description_localizations);
  for (const choice of option.choices ?? []) size += choiceSize(choice);
  for (const child of option.options ?? []) size += optionSize(child);
  return size;
}

/**
 * The size the 8000-character cap applies to: name and description of the command and of
 * every option, subcommand and group, plus each choice's name and value (as text); for
 * localized fields only the longest variant, default included, counts.
 */
export function computeCommandSize(command: NormalizedCommand): number {
  let size = longest(command.name, command.name_localizations);
  size += longest(command.description, command.description_localizations);
  for (const option of command.options ?? []) size += optionSize(option);
  return size;
}
