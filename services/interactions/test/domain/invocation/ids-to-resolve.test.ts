import { candidateUserIds, idsToResolve } from '../../../src/domain/invocation';
import { commandOf, OTHER_USER, readBody, ROLE, TEXT_CHANNEL } from './fixtures';

describe('ids to resolve', () => {
  const options = [
    { name: 'who', type: 6, value: OTHER_USER },
    { name: 'role', type: 8, value: ROLE },
    { name: 'where', value: TEXT_CHANNEL },
    { name: 'text', type: 3, value: '1234567' },
  ];

  it('asks oauth for the users the client says it names (or may name), before the command is known', () => {
    const data = readBody({}, { options, target_id: '1600000000000000001' }).data;
    expect(candidateUserIds(data).sort()).toEqual(['1600000000000000001', OTHER_USER, TEXT_CHANNEL].sort());
  });

  it("asks permissions for the ids of the command's USER, ROLE, CHANNEL and MENTIONABLE options", () => {
    const command = commandOf({
      options: [
        { type: 6, name: 'who', description: 'd' },
        { type: 8, name: 'role', description: 'd' },
        { type: 7, name: 'where', description: 'd' },
        { type: 3, name: 'text', description: 'd' },
      ],
    });
    expect(idsToResolve(readBody({}, { options }).data, command)).toEqual({
      users: [OTHER_USER],
      roles: [ROLE],
      channels: [TEXT_CHANNEL],
    });
    const userCommand = commandOf({ type: 2, name: 'Inspect', description: '' });
    expect(idsToResolve(readBody({}, { type: 2, target_id: OTHER_USER }).data, userCommand).users).toEqual([
      OTHER_USER,
    ]);
  });

  it('asks for 26 ids of a kind at most', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      name: `o${i}`,
      type: 6,
      value: String(1600000000000000000n + BigInt(i)),
    }));
    const data = readBody({}, { options: many, target_id: '1700000000000000000' }).data;
    expect(candidateUserIds(data)).toHaveLength(26);
  });
});
