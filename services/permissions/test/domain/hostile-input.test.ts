import { longestBigIntText } from '@acs/testing';
import { validateCommandPermissions } from '../../src/domain/command-permissions/validate-command-permissions';
import { validateCreateChannel } from '../../src/domain/validate-create-channel';
import { validateCreateGuild } from '../../src/domain/validate-create-guild';
import { validatePutBotMember } from '../../src/domain/validate-put-bot-member';
import { validatePutMember } from '../../src/domain/validate-put-member';
import { validateCreateRole, validateUpdateRole } from '../../src/domain/validate-role-body';
import { formErrorsOf } from '../support/errors';

// The admin bodies and RPC fields this service reads, fed input sized to hurt or that no
// PostgreSQL column can hold: refused with 50035 at the field, cheaply.

const MEGABYTE_OF_NINES = '9'.repeat(1_000_000);
const TOO_LARGE_ID = '9223372036854775808';

/** The inner codes at `path` of the 50035 tree `run` throws. */
function codesAt(run: () => unknown, path: (string | number)[]): string[] {
  let node: unknown = formErrorsOf(run);
  for (const segment of path) node = (node as Record<string, unknown> | undefined)?.[String(segment)];
  return ((node as { _errors?: { code: string }[] } | undefined)?._errors ?? []).map((e) => e.code);
}

describe('permission bit sets of a megabyte of digits', () => {
  it('are NUMBER_TYPE_MAX before any BigInt work, in roles and overwrites', async () => {
    const longest = await longestBigIntText(() => {
      expect(
        codesAt(() => validateCreateRole({ name: 'r', permissions: MEGABYTE_OF_NINES }), ['permissions']),
      ).toEqual(['NUMBER_TYPE_MAX']);
      expect(
        codesAt(() => validateUpdateRole({ permissions: MEGABYTE_OF_NINES }, true), ['permissions']),
      ).toEqual(['NUMBER_TYPE_MAX']);
      expect(
        codesAt(
          () =>
            validateCreateChannel({
              name: 'c',
              type: 0,
              permission_overwrites: [
                { id: '1', type: 0, allow: MEGABYTE_OF_NINES, deny: MEGABYTE_OF_NINES },
              ],
            }),
          ['permission_overwrites', 0, 'deny'],
        ),
      ).toEqual(['NUMBER_TYPE_MAX']);
      expect(
        codesAt(
          () =>
            validatePutBotMember({
              guild_id: '1',
              application_id: '2',
              application_name: 'App',
              permissions: MEGABYTE_OF_NINES,
            }),
          ['permissions'],
        ),
      ).toEqual(['NUMBER_TYPE_MAX']);
    });
    // BigInt of these digits alone takes 100-200 ms; a 64-bit set has at most 20 digits.
    expect(longest).toBeLessThanOrEqual(20);
  });

  it('take up to 64 bits, masked to the known flags', () => {
    expect(
      validateCreateRole({ name: 'r', permissions: '18446744073709551615' }).permissions,
    ).toBeGreaterThan(0n);
    expect(
      codesAt(() => validateCreateRole({ name: 'r', permissions: '18446744073709551616' }), ['permissions']),
    ).toEqual(['NUMBER_TYPE_MAX']);
  });
});

describe('ids above 2^63 - 1', () => {
  it('are NUMBER_TYPE_MAX wherever a body names one', () => {
    expect(codesAt(() => validateCreateGuild({ name: 'gg', owner_id: TOO_LARGE_ID }), ['owner_id'])).toEqual([
      'NUMBER_TYPE_MAX',
    ]);
    expect(codesAt(() => validatePutMember({ roles: ['1', TOO_LARGE_ID] }), ['roles', 1])).toEqual([
      'NUMBER_TYPE_MAX',
    ]);
    expect(
      codesAt(
        () => validateCreateChannel({ name: 'c', type: 0, parent_id: '18446744073709551615' }),
        ['parent_id'],
      ),
    ).toEqual(['NUMBER_TYPE_MAX']);
    expect(
      codesAt(
        () =>
          validateCreateChannel({
            name: 'c',
            type: 0,
            permission_overwrites: [{ id: TOO_LARGE_ID, type: 0 }],
          }),
        ['permission_overwrites', 0, 'id'],
      ),
    ).toEqual(['NUMBER_TYPE_MAX']);
    expect(
      codesAt(
        () => validateCommandPermissions({ permissions: [{ id: TOO_LARGE_ID, type: 1, permission: true }] }),
        ['permissions', 0, 'id'],
      ),
    ).toEqual(['NUMBER_TYPE_MAX']);
    expect(
      codesAt(
        () =>
          validatePutBotMember({
            guild_id: TOO_LARGE_ID,
            application_id: '2',
            application_name: 'App',
            permissions: '0',
          }),
        ['guild_id'],
      ),
    ).toEqual(['NUMBER_TYPE_MAX']);
  });
});

describe('U+0000', () => {
  it('is refused in every text field', () => {
    const NUL = ['STRING_TYPE_NUL_CHARACTER'];
    expect(codesAt(() => validateCreateGuild({ name: 'g\u0000g', owner_id: '1' }), ['name'])).toEqual(NUL);
    expect(codesAt(() => validateCreateRole({ name: '\u0000', permissions: '0' }), ['name'])).toEqual(NUL);
    expect(codesAt(() => validateUpdateRole({ name: 'a\u0000' }, false), ['name'])).toEqual(NUL);
    expect(codesAt(() => validatePutMember({ nick: 'n\u0000' }), ['nick'])).toEqual(NUL);
    expect(codesAt(() => validateCreateChannel({ name: 'c\u0000', type: 0 }), ['name'])).toEqual(NUL);
    expect(
      codesAt(
        () =>
          validatePutBotMember({
            guild_id: '1',
            application_id: '2',
            application_name: 'A\u0000',
            permissions: '0',
          }),
        ['application_name'],
      ),
    ).toEqual(NUL);
  });

  it("cuts a bot's long name to a role name's length without spreading all of it", () => {
    const input = validatePutBotMember({
      guild_id: '1',
      application_id: '2',
      application_name: `  ${'😀'.repeat(500_000)}`,
      permissions: '0',
    });
    expect(input.roleName).toBe('😀'.repeat(100));
  });
});
