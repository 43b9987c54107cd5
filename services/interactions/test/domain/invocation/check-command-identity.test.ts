import { checkCommandIdentity } from '../../../src/domain/invocation';
import { commandOf, errorOf, leavesAt, readBody, treeOf } from './fixtures';

describe('checkCommandIdentity (read-repair, A9)', () => {
  it('passes the command the client knows', () => {
    const command = commandOf();
    expect(checkCommandIdentity(2, readBody().data, command)).toBe(command);
    // A client that sends no type: the command's own is assumed.
    expect(checkCommandIdentity(2, readBody({}, { type: null }).data, command)).toBe(command);
  });

  it('refuses an unknown command at data.id', () => {
    expect(treeOf(() => checkCommandIdentity(2, readBody().data, undefined))).toEqual({
      data: {
        id: {
          _errors: [
            { code: 'INTERACTION_APPLICATION_COMMAND_INVALID', message: 'Unknown application command' },
          ],
        },
      },
    });
  });

  it('refuses another version with INVALID_VERSION at data, as Discord answers', () => {
    const error = errorOf(() => checkCommandIdentity(2, readBody({}, { version: '1' }).data, commandOf()));
    expect(error.httpStatus).toBe(400);
    expect(error.toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        data: {
          _errors: [
            {
              code: 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION',
              message: 'This command is outdated, please try again in a few minutes',
            },
          ],
        },
      },
    });
  });

  it('refuses another name or type with INVALID at data (the client reloads on it too)', () => {
    for (const data of [{ name: 'pong' }, { type: 2 }]) {
      expect(treeOf(() => checkCommandIdentity(2, readBody({}, data).data, commandOf()))).toEqual({
        data: { _errors: [{ code: 'INTERACTION_APPLICATION_COMMAND_INVALID', message: expect.any(String) }] },
      });
    }
  });

  it('refuses an autocomplete of a command that is not CHAT_INPUT at type', () => {
    const command = commandOf({ type: 2, name: 'Inspect', description: '' });
    const tree = treeOf(() =>
      checkCommandIdentity(4, readBody({}, { type: 2, name: 'Inspect' }).data, command),
    );
    expect(leavesAt(tree, ['type'])[0]?.code).toBe('INTERACTION_APPLICATION_COMMAND_INVALID');
  });
});
