import { DEFAULT_EVERYONE_PERMISSIONS } from '../../src/domain/limits';
import {
  ALL_PERMISSIONS,
  hasPermissions,
  namePermissions,
  PERMISSION_FLAGS as P,
  PERMISSION_NAMES,
} from '../../src/domain/permission-flags';

describe('permission flags', () => {
  it('names each documented bit, from 1<<0 to 1<<52, 47 being unassigned', () => {
    expect(PERMISSION_NAMES.size).toBe(52);
    expect(PERMISSION_NAMES.get(1n << 5n)).toBe('MANAGE_GUILD');
    expect(PERMISSION_NAMES.get(1n << 28n)).toBe('MANAGE_ROLES');
    expect(PERMISSION_NAMES.get(1n << 31n)).toBe('USE_APPLICATION_COMMANDS');
    expect(PERMISSION_NAMES.get(1n << 47n)).toBeUndefined();
    expect(PERMISSION_NAMES.get(1n << 52n)).toBe('BYPASS_SLOWMODE');
  });

  it('makes ALL every bit up to the highest flag', () => {
    expect(ALL_PERMISSIONS).toBe((1n << 53n) - 1n);
    for (const bit of PERMISSION_NAMES.keys()) expect(hasPermissions(ALL_PERMISSIONS, bit)).toBe(true);
  });

  it('names the bits of a set, lowest first, skipping unnamed bits', () => {
    expect(namePermissions(P.MANAGE_ROLES | P.MANAGE_GUILD | (1n << 47n))).toEqual([
      'MANAGE_GUILD',
      'MANAGE_ROLES',
    ]);
    expect(namePermissions(0n)).toEqual([]);
  });

  it('gives @everyone the default set 1071698660929, without moderation rights', () => {
    expect(DEFAULT_EVERYONE_PERMISSIONS).toBe(1071698660929n);
    for (const bit of [P.ADMINISTRATOR, P.MANAGE_GUILD, P.MANAGE_ROLES, P.MANAGE_CHANNELS, P.KICK_MEMBERS]) {
      expect(hasPermissions(DEFAULT_EVERYONE_PERMISSIONS, bit)).toBe(false);
    }
    for (const bit of [P.VIEW_CHANNEL, P.SEND_MESSAGES, P.USE_APPLICATION_COMMANDS]) {
      expect(hasPermissions(DEFAULT_EVERYONE_PERMISSIONS, bit)).toBe(true);
    }
  });
});
