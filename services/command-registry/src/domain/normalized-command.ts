import type {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  EntryPointCommandHandlerType,
  InteractionContextType,
} from './command-enums';
import type { Localizations } from '@acs/validation';

/** A choice as stored and returned. `name_localizations` is present only when non-empty. */
export interface NormalizedChoice {
  name: string;
  name_localizations?: Localizations;
  value: string | number;
}

/**
 * An option as stored and returned. Optional keys are present only when they carry
 * something: `required`/`autocomplete` only when true, arrays only when non-empty,
 * localization dictionaries only when non-empty.
 */
export interface NormalizedOption {
  type: ApplicationCommandOptionType;
  name: string;
  name_localizations?: Localizations;
  description: string;
  description_localizations?: Localizations;
  required?: boolean;
  choices?: NormalizedChoice[];
  options?: NormalizedOption[];
  channel_types?: number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
  file_types?: string[];
}

/**
 * A command as stored and returned (without id, application_id, guild_id, version).
 * Global-only keys (`dm_permission`, `contexts`, `integration_types`) are absent on guild
 * commands; `options` only on CHAT_INPUT with options; `handler` only on PRIMARY_ENTRY_POINT.
 */
export interface NormalizedCommand {
  type: ApplicationCommandType;
  name: string;
  name_localizations: Localizations | null;
  description: string;
  description_localizations: Localizations | null;
  options?: NormalizedOption[];
  default_member_permissions: string | null;
  dm_permission?: boolean;
  contexts?: InteractionContextType[] | null;
  integration_types?: ApplicationIntegrationType[];
  nsfw: boolean;
  handler?: EntryPointCommandHandlerType;
}

/** Where a command lives and what its application may do. */
export interface CommandContext {
  scope: 'global' | 'guild';
  /** The application's flags; EMBEDDED (1 << 17) allows PRIMARY_ENTRY_POINT. */
  applicationFlags: number;
}
