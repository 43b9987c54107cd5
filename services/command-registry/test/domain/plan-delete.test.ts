import { UnknownCommandError } from '../../src/domain/command-errors';
import { planDelete } from '../../src/domain/plan-delete';
import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, GLOBAL_EMBEDDED, slash } from './helpers';

describe('planDelete', () => {
  it('refuses an unknown command with 10063', () => {
    expect(() => planDelete(undefined)).toThrow(UnknownCommandError);
  });

  it('deletes the command and announces it, the entry point included', () => {
    for (const body of [slash(), { type: 4, name: 'Launch', handler: 2 }]) {
      const current = {
        id: '7',
        version: '9',
        command: validateCommand(body, body.type ? GLOBAL_EMBEDDED : GLOBAL),
      };
      expect(planDelete(current)).toEqual({
        deleted: ['7'],
        updated: [],
        created: [],
        createsCounted: 0,
        events: [{ kind: 'deleted', command: current }],
      });
    }
  });
});
