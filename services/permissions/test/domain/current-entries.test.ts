import {
  currentEntries,
  type CurrentCommandName,
  type EntryWithName,
} from '../../src/domain/command-permissions/current-entries';

const APP = '1300000000000000000';
const GUILD = '1300000000000000500';
const COMMAND = '1300000000000000100';
/** The version the command had when the entry was written for it under the name `ban`. */
const WRITTEN_AT = '1300000000000000200';

const entry = (commandName: string | null, commandVersion = WRITTEN_AT): EntryWithName => ({
  id: commandName === null ? APP : COMMAND,
  applicationId: APP,
  guildId: GUILD,
  permissions: [{ id: GUILD, type: 1, permission: false }],
  commandName,
  commandVersion,
});

interface Case {
  name: string;
  entry: EntryWithName;
  /** What command-registry says of the command now (`version` for the reader); undefined: it does not exist. */
  now: (CurrentCommandName & { version: string }) | undefined;
  kept: boolean;
}

const CASES: Case[] = [
  {
    name: 'same name, named at creation, same version: kept',
    entry: entry('ban'),
    now: { name: 'ban', version: WRITTEN_AT, namedVersion: COMMAND },
    kept: true,
  },
  {
    name: 'same name, written at the very version of the rename that set it: kept',
    entry: entry('ban'),
    now: { name: 'ban', version: WRITTEN_AT, namedVersion: WRITTEN_AT },
    kept: true,
  },
  {
    name: 'description edited since (the version moved, the name did not): kept',
    entry: entry('ban'),
    now: { name: 'ban', version: '1300000000000000300', namedVersion: COMMAND },
    kept: true,
  },
  {
    name: 'renamed away (ban → banish): hidden',
    entry: entry('ban'),
    now: { name: 'banish', version: '1300000000000000300', namedVersion: '1300000000000000300' },
    kept: false,
  },
  {
    name: 'renamed ban → banish → ban: the name is the stored one again, set after the entry: hidden',
    entry: entry('ban'),
    now: { name: 'ban', version: '1300000000000000400', namedVersion: '1300000000000000400' },
    kept: false,
  },
  {
    name: 'renamed back one snowflake after the entry (beyond 2^53: compared exactly): hidden',
    entry: entry('ban'),
    now: { name: 'ban', version: '1300000000000000201', namedVersion: '1300000000000000201' },
    kept: false,
  },
  {
    name: 'versions compare as numbers, not text ("9" ≤ "10"): kept',
    entry: entry('ban', '10'),
    now: { name: 'ban', version: '10', namedVersion: '9' },
    kept: true,
  },
  {
    name: 'versions compare as numbers, not text ("10" > "9"): hidden',
    entry: entry('ban', '9'),
    now: { name: 'ban', version: '10', namedVersion: '10' },
    kept: false,
  },
  {
    name: 'a registry that sends no named version ("0"): the name alone decides',
    entry: entry('ban'),
    now: { name: 'ban', version: '1300000000000000300', namedVersion: '0' },
    kept: true,
  },
  { name: 'deleted: hidden', entry: entry('ban'), now: undefined, kept: false },
  {
    name: 'the app-level entry is kept whatever the commands',
    entry: entry(null, '0'),
    now: undefined,
    kept: true,
  },
];

describe('currentEntries', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const now = new Map<string, CurrentCommandName>(c.now ? [[COMMAND, c.now]] : []);
    expect(currentEntries([c.entry], now)).toEqual(c.kept ? [c.entry] : []);
  });

  it('filters each entry against its own command, keeping the input order', () => {
    const other = '1300000000000000101';
    const kept = entry('ban');
    const renamedBack = { ...entry('kick'), id: other };
    const appLevel = entry(null, '0');
    const now = new Map<string, CurrentCommandName>([
      [COMMAND, { name: 'ban', namedVersion: COMMAND }],
      [other, { name: 'kick', namedVersion: '1300000000000000400' }],
    ]);
    expect(currentEntries([appLevel, renamedBack, kept], now)).toEqual([appLevel, kept]);
  });
});
