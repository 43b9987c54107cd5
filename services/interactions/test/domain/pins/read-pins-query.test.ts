import { DiscordError } from '@acs/discord-errors';
import { PERMISSION_FLAGS as P } from '@acs/validation';
import { assertMayPin, mayReadPins, readPinsQuery } from '../../../src/domain/pins';
import { mustBeEphemeral } from '../../../src/domain/callbacks';

function errorOf(run: () => unknown): DiscordError {
  try {
    run();
  } catch (error) {
    if (error instanceof DiscordError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('readPinsQuery', () => {
  it('reads before as ISO 8601 (as pinned_at is written) and limit 1-50', () => {
    expect(readPinsQuery('', 50)).toEqual({ before: undefined, limit: 50 });
    expect(readPinsQuery('2026-11-24T07:20:00.123000+00:00', 10).before?.toISOString()).toBe(
      '2026-11-24T07:20:00.123Z',
    );
    expect(readPinsQuery('2026-11-24T07:20:00Z', 1).before?.getTime()).toBe(Date.UTC(2026, 10, 24, 7, 20));
  });

  it('answers 50035 at the field otherwise', () => {
    for (const before of ['yesterday', '2026-13-45T00:00:00Z', '1700000000', '2026-11-24']) {
      expect(errorOf(() => readPinsQuery(before, 50)).errors).toMatchObject({
        before: { _errors: [{ code: 'DATE_TIME_TYPE_PARSE' }] },
      });
    }
    expect(errorOf(() => readPinsQuery('', 0)).errors).toMatchObject({
      limit: { _errors: [{ code: 'NUMBER_TYPE_MIN' }] },
    });
    expect(errorOf(() => readPinsQuery('', 51)).errors).toMatchObject({
      limit: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] },
    });
  });
});

describe('pin access', () => {
  const access = (permissions: bigint, isMember = true) => ({
    guildId: '1',
    isMember,
    permissions,
    recipientIds: [],
  });

  it('takes VIEW_CHANNEL then PIN_MESSAGES; MANAGE_MESSAGES is not enough', () => {
    expect(() => assertMayPin(access(P.VIEW_CHANNEL | P.PIN_MESSAGES))).not.toThrow();
    expect(errorOf(() => assertMayPin(access(P.VIEW_CHANNEL | P.MANAGE_MESSAGES))).code).toBe(50013);
    expect(errorOf(() => assertMayPin(access(P.PIN_MESSAGES))).code).toBe(50001);
    expect(errorOf(() => assertMayPin(access(P.VIEW_CHANNEL | P.PIN_MESSAGES, false))).code).toBe(50001);
  });

  it('lets a viewer list pins, empty without READ_MESSAGE_HISTORY', () => {
    expect(mayReadPins(access(P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY))).toBe(true);
    expect(mayReadPins(access(P.VIEW_CHANNEL))).toBe(false);
    expect(errorOf(() => mayReadPins(access(P.READ_MESSAGE_HISTORY))).code).toBe(50001);
  });
});

describe('mustBeEphemeral', () => {
  const payload = (permissions?: string) => ({ member: permissions === undefined ? {} : { permissions } });

  it('holds in a guild for a user-installed-only app when the invoker lacks USE_EXTERNAL_APPS', () => {
    const without = P.VIEW_CHANNEL.toString();
    const withIt = (P.VIEW_CHANNEL | P.USE_EXTERNAL_APPS).toString();
    expect(mustBeEphemeral({ guildId: '1', userInstallOnly: true, payload: payload(without) })).toBe(true);
    expect(mustBeEphemeral({ guildId: '1', userInstallOnly: true, payload: payload() })).toBe(true);
    expect(mustBeEphemeral({ guildId: '1', userInstallOnly: true, payload: payload(withIt) })).toBe(false);
    expect(mustBeEphemeral({ guildId: '1', userInstallOnly: false, payload: payload(without) })).toBe(false);
    expect(mustBeEphemeral({ guildId: null, userInstallOnly: true, payload: {} })).toBe(false);
  });
});
