import {
  validateListGuildBots,
  validateListGuildMembers,
} from '../../src/domain/validate-list-guild-members';
import { readManagedRoleName } from '../../src/domain/validate-put-bot-member';
import { discordErrorOf } from '../support/errors';

const request = { guild_id: '10', user_ids: [] as string[], after: '', limit: 1000, nick_prefix: '' };

describe('validateListGuildMembers', () => {
  it('reads ids, a page and a prefix', () => {
    expect(
      validateListGuildMembers({ ...request, user_ids: ['5', '5', '6'], after: '4', nick_prefix: 'ab' }),
    ).toEqual({
      guildId: '10',
      userIds: ['5', '6'],
      after: '4',
      limit: 1000,
      nickPrefix: 'ab',
    });
  });

  it.each([
    ['guild_id', { guild_id: 'x' }],
    ['guild_id', { guild_id: '18446744073709551616' }],
    ['user_ids', { user_ids: Array.from({ length: 101 }, (_, i) => String(i + 1)) }],
    ['user_ids', { user_ids: ['1', 'no'] }],
    ['after', { after: '-1' }],
    ['limit', { limit: 0 }],
    ['limit', { limit: 1001 }],
    ['nick_prefix', { nick_prefix: 'x'.repeat(33) }],
    ['nick_prefix', { nick_prefix: 'a\u0000' }],
  ])('answers 50035 at %s', async (field, patch) => {
    const error = await discordErrorOf(() => validateListGuildMembers({ ...request, ...patch }));
    expect(error.code).toBe(50035);
    expect(Object.keys((error.toBody() as { errors: object }).errors)).toEqual([field]);
  });
});

describe('validateListGuildBots and readManagedRoleName', () => {
  it('bounds the guild ids and reads them', async () => {
    expect(validateListGuildBots({ guild_ids: ['1', '1', '2'] })).toEqual(['1', '2']);
    const many = Array.from({ length: 101 }, (_, i) => String(i + 1));
    expect((await discordErrorOf(() => validateListGuildBots({ guild_ids: many }))).code).toBe(50035);
  });

  it('cuts a long name to 100 characters and refuses an empty one or NUL', async () => {
    expect(readManagedRoleName('name', `  ${'n'.repeat(150)} `)).toBe('n'.repeat(100));
    expect((await discordErrorOf(() => readManagedRoleName('name', '   '))).code).toBe(50035);
    expect((await discordErrorOf(() => readManagedRoleName('name', 'a\u0000b'))).code).toBe(50035);
  });
});
