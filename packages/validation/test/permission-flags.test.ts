import {
  ALL_PERMISSIONS,
  hasPermissions,
  namePermissions,
  PERMISSION_FLAGS as P,
  PERMISSION_NAMES,
} from '../src/permission-flags';

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

  it('knows the bits added since 2023: expressions, events, voice status, external apps, pins, slowmode', () => {
    expect(P.CREATE_GUILD_EXPRESSIONS).toBe(1n << 43n);
    expect(P.CREATE_EVENTS).toBe(1n << 44n);
    expect(P.SET_VOICE_CHANNEL_STATUS).toBe(1n << 48n);
    expect(P.USE_EXTERNAL_APPS).toBe(1n << 50n);
    expect(P.PIN_MESSAGES).toBe(1n << 51n);
    expect(P.BYPASS_SLOWMODE).toBe(1n << 52n);
  });

  it('names the bits of a set, lowest first, skipping unnamed bits', () => {
    expect(namePermissions(P.MANAGE_ROLES | P.MANAGE_GUILD | (1n << 47n))).toEqual([
      'MANAGE_GUILD',
      'MANAGE_ROLES',
    ]);
    expect(namePermissions(0n)).toEqual([]);
  });
});
