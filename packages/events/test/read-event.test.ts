import { filterSubjectOf, readEvent, type EventName } from '../src';

const names = new Set<EventName>(['command-registry.command.deleted', 'command-registry.command.renamed']);
const deleted = {
  application_id: '1',
  guild_id: null,
  command_id: '77',
  type: 1,
  name: 'kick',
  version: '78',
};
const body = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const envelope = (type: string, data: unknown) => ({
  id: 'e1',
  type,
  occurred_at: '2026-01-01T00:00:00Z',
  data,
});

describe('readEvent', () => {
  it('reads an event of the catalog', () => {
    expect(
      readEvent('command-registry.command.deleted', body(envelope('command.deleted', deleted)), names),
    ).toEqual({
      kind: 'event',
      event: {
        name: 'command-registry.command.deleted',
        id: 'e1',
        occurredAt: '2026-01-01T00:00:00Z',
        data: deleted,
      },
    });
  });

  it('ignores events the consumer does not take', () => {
    expect(readEvent('oauth.application.authorized', body('not even json'), names)).toEqual({
      kind: 'ignored',
    });
  });

  it.each([
    ['not JSON', body('{'), 'not JSON'],
    ['no envelope', body({ data: deleted }), 'envelope: id: '],
    [
      'a type that is not the subject',
      body(envelope('command.renamed', deleted)),
      'type command.renamed does not match',
    ],
    [
      'a bad snowflake',
      body(envelope('command.deleted', { ...deleted, command_id: '7x' })),
      'data: command_id: not a snowflake',
    ],
    ['missing data', body(envelope('command.deleted', null)), 'data: (root): '],
  ])('refuses %s, saying why', (_case, message, reason) => {
    const read = readEvent('command-registry.command.deleted', message, names);
    expect(read.kind).toBe('invalid');
    expect(read.kind === 'invalid' && read.reason).toContain(reason);
  });
});

describe('filterSubjectOf', () => {
  it('is the one subject that covers the names', () => {
    expect(filterSubjectOf(['oauth.application.authorized'], 'acs')).toBe('acs.oauth.application.authorized');
    expect(filterSubjectOf([...names], 'acs')).toBe('acs.command-registry.command.>');
    expect(
      filterSubjectOf(
        [
          'oauth.application.bot_token_reset',
          'oauth.application.deauthorized',
          'oauth.application.credentials_changed',
        ],
        'x1',
      ),
    ).toBe('x1.oauth.application.>');
    expect(
      filterSubjectOf(
        ['oauth.application.authorized', 'permissions.application_command_permissions.updated'],
        'acs',
      ),
    ).toBe('acs.>');
    expect(() => filterSubjectOf([], 'acs')).toThrow();
  });
});
