import { CommandNameTakenError, UnknownCommandError } from '../../src/domain/command-errors';
import { planEdit } from '../../src/domain/plan-edit';
import { validateCommand } from '../../src/domain/validate-command';
import { counter, GLOBAL, slash } from './helpers';

const current = { id: '7', version: '8', command: validateCommand(slash(), GLOBAL) };
const renamed = validateCommand(slash({ name: 'pong' }), GLOBAL);

describe('planEdit', () => {
  it('refuses an unknown command with 10063', () => {
    expect(() =>
      planEdit({ current: undefined, next: undefined, nameHolderId: undefined }, counter()),
    ).toThrow(UnknownCommandError);
  });

  it('changes nothing for an edit equal to the stored command', () => {
    const next = validateCommand(slash(), GLOBAL);
    expect(planEdit({ current, next, nameHolderId: '7' }, counter())).toEqual({
      command: current,
      change: null,
    });
  });

  it('gives an edit a new version and keeps named_version when the name stays: no event', () => {
    const next = validateCommand(slash({ description: 'Other' }), GLOBAL);
    const plan = planEdit({ current, next, nameHolderId: '7' }, counter());
    expect(plan.command).toEqual({ id: '7', version: '1000', command: next });
    expect(plan.change).toEqual({
      deleted: [],
      updated: [{ id: '7', version: '1000', command: next, renamed: false }],
      created: [],
      createsCounted: 0,
      events: [],
    });
  });

  it('announces a rename with the new name and version and the previous name', () => {
    const plan = planEdit({ current, next: renamed, nameHolderId: undefined }, counter());
    expect(plan.change?.updated).toEqual([{ id: '7', version: '1000', command: renamed, renamed: true }]);
    expect(plan.change?.events).toEqual([
      { kind: 'renamed', command: { id: '7', version: '1000', command: renamed }, previousName: 'ping' },
    ]);
  });

  it('refuses a rename onto the name another command holds with 40041', () => {
    const run = () => planEdit({ current, next: renamed, nameHolderId: '9' }, counter());
    expect(run).toThrow(CommandNameTakenError);
    expect(run).toThrow(expect.objectContaining({ httpStatus: 400, code: 40041 }));
  });
});
