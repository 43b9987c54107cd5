import { PERMISSION_FLAGS as P } from '@acs/validation';
import { assertMayBulkDelete, readBulkDelete } from '../../../src/domain/channel-messages';
import { discordErrorOf, formErrorsOf } from '../form-errors-of';

const NOW = new Date(Date.UTC(2026, 10, 28));
/** A snowflake made `daysAgo` before NOW. */
const idOf = (daysAgo: number, n = 0) =>
  String(((BigInt(NOW.getTime() - daysAgo * 86_400_000) - 1420070400000n) << 22n) + BigInt(n));

describe('readBulkDelete', () => {
  it('takes 2 to 100 distinct ids of the last 14 days, known or not', () => {
    expect(readBulkDelete({ messages: [idOf(1), idOf(13)] }, NOW)).toEqual([idOf(1), idOf(13)]);
    const hundred = Array.from({ length: 100 }, (_, i) => idOf(0, i));
    expect(readBulkDelete({ messages: hundred }, NOW)).toHaveLength(100);
  });

  it('answers the count with 50016, the age with 50034, and bad or repeated ids with 50035', () => {
    expect(discordErrorOf(() => readBulkDelete({ messages: [idOf(1)] }, NOW))).toMatchObject({
      httpStatus: 400,
      code: 50016,
    });
    const many = Array.from({ length: 101 }, (_, i) => idOf(0, i));
    expect(discordErrorOf(() => readBulkDelete({ messages: many }, NOW)).code).toBe(50016);
    expect(discordErrorOf(() => readBulkDelete({ messages: [idOf(1), idOf(15)] }, NOW))).toMatchObject({
      httpStatus: 400,
      code: 50034,
      message: 'You can only bulk delete messages that are under 14 days old.',
    });
    expect(formErrorsOf(() => readBulkDelete({ messages: [idOf(1), idOf(1)] }, NOW))).toEqual({
      messages: {
        1: { _errors: [{ code: 'SET_TYPE_ALREADY_CONTAINS_VALUE', message: expect.any(String) }] },
      },
    });
    expect(
      formErrorsOf(() => readBulkDelete({ messages: [idOf(1), '18446744073709551616'] }, NOW)),
    ).toMatchObject({
      messages: { 1: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } },
    });
    expect(formErrorsOf(() => readBulkDelete({}, NOW))).toMatchObject({
      messages: { _errors: [{ code: 'BASE_TYPE_REQUIRED' }] },
    });
    expect(Object.keys(formErrorsOf(() => readBulkDelete({ messages: 'all' }, NOW)))).toEqual(['messages']);
    expect(Object.keys(formErrorsOf(() => readBulkDelete([1, 2], NOW)))).toEqual(['_errors']);
  });
});

describe('assertMayBulkDelete', () => {
  const guild = (permissions: bigint) => ({ guildId: '1', isMember: true, permissions, recipientIds: [] });
  it('needs MANAGE_MESSAGES in a guild channel, and is never allowed in a DM', () => {
    expect(() => assertMayBulkDelete(guild(P.VIEW_CHANNEL | P.MANAGE_MESSAGES))).not.toThrow();
    expect(discordErrorOf(() => assertMayBulkDelete(guild(P.VIEW_CHANNEL))).code).toBe(50013);
    expect(discordErrorOf(() => assertMayBulkDelete(guild(P.MANAGE_MESSAGES))).code).toBe(50001);
    const dm = { guildId: null, isMember: true, permissions: P.VIEW_CHANNEL, recipientIds: ['1', '2'] };
    expect(discordErrorOf(() => assertMayBulkDelete(dm)).code).toBe(50003);
  });
});
