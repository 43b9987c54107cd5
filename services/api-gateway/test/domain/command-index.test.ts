import { usableCommandIndex, type IndexedCommand } from '../../src/domain/command-index';

const command = (id: string, applicationId: string, version: string): IndexedCommand => ({
  id,
  application_id: applicationId,
  version,
});

describe('the command index', () => {
  const commands = [command('1', 'a', '1300000000000000005'), command('2', 'b', '1300000000000000009')];
  const applications = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

  it('keeps the usable commands, their applications, and the newest version among them', () => {
    expect(usableCommandIndex(commands, applications, ['1'])).toEqual({
      applications: [{ id: 'a' }],
      application_commands: [commands[0]],
      version: '1300000000000000005',
    });
    expect(usableCommandIndex(commands, applications, ['2', '1']).version).toBe('1300000000000000009');
  });

  it('is empty at version "0" when nothing is usable', () => {
    expect(usableCommandIndex(commands, applications, [])).toEqual({
      applications: [],
      application_commands: [],
      version: '0',
    });
  });
});
