import { commandsEqual, changedFields } from '../../src/domain/commands-equal';
import { describeOverwrite, planOverwrite } from '../../src/domain/plan-overwrite';
import { validateBulk } from '../../src/domain/validate-bulk';
import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, slash } from './helpers';

const existing = validateBulk(
  [
    { name: 'ping', description: 'Pong' },
    { name: 'echo', description: 'Echo', options: [{ type: 3, name: 'text', description: 'Text' }] },
    { type: 2, name: 'Inspect' },
  ],
  GLOBAL,
).map((item, i) => ({ id: String(100 + i), command: item.command }));

describe('changedFields', () => {
  it('names the top-level fields that differ, and is empty exactly when commandsEqual holds', () => {
    const command = (overrides: Record<string, unknown>) => validateCommand(slash(overrides), GLOBAL);
    const a = command({ name_localizations: { fr: 'sonde' } });
    const b = command({ description: 'Other', name_localizations: { de: 'sonde' }, nsfw: true });
    expect(changedFields(a, b)).toEqual(['description', 'name_localizations', 'nsfw']);
    expect(changedFields(a, a)).toEqual([]);
    expect(commandsEqual(a, b)).toBe(false);
    expect(commandsEqual(a, command({ name_localizations: { fr: 'sonde' } }))).toBe(true);
  });
});

describe('planOverwrite', () => {
  it('matches by id, then by name and type; a new type is a create and a delete', () => {
    const items = validateBulk(
      [
        { id: '100', name: 'pong', description: 'Pong' },
        { type: 3, name: 'Inspect' },
        { name: 'echo', description: 'Echo', options: [{ type: 3, name: 'text', description: 'Text' }] },
      ],
      GLOBAL,
    );
    const plan = planOverwrite(existing, items);
    expect(plan.isNoop).toBe(false);
    expect(plan.removesEntryPoint).toBe(false);
    expect(describeOverwrite(plan)).toEqual({
      created: [{ name: 'Inspect', type: 3 }],
      updated: [{ id: '100', name: 'pong', type: 1, changed_fields: ['name'] }],
      deleted: [{ id: '102', name: 'Inspect', type: 2 }],
      unchanged: [{ id: '101', name: 'echo', type: 1 }],
    });
  });

  it('is a no-op for the stored set in any order', () => {
    const items = validateBulk(
      [
        { type: 2, name: 'Inspect' },
        { name: 'echo', description: 'Echo', options: [{ type: 3, name: 'text', description: 'Text' }] },
        { name: 'ping', description: 'Pong' },
      ],
      GLOBAL,
    );
    const plan = planOverwrite(existing, items);
    expect(plan.isNoop).toBe(true);
    expect(describeOverwrite(plan).unchanged.map((u) => u.id)).toEqual(['102', '101', '100']);
  });
});
