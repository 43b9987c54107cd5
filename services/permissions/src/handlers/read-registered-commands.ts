import type { permissions } from '@acs/protos';
import { readPathSnowflake } from '@acs/discord-errors';
import { addNulError, FormErrors, hasNul, requireBitSet } from '@acs/validation';
import type { RegisteredCommand } from '../domain/command-permissions/registered-command';

/**
 * The request's commands, as its caller got them from command-registry, by id (ids are
 * snowflakes, unique across applications), checked like any RPC field (ids fit a bigint,
 * the bit set is bounded before BigInt, no U+0000 in the name that a PUT stores): 50035
 * at `field` (`commands` unless said) otherwise. An empty `named_version` lets the name alone decide.
 */
export function readRegisteredCommands(
  commands: readonly permissions.RegisteredCommand__Output[],
  field = 'commands',
): Map<string, RegisteredCommand> {
  return new Map(
    commands.map((c) => {
      const id = readPathSnowflake(field, c.command_id);
      const applicationId = readPathSnowflake(field, c.application_id);
      const defaultMemberPermissions =
        c.default_member_permissions === '' ? null : requireBitSet(field, c.default_member_permissions);
      if (hasNul(c.name)) {
        const errors = new FormErrors();
        addNulError(errors, [field]);
        throw errors.toError();
      }
      return [
        id,
        {
          applicationId,
          id,
          name: c.name,
          version: readPathSnowflake(field, c.version),
          namedVersion: c.named_version === '' ? '0' : readPathSnowflake(field, c.named_version),
          defaultMemberPermissions,
        },
      ];
    }),
  );
}

/** The app's command `commandId` among the registered ones, if the registry has it. */
export function commandOf(
  registered: ReadonlyMap<string, RegisteredCommand>,
  applicationId: string,
  commandId: string,
): RegisteredCommand | undefined {
  const command = registered.get(commandId);
  return command?.applicationId === applicationId ? command : undefined;
}
