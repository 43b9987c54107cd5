import { checkOverwrite } from '../../src/domain/check-overwrite';
import { EntryPointBulkRemovalError, MaxDailyCreatesError } from '../../src/domain/command-errors';
import { planBulkWrite } from '../../src/domain/plan-bulk-write';
import { planOverwrite } from '../../src/domain/plan-overwrite';
import { validateBulk } from '../../src/domain/validate-bulk';
import { counter, GLOBAL, GLOBAL_EMBEDDED } from './helpers';

const scope = validateBulk(
  [
    { name: 'ping', description: 'Pong' },
    { name: 'echo', description: 'Echo' },
    { type: 2, name: 'Inspect' },
  ],
  GLOBAL,
).map((item, i) => ({ id: String(100 + i), version: String(200 + i), command: item.command }));

describe('planBulkWrite', () => {
  it('deletes, renames, edits and creates; deletions are announced before renames', () => {
    const items = validateBulk(
      [
        { id: '100', name: 'pong', description: 'Pong' },
        { name: 'echo', description: 'Echo, edited' },
        { name: 'fresh', description: 'New' },
      ],
      GLOBAL,
    );
    const plan = planBulkWrite(planOverwrite(scope, items), 200, counter());
    const [pong, echo, fresh] = items.map((i) => i.command);
    expect(plan.commands).toEqual([
      { id: '100', version: '1000', command: pong },
      { id: '101', version: '1001', command: echo },
      { id: '1002', version: '1002', command: fresh },
    ]);
    expect(plan.change).toEqual({
      deleted: ['102'],
      updated: [
        { id: '100', version: '1000', command: pong, renamed: true },
        { id: '101', version: '1001', command: echo, renamed: false },
      ],
      created: [{ id: '1002', version: '1002', command: fresh }],
      createsCounted: 1,
      events: [
        { kind: 'deleted', command: scope[2] },
        { kind: 'renamed', command: plan.commands[0], previousName: 'ping' },
      ],
    });
  });

  it('writes nothing for the stored set, and answers the stored commands in the body order', () => {
    const items = validateBulk(
      [
        { type: 2, name: 'Inspect' },
        { name: 'echo', description: 'Echo' },
        { name: 'ping', description: 'Pong' },
      ],
      GLOBAL,
    );
    const plan = planBulkWrite(planOverwrite(scope, items), 0, counter());
    expect(plan).toEqual({ commands: [scope[2], scope[1], scope[0]], change: null });
  });

  it('counts only new commands against the quota (30034 past what remains)', () => {
    const items = validateBulk(
      [
        { name: 'ping', description: 'Pong' },
        { name: 'a', description: 'A' },
        { name: 'b', description: 'B' },
      ],
      GLOBAL,
    );
    const pairing = planOverwrite(scope, items);
    expect(planBulkWrite(pairing, 2, counter()).change?.createsCounted).toBe(2);
    expect(() => planBulkWrite(pairing, 1, counter())).toThrow(MaxDailyCreatesError);
    expect(() => checkOverwrite(pairing, 1)).toThrow(MaxDailyCreatesError);
  });

  it('refuses to drop the entry point with 50240, before the quota, in the PUT and its dry run alike', () => {
    const withEntryPoint = [
      ...scope,
      {
        id: '103',
        version: '203',
        command: validateBulk([{ type: 4, name: 'Launch', handler: 2 }], GLOBAL_EMBEDDED)[0]!.command,
      },
    ];
    const items = validateBulk([{ name: 'new', description: 'New' }], GLOBAL);
    const pairing = planOverwrite(withEntryPoint, items);
    expect(() => planBulkWrite(pairing, 0, counter())).toThrow(EntryPointBulkRemovalError);
    expect(() => checkOverwrite(pairing, 0)).toThrow(
      expect.objectContaining({ httpStatus: 400, code: 50240 }),
    );
  });
});
