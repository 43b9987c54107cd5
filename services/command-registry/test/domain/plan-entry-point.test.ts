import { LAUNCH_COMMAND } from '../../src/domain/launch-command';
import { planEntryPoint } from '../../src/domain/plan-entry-point';
import { validateCommand } from '../../src/domain/validate-command';
import { counter, GLOBAL_EMBEDDED } from './helpers';

const launch = validateCommand(LAUNCH_COMMAND, GLOBAL_EMBEDDED);

describe('planEntryPoint', () => {
  it('creates the entry point when the app has none, not counted toward the quota', () => {
    const plan = planEntryPoint(undefined, launch, counter());
    expect(plan.created).toBe(true);
    expect(plan.command).toEqual({ id: '1000', version: '1000', command: launch });
    expect(plan.change).toMatchObject({ created: [plan.command], createsCounted: 0, events: [] });
  });

  it('keeps the one the app has, whatever its name', () => {
    const existing = { id: '5', version: '6', command: { ...launch, name: 'Play' } };
    expect(planEntryPoint(existing, launch, counter())).toEqual({
      command: existing,
      created: false,
      change: null,
    });
  });
});
