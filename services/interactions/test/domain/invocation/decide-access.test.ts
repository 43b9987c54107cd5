import { MissingAccessError, MissingPermissionsError } from '@acs/discord-errors';
import { allowedContextsOf, decideAccess, type AccessInput } from '../../../src/domain/invocation';
import {
  APP,
  commandOf,
  dmPlaceOf,
  errorOf,
  GUILD,
  leavesAt,
  OTHER_USER,
  partiesOf,
  placeOf,
  treeOf,
  USER,
} from './fixtures';

const input = (overrides: Partial<AccessInput> = {}): AccessInput => ({
  command: commandOf(),
  parties: partiesOf(),
  place: placeOf(),
  applicationId: APP,
  userId: USER,
  guildId: GUILD,
  ...overrides,
});

const refusal = (overrides: Partial<AccessInput>) =>
  leavesAt(
    treeOf(() => decideAccess(input(overrides))),
    ['data'],
  );

describe('decideAccess', () => {
  it('lets a guild-installed command run in its guild, authorized by the guild', () => {
    expect(decideAccess(input())).toEqual({
      context: 0,
      authorizingIntegrationOwners: { '0': GUILD },
      userInstallOnly: false,
    });
  });

  it('tells the bot DM (context 1) from other DMs and group DMs (context 2)', () => {
    const userCommand = commandOf({ integration_types: [0, 1] });
    const parties = partiesOf({ userInstalled: true, guildInstalled: false });
    expect(
      decideAccess(input({ guildId: null, command: userCommand, parties, place: dmPlaceOf([USER, APP]) })),
    ).toEqual({ context: 1, authorizingIntegrationOwners: { '0': '0', '1': USER }, userInstallOnly: false });
    expect(
      decideAccess(
        input({ guildId: null, command: userCommand, parties, place: dmPlaceOf([USER, OTHER_USER]) }),
      ),
    ).toEqual({ context: 2, authorizingIntegrationOwners: { '1': USER }, userInstallOnly: true });
    expect(
      decideAccess(
        input({ guildId: null, command: userCommand, parties, place: dmPlaceOf([USER, OTHER_USER, APP], 3) }),
      ).context,
    ).toBe(2);
  });

  it('keeps a command to its contexts: INVALID at data when this one is not among them', () => {
    const guildOnly = commandOf({ contexts: [0], integration_types: [0, 1] });
    const parties = partiesOf({ userInstalled: true });
    expect(refusal({ guildId: null, command: guildOnly, parties, place: dmPlaceOf([USER, APP]) })).toEqual([
      {
        code: 'INTERACTION_APPLICATION_COMMAND_INVALID',
        message: 'This command cannot be used in this context',
      },
    ]);
    // Without contexts: every context, less the bot DM when dm_permission is false.
    expect(allowedContextsOf(commandOf())).toEqual([0, 1, 2]);
    expect(allowedContextsOf(commandOf({ dm_permission: false }))).toEqual([0, 2]);
    // A guild command runs in its guild only.
    expect(allowedContextsOf(commandOf({}, GUILD))).toEqual([0]);
  });

  it('needs an install the command accepts: the guild install for "0", the user install for "1"', () => {
    // Installed nowhere here.
    expect(refusal({ parties: partiesOf({ guildInstalled: false }) })?.[0]).toEqual({
      code: 'INTERACTION_APPLICATION_COMMAND_INVALID',
      message: 'This application is not installed where this command can be used',
    });
    // Installed by the user, but the command is for guild installs only.
    expect(refusal({ parties: partiesOf({ guildInstalled: false, userInstalled: true }) })?.[0]?.code).toBe(
      'INTERACTION_APPLICATION_COMMAND_INVALID',
    );
    // A user-install command in a guild the app is not in: the user authorizes it alone.
    const userCommand = commandOf({ integration_types: [1] });
    expect(
      decideAccess(
        input({ command: userCommand, parties: partiesOf({ guildInstalled: false, userInstalled: true }) }),
      ),
    ).toEqual({ context: 0, authorizingIntegrationOwners: { '1': USER }, userInstallOnly: true });
    // Both installs, both accepted: both owners, so not user-install-only.
    expect(
      decideAccess(
        input({
          command: commandOf({ integration_types: [0, 1] }),
          parties: partiesOf({ userInstalled: true }),
        }),
      ),
    ).toMatchObject({ authorizingIntegrationOwners: { '0': GUILD, '1': USER }, userInstallOnly: false });
    // A guild install never reaches a private channel.
    expect(refusal({ guildId: null, place: dmPlaceOf([USER, OTHER_USER]) })?.[0]?.message).toBe(
      'This application is not installed where this command can be used',
    );
  });

  it("follows permissions' decision in a guild", () => {
    expect(refusal({ place: placeOf({ allowed: false, reason: 'role' }) })).toEqual([
      {
        code: 'INTERACTION_APPLICATION_COMMAND_INVALID',
        message: 'You do not have permission to use this command here',
      },
    ]);
  });

  it('keeps an nsfw command to nsfw channels', () => {
    const nsfw = commandOf({ nsfw: true });
    expect(refusal({ command: nsfw })?.[0]?.message).toBe(
      'This command can only be used in age-restricted channels',
    );
    const place = placeOf({ channel: { id: '1', type: 0, nsfw: true } });
    expect(decideAccess(input({ command: nsfw, place })).context).toBe(0);
  });

  it('refuses a USER command without SEND_MESSAGES with 403 / 50013', () => {
    const command = commandOf({ type: 2, name: 'Inspect', description: '' });
    const viewOnly = (1n << 10n).toString();
    const error = errorOf(() =>
      decideAccess(input({ command, place: placeOf({ userPermissions: viewOnly }) })),
    );
    expect(error).toBeInstanceOf(MissingPermissionsError);
    expect(error.toBody()).toEqual({ code: 50013, message: 'Missing Permissions' });
  });

  it('refuses a non-member first, before the context and install checks tell anything of the guild', () => {
    const nonMember = placeOf({ member: null, userPermissions: '0', allowed: false, reason: 'not_member' });
    const noPermission = [
      {
        code: 'INTERACTION_APPLICATION_COMMAND_INVALID',
        message: 'You do not have permission to use this command here',
      },
    ];
    expect(refusal({ place: nonMember })).toEqual(noPermission);
    // Installed nowhere here, or a context the command does not take: still the same answer.
    expect(refusal({ place: nonMember, parties: partiesOf({ guildInstalled: false }) })).toEqual(
      noPermission,
    );
    expect(refusal({ place: nonMember, command: commandOf({ contexts: [1] }) })).toEqual(noPermission);
    // Even with a decision that would allow it (a peer that erred): no member, no command.
    expect(refusal({ place: placeOf({ member: null, allowed: true }) })).toEqual(noPermission);
  });

  it('refuses a guild channel the member cannot see with 403 / 50001', () => {
    const error = errorOf(() => decideAccess(input({ place: placeOf({ userPermissions: '2048' }) })));
    expect(error).toBeInstanceOf(MissingAccessError);
    expect(error.httpStatus).toBe(403);
  });
});
