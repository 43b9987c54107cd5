import { mergeCommandPatch } from '../../src/domain/merge-command-patch';
import { validateCommand } from '../../src/domain/validate-command';
import { GLOBAL, commandErrors, oneError, slash } from './helpers';

describe('mergeCommandPatch', () => {
  const stored = validateCommand(slash({ default_member_permissions: '8', nsfw: true }), GLOBAL);

  it('lays the patch over the stored command, so untouched fields stay', () => {
    const merged = validateCommand(mergeCommandPatch(stored, { description: 'New text' }), GLOBAL);
    expect(merged).toMatchObject({
      name: 'ping',
      description: 'New text',
      default_member_permissions: '8',
      nsfw: true,
    });
  });

  it('resets a field sent as null to its default', () => {
    expect(
      validateCommand(mergeCommandPatch(stored, { default_member_permissions: null }), GLOBAL)
        .default_member_permissions,
    ).toBeNull();
  });

  it('keeps the stored type', () => {
    expect(validateCommand(mergeCommandPatch(stored, { type: 2 }), GLOBAL).type).toBe(1);
  });

  it('passes a non-object patch through for validation to reject', () => {
    expect(commandErrors(mergeCommandPatch(stored, [1]))).toEqual(oneError([], 'MODEL_TYPE_CONVERT'));
  });
});
