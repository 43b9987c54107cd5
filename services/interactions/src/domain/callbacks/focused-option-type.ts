import { isJsonObject, type JsonObject } from '@acs/validation';

/**
 * The type of the option an autocomplete interaction is focused on (at any depth of its
 * subcommands), read from the interaction object the app received; undefined when there
 * is none. It decides the type of the answer's choice values.
 */
export function focusedOptionType(interaction: JsonObject): number | undefined {
  const data = interaction.data;
  return isJsonObject(data) ? findFocused(data.options) : undefined;
}

function findFocused(options: unknown): number | undefined {
  if (!Array.isArray(options)) return undefined;
  for (const option of options) {
    if (!isJsonObject(option)) continue;
    if (option.focused === true && typeof option.type === 'number') return option.type;
    const nested = findFocused(option.options);
    if (nested !== undefined) return nested;
  }
  return undefined;
}
