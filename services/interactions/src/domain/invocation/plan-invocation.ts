import { CommandType, EntryPointHandler } from '../interaction-enums';
import type { CommandSpec } from './command-spec';
import { decideAccess, type Access } from './decide-access';
import type { InvocationParties, InvocationPlace, JsonRecord } from './invocation-facts';
import type { InvocationBody } from './read-invocation-body';
import { validateCommandData, type CommandData } from './validate-command-data';

/** How an interaction reaches its handler. */
export type Delivery =
  /** A signed POST to the application's interactions endpoint. */
  | 'http'
  /** INTERACTION_CREATE on its bot's gateway session (through the dispatcher). */
  | 'gateway'
  /** An entry point with handler 2: Discord launches the Activity, no application is asked. */
  | 'activity';

/** Everything an invocation is judged with, once the peers have answered. */
export interface PlanInput {
  body: InvocationBody;
  userId: string;
  command: CommandSpec;
  parties: InvocationParties;
  place: InvocationPlace;
  /** The message a MESSAGE command targets, when this channel holds it and the user sees it. */
  targetMessage: JsonRecord | null;
}

/** What is decided about a valid invocation. */
export interface InvocationPlan {
  access: Access;
  data: CommandData;
  delivery: Delivery;
}

/**
 * Judges an invocation whose command is the client's (checkCommandIdentity): who may run
 * it here (decideAccess), what it names (validateCommandData), and how it is delivered:
 * gateway and HTTP are exclusive as on Discord (A7.4); an entry point with handler 2 is
 * Discord's to handle.
 */
export function planInvocation(input: PlanInput): InvocationPlan {
  const { body, command, parties, place } = input;
  const access = decideAccess({
    command,
    parties,
    place,
    applicationId: body.applicationId,
    userId: input.userId,
    guildId: body.guildId,
  });
  const data = validateCommandData(body.type, body.data, command, {
    users: parties.resolvedUsers,
    members: place.resolvedMembers,
    roles: place.resolvedRoles,
    channels: place.resolvedChannels,
    targetMessage: input.targetMessage,
    inGuild: body.guildId !== null,
  });
  const isLaunch =
    command.type === CommandType.PRIMARY_ENTRY_POINT &&
    command.handler === EntryPointHandler.DISCORD_LAUNCH_ACTIVITY;
  const delivery: Delivery = isLaunch
    ? 'activity'
    : parties.interactionsEndpointUrl !== null
      ? 'http'
      : 'gateway';
  return { access, data, delivery };
}
