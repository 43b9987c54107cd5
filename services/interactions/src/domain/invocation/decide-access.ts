import { MissingPermissionsError } from '@acs/discord-errors';
import {
  ChannelType,
  CommandType,
  IntegrationType,
  InteractionContext,
  Permission,
} from '../interaction-enums';
import { checkGuildPresence } from './check-guild-presence';
import type { CommandSpec } from './command-spec';
import { hasPermission } from './has-permission';
import type { InvocationParties, InvocationPlace } from './invocation-facts';
import { InvocationErrorCode, InvocationErrorMessage, throwInvocationError } from './invocation-errors';

/** Who may run the command here, and in which context. */
export interface Access {
  /** 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL. */
  context: number;
  /** `authorizing_integration_owners`: "0" → guild id (or "0" in the bot DM), "1" → the user's id. */
  authorizingIntegrationOwners: Record<string, string>;
  /** Only the user's install authorizes it: five follow-ups at most (A6, 40094). */
  userInstallOnly: boolean;
}

/** What the decision reads. */
export interface AccessInput {
  command: CommandSpec;
  parties: InvocationParties;
  place: InvocationPlace;
  applicationId: string;
  userId: string;
  /** Null outside a guild. */
  guildId: string | null;
}

/**
 * The context of a place: a guild's channel is GUILD; the DM with the application's bot
 * (whose user id is the application id) is BOT_DM; any other DM or group DM is PRIVATE_CHANNEL.
 */
export function contextOf(guildId: string | null, place: InvocationPlace, applicationId: string): number {
  if (guildId !== null) return InteractionContext.GUILD;
  const isBotDm = place.channel.type === ChannelType.DM && place.recipientIds.includes(applicationId);
  return isBotDm ? InteractionContext.BOT_DM : InteractionContext.PRIVATE_CHANNEL;
}

/**
 * Where a command may run. A guild command runs in its guild only. A global command's
 * `contexts`, when it sets none (commands made before contexts existed), are every
 * context, less the bot DM when `dm_permission` is false (FACTS §1: contexts default to
 * all three for new commands).
 */
export function allowedContextsOf(command: CommandSpec): number[] {
  if (command.guildId !== null) return [InteractionContext.GUILD];
  if (command.contexts !== null) return command.contexts;
  const all = [InteractionContext.GUILD, InteractionContext.BOT_DM, InteractionContext.PRIVATE_CHANNEL];
  return command.dmPermission ? all : all.filter((c) => c !== InteractionContext.BOT_DM);
}

/**
 * `authorizing_integration_owners` (A1): a key only where the application is installed for
 * that context, the context supports it and the command's `integration_types` include it.
 * A guild install counts in its guild and in the bot DM (value "0" there); a user install
 * counts everywhere the user is.
 */
export function authorizingOwnersOf(input: AccessInput, context: number): Record<string, string> {
  const { command, parties } = input;
  const types =
    command.guildId !== null ? [IntegrationType.GUILD_INSTALL] : (command.integrationTypes ?? [0]);
  const owners: Record<string, string> = {};
  if (types.includes(IntegrationType.GUILD_INSTALL)) {
    if (context === InteractionContext.GUILD && parties.guildInstalled && input.guildId !== null) {
      owners[String(IntegrationType.GUILD_INSTALL)] = input.guildId;
    } else if (
      context === InteractionContext.BOT_DM &&
      parties.integrationTypes.includes(IntegrationType.GUILD_INSTALL)
    ) {
      owners[String(IntegrationType.GUILD_INSTALL)] = '0';
    }
  }
  if (types.includes(IntegrationType.USER_INSTALL) && parties.userInstalled) {
    owners[String(IntegrationType.USER_INSTALL)] = input.userId;
  }
  return owners;
}

/**
 * Whether the user may run the command here; every refusal is a 50035 at `data` (the
 * command is not visible to them here) except two: a guild channel the user cannot see
 * (403 / 50001) and a USER command where they cannot send messages (403 / 50013). The
 * first rule is the one every interaction in a guild obeys (checkGuildPresence).
 */
export function decideAccess(input: AccessInput): Access {
  const { command, place } = input;
  checkGuildPresence(input.guildId, place);
  const context = contextOf(input.guildId, place, input.applicationId);
  if (!allowedContextsOf(command).includes(context)) {
    throwInvocationError(['data'], InvocationErrorCode.INVALID, InvocationErrorMessage.CONTEXT);
  }
  const owners = authorizingOwnersOf(input, context);
  if (Object.keys(owners).length === 0) {
    throwInvocationError(['data'], InvocationErrorCode.INVALID, InvocationErrorMessage.NOT_INSTALLED);
  }
  if (!place.allowed) {
    throwInvocationError(['data'], InvocationErrorCode.INVALID, InvocationErrorMessage.NO_PERMISSION);
  }
  if (command.nsfw && place.channel.nsfw !== true) {
    throwInvocationError(['data'], InvocationErrorCode.INVALID, InvocationErrorMessage.NSFW);
  }
  if (command.type === CommandType.USER && !hasPermission(place.userPermissions, Permission.SEND_MESSAGES)) {
    throw new MissingPermissionsError();
  }
  const keys = Object.keys(owners);
  return {
    context,
    authorizingIntegrationOwners: owners,
    userInstallOnly: keys.length === 1 && keys[0] === String(IntegrationType.USER_INSTALL),
  };
}
