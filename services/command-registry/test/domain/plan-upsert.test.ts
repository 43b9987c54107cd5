import { MaxCommandsError, MaxDailyCreatesError } from '../../src/domain/command-errors';
import { planUpsert } from '../../src/domain/plan-upsert';
import { validateCommand } from '../../src/domain/validate-command';
import { counter, GLOBAL, slash } from './helpers';

const ping = validateCommand(slash(), GLOBAL);
const stored = { id: '7', version: '7', command: ping };
const fresh = { existing: undefined, ofType: 0, createsRemaining: 200 };

describe('planUpsert', () => {
  it('creates a new command: id = version, counted toward the quota, no event', () => {
    const plan = planUpsert(fresh, ping, counter());
    expect(plan.created).toBe(true);
    expect(plan.command).toEqual({ id: '1000', version: '1000', command: ping });
    expect(plan.change).toEqual({
      deleted: [],
      updated: [],
      created: [{ id: '1000', version: '1000', command: ping }],
      createsCounted: 1,
      events: [],
    });
  });

  it('changes nothing for a body equal to the stored command, not even the version', () => {
    const plan = planUpsert({ ...fresh, existing: stored }, validateCommand(slash(), GLOBAL), counter());
    expect(plan).toEqual({ command: stored, created: false, change: null });
  });

  it('updates the command of the same name at a new version, keeping its id, with no event', () => {
    const edited = validateCommand(slash({ description: 'Other' }), GLOBAL);
    const plan = planUpsert({ ...fresh, existing: stored }, edited, counter());
    expect(plan.created).toBe(false);
    expect(plan.command).toEqual({ id: '7', version: '1000', command: edited });
    expect(plan.change?.updated).toEqual([{ id: '7', version: '1000', command: edited, renamed: false }]);
    expect(plan.change?.createsCounted).toBe(0);
    expect(plan.change?.events).toEqual([]);
  });

  it('updates whatever the cap and quota: only creates count', () => {
    const edited = validateCommand(slash({ description: 'Other' }), GLOBAL);
    const plan = planUpsert({ existing: stored, ofType: 100, createsRemaining: 0 }, edited, counter());
    expect(plan.change?.updated).toHaveLength(1);
  });

  it("refuses a create past the type's cap (30032) before the quota (30034)", () => {
    expect(() => planUpsert({ ...fresh, ofType: 100, createsRemaining: 0 }, ping, counter())).toThrow(
      MaxCommandsError,
    );
    expect(() => planUpsert({ ...fresh, ofType: 99, createsRemaining: 0 }, ping, counter())).toThrow(
      MaxDailyCreatesError,
    );
  });
});
