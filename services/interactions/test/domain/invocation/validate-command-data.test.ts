import { validateCommandData, type TargetLookups } from '../../../src/domain/invocation';
import {
  COMMAND,
  commandOf,
  errorsIn,
  leavesAt,
  GUILD,
  OTHER_USER,
  readBody,
  treeOf,
  user,
} from './fixtures';

const MESSAGE_ID = '1600000000000000001';
const lookups = (overrides: Partial<TargetLookups> = {}): TargetLookups => ({
  users: { [OTHER_USER]: user(OTHER_USER) },
  members: { [OTHER_USER]: { roles: [], nick: 'o', permissions: '0' } },
  roles: {},
  channels: {},
  targetMessage: null,
  inGuild: true,
  ...overrides,
});
const userCommand = commandOf({ type: 2, name: 'Inspect', description: '' });
const messageCommand = commandOf({ type: 3, name: 'Quote', description: '' });

describe('validateCommandData', () => {
  it("builds a CHAT_INPUT command's data with its options, resolved and guild_id", () => {
    const command = commandOf({ options: [{ type: 6, name: 'who', description: 'd' }] }, GUILD);
    const data = validateCommandData(
      2,
      readBody({}, { options: [{ name: 'who', value: OTHER_USER }] }).data,
      command,
      lookups(),
    );
    expect(data).toEqual({
      id: COMMAND,
      name: 'ping',
      type: 1,
      resolved: {
        users: { [OTHER_USER]: user(OTHER_USER) },
        members: { [OTHER_USER]: { roles: [], nick: 'o', permissions: '0' } },
      },
      options: [{ name: 'who', type: 6, value: OTHER_USER }],
      guild_id: GUILD,
    });
  });

  it('gives a USER command its target as user and member', () => {
    const data = validateCommandData(
      2,
      readBody({}, { type: 2, name: 'Inspect', target_id: OTHER_USER }).data,
      userCommand,
      lookups(),
    );
    expect(data).toEqual({
      id: COMMAND,
      name: 'Inspect',
      type: 2,
      resolved: {
        users: { [OTHER_USER]: user(OTHER_USER) },
        members: { [OTHER_USER]: { roles: [], nick: 'o', permissions: '0' } },
      },
      target_id: OTHER_USER,
    });
    // Outside a guild a user is enough.
    const dm = validateCommandData(
      2,
      readBody({}, { type: 2, name: 'Inspect', target_id: OTHER_USER }).data,
      userCommand,
      lookups({ members: {}, inGuild: false }),
    );
    expect(dm.resolved).toEqual({ users: { [OTHER_USER]: user(OTHER_USER) } });
  });

  it('needs a USER target that exists, and is a member in a guild', () => {
    const at = (l: TargetLookups) =>
      leavesAt(
        treeOf(() =>
          validateCommandData(
            2,
            readBody({}, { type: 2, name: 'Inspect', target_id: OTHER_USER }).data,
            userCommand,
            l,
          ),
        ),
        ['data', 'target_id'],
      );
    expect(at(lookups({ users: {} }))).toEqual([
      { code: 'INTERACTION_APPLICATION_COMMAND_INVALID', message: 'Unknown user' },
    ]);
    expect(at(lookups({ members: {} }))).toEqual([
      { code: 'INTERACTION_APPLICATION_COMMAND_INVALID', message: 'Unknown member' },
    ]);
  });

  it('gives a MESSAGE command its target message, and refuses one it cannot see', () => {
    const message = { id: MESSAGE_ID, content: 'hi', type: 20 };
    const data = validateCommandData(
      2,
      readBody({}, { type: 3, name: 'Quote', target_id: MESSAGE_ID }).data,
      messageCommand,
      lookups({ targetMessage: message }),
    );
    expect(data).toMatchObject({
      type: 3,
      target_id: MESSAGE_ID,
      resolved: { messages: { [MESSAGE_ID]: message } },
    });
    const tree = treeOf(() =>
      validateCommandData(
        2,
        readBody({}, { type: 3, name: 'Quote', target_id: MESSAGE_ID }).data,
        messageCommand,
        lookups(),
      ),
    );
    expect(errorsIn(tree)).toEqual([
      { path: 'data.target_id', code: 'INTERACTION_APPLICATION_COMMAND_INVALID' },
    ]);
  });

  it('requires target_id for context menus and refuses it and options elsewhere', () => {
    const errors = (data: Record<string, unknown>, command = userCommand) =>
      errorsIn(treeOf(() => validateCommandData(2, readBody({}, data).data, command, lookups())));
    expect(errors({ type: 2, name: 'Inspect' })).toEqual([
      { path: 'data.target_id', code: 'BASE_TYPE_REQUIRED' },
    ]);
    expect(
      errors({ type: 2, name: 'Inspect', target_id: OTHER_USER, options: [{ name: 'x', value: 1 }] }),
    ).toEqual([{ path: 'data.options', code: 'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID' }]);
    expect(errors({ target_id: OTHER_USER }, commandOf())).toEqual([
      { path: 'data.target_id', code: 'INTERACTION_APPLICATION_COMMAND_INVALID' },
    ]);
    const entryPoint = commandOf({ type: 4, name: 'launch', handler: 2 });
    expect(errors({ type: 4, name: 'launch', options: [{ name: 'x', value: 1 }] }, entryPoint)).toEqual([
      { path: 'data.options', code: 'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID' },
    ]);
    expect(
      validateCommandData(2, readBody({}, { type: 4, name: 'launch' }).data, entryPoint, lookups()),
    ).toEqual({
      id: COMMAND,
      name: 'launch',
      type: 4,
    });
  });
});
