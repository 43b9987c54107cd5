import { parseInvocation, splitWords } from '../src/cli/parse-invocation';
import { describeError, describeOutcome, modalAnswers, modalFiles, parseArgs } from '../src/cli/acs-cli';

const ping = { id: '10', name: 'ping', type: 1, version: '11', options: [{ name: 'text', type: 3 }] };
const weather = {
  id: '20',
  name: 'weather',
  type: 1,
  version: '21',
  guild_id: '99',
  options: [
    { name: 'city', type: 3, required: true, autocomplete: true },
    { name: 'days', type: 4 },
    { name: 'metric', type: 5 },
    { name: 'ratio', type: 10 },
    { name: 'who', type: 6 },
  ],
};
const settings = {
  id: '30',
  name: 'settings',
  type: 1,
  version: '31',
  options: [
    {
      name: 'color',
      type: 2,
      options: [{ name: 'set', type: 1, options: [{ name: 'value', type: 3, required: true }] }],
    },
    { name: 'reset', type: 1 },
  ],
};
const commands = [ping, weather, settings, { id: '40', name: 'Report', type: 3, version: '41' }];

describe('parseInvocation', () => {
  it('builds the data of a slash command with typed option values', () => {
    expect(parseInvocation('/ping text:hi', commands)).toEqual({
      id: '10',
      name: 'ping',
      type: 1,
      version: '11',
      options: [{ name: 'text', type: 3, value: 'hi' }],
    });
    expect(
      parseInvocation('/weather days:3 city:"New York" metric:yes ratio:0.5 who:<@!123>', commands),
    ).toEqual({
      id: '20',
      name: 'weather',
      type: 1,
      version: '21',
      guild_id: '99',
      // In the command's order, not the typed one.
      options: [
        { name: 'city', type: 3, value: 'New York' },
        { name: 'days', type: 4, value: 3 },
        { name: 'metric', type: 5, value: true },
        { name: 'ratio', type: 10, value: 0.5 },
        { name: 'who', type: 6, value: '123' },
      ],
    });
  });

  it('walks subcommand groups and subcommands', () => {
    expect(parseInvocation('/settings color set value:dark', commands).options).toEqual([
      {
        name: 'color',
        type: 2,
        options: [{ name: 'set', type: 1, options: [{ name: 'value', type: 3, value: 'dark' }] }],
      },
    ]);
    expect(parseInvocation('/settings reset', commands).options).toEqual([
      { name: 'reset', type: 1, options: [] },
    ]);
    expect(() => parseInvocation('/settings', commands)).toThrow('needs a subcommand: color, reset');
    expect(() => parseInvocation('/settings color', commands)).toThrow('needs a subcommand: set');
  });

  it('marks the focused option of an autocomplete and sends its text as typed', () => {
    const data = parseInvocation('/weather city:Par? days:2', commands, { autocomplete: true });
    expect(data.options).toEqual([
      { name: 'city', type: 3, value: 'Par', focused: true },
      { name: 'days', type: 4, value: 2 },
    ]);
    // Unmarked, the option typed last has the focus, as in the chat client.
    expect(parseInvocation('/weather days:2 city:Pa', commands, { autocomplete: true }).options).toEqual([
      { name: 'city', type: 3, value: 'Pa', focused: true },
      { name: 'days', type: 4, value: 2 },
    ]);
    expect(() => parseInvocation('/weather', commands, { autocomplete: true })).toThrow(
      'an autocomplete needs an option to complete',
    );
  });

  it('reads @names and #names through the resolver it is given', () => {
    const duel = {
      id: '40',
      name: 'duel',
      type: 1,
      version: '41',
      options: [
        { name: 'opponent', type: 6, required: true },
        { name: 'arena', type: 7 },
        { name: 'motto', type: 3 },
      ],
    };
    const resolveName = (kind: 'user' | 'channel', name: string) => {
      if (name === 'nobody') throw new Error(`no ${kind} "${name}"`);
      return kind === 'user' ? `1${name.length}` : `2${name.length}`;
    };
    expect(
      parseInvocation('/duel opponent:@bob arena:#dice motto:@all', [duel], { resolveName }).options,
    ).toEqual([
      { name: 'opponent', type: 6, value: '13' },
      { name: 'arena', type: 7, value: '24' },
      { name: 'motto', type: 3, value: '@all' },
    ]);
    expect(() => parseInvocation('/duel opponent:@nobody', [duel], { resolveName })).toThrow(
      'no user "nobody"',
    );
    // Without a resolver a name is no id.
    expect(() => parseInvocation('/duel opponent:@bob', [duel])).toThrow('opponent: "@bob" is not a user id');
  });

  it('explains typos before anything is sent', () => {
    expect(() => parseInvocation('ping', commands)).toThrow('starts with /name');
    expect(() => parseInvocation('/pong', commands)).toThrow(
      'no slash command /pong here (/ping, /weather, /settings)',
    );
    expect(() => parseInvocation('/Report', commands)).toThrow('no slash command /Report');
    expect(() => parseInvocation('/ping txt:hi', commands)).toThrow('has no option "txt" (it has: text)');
    expect(() => parseInvocation('/ping hi', commands)).toThrow('is not name:value');
    expect(() => parseInvocation('/weather days:3', commands)).toThrow('needs option "city"');
    expect(() => parseInvocation('/weather city:a days:3.5', commands)).toThrow(
      'days: "3.5" is not an integer',
    );
    expect(() => parseInvocation('/weather city:a metric:maybe', commands)).toThrow('is not true or false');
    expect(() => parseInvocation('/weather city:a who:bob', commands)).toThrow('is not a user id');
    expect(() => parseInvocation('/ping text:a text:b', commands)).toThrow('given twice');
  });

  it('splits words on spaces outside quotes', () => {
    expect(splitWords(' /a  b:"c d" e:"say \\"hi\\"" f:""')).toEqual(['/a', 'b:c d', 'e:say "hi"', 'f:']);
    expect(() => splitWords('/a b:"c')).toThrow('not closed');
  });
});

describe('the CLI around it', () => {
  it('reads flags and the command line', () => {
    expect(parseArgs(['invoke', '/ping', 'text:hi', '--guild', '5', '--json', '--app=7'])).toEqual({
      command: 'invoke',
      line: '/ping text:hi',
      args: ['/ping', 'text:hi'],
      flags: { guild: '5', json: true, app: '7' },
      files: [],
    });
    expect(
      parseArgs(['submit-modal', '7', 'form', '--file', 'docs=a.txt', '--file=docs=b.txt']).files,
    ).toEqual(['docs=a.txt', 'docs=b.txt']);
    expect(parseArgs([]).command).toBe('commands');
    expect(() => parseArgs(['invoke', '--guild'])).toThrow('--guild needs a value');
  });

  it('prints what the user would see', () => {
    expect(
      describeOutcome({
        outcome: 'success',
        response: { type: 4 },
        messages: [
          {
            author: { username: 'Demo App' },
            content: 'Pong!',
            flags: 64,
            embeds: [{ title: 'T', fields: [{ name: 'a', value: 'b' }] }],
          },
        ],
      }),
    ).toBe('Demo App (only you can see this): Pong!\n  ┃ T\n  ┃ a: b');
    expect(
      describeOutcome({
        outcome: 'success',
        response: { type: 4 },
        messages: [
          {
            id: '42',
            author: { username: 'Demo App' },
            content: 'Choose',
            flags: 0,
            components: [
              {
                type: 1,
                components: [
                  { type: 2, style: 1, label: 'Go', custom_id: 'go' },
                  { type: 2, style: 2, label: 'Off', custom_id: 'off', disabled: true },
                  { type: 2, style: 5, label: 'Docs', url: 'https://a.example' },
                ],
              },
              {
                type: 1,
                components: [{ type: 3, custom_id: 'pick', options: [{ value: 'a' }, { value: 'b' }] }],
              },
            ],
          },
        ],
      }),
    ).toBe(
      [
        'Demo App: Choose',
        '  components of message 42:',
        '    [button "Go"] go',
        '    [button "Off" (disabled)] off',
        '    [link Docs] https://a.example',
        '    [select] pick = a|b',
      ].join('\n'),
    );
    expect(
      describeOutcome({
        outcome: 'success',
        interaction: { id: '7' },
        response: {
          type: 9,
          data: {
            custom_id: 'form',
            title: 'Tell us',
            components: [
              { type: 18, label: 'Name', component: { type: 4, custom_id: 'name', required: false } },
            ],
          },
        },
        messages: [],
      }),
    ).toBe(
      [
        'modal "Tell us" (form), opened by interaction 7:',
        '  Name: name (optional)',
        '  submit: npx acs submit-modal 7 form <custom_id>=<answer>…',
      ].join('\n'),
    );
    expect(modalAnswers(['name=Ada Lovelace', 'picks[]=a,b', 'none[]='])).toEqual([
      { type: 18, component: { type: 4, custom_id: 'name', value: 'Ada Lovelace' } },
      { type: 18, component: { type: 3, custom_id: 'picks', values: ['a', 'b'] } },
      { type: 18, component: { type: 3, custom_id: 'none', values: [] } },
    ]);
    expect(() => modalAnswers(['nothing'])).toThrow('custom_id=text');
    expect(modalFiles([`docs=${__filename}`, `pic=${__filename}`, `docs=${__filename}`])).toEqual({
      components: [
        { type: 18, component: { type: 19, custom_id: 'docs', values: ['0', '2'] } },
        { type: 18, component: { type: 19, custom_id: 'pic', values: ['1'] } },
      ],
      paths: [__filename, __filename, __filename],
    });
    expect(() => modalFiles(['docs=/no/such/file'])).toThrow('no file at');
    expect(() => modalFiles(['docs'])).toThrow('custom_id=path');
    expect(describeOutcome({ outcome: 'failure', reason_code: 2, messages: [] })).toBe(
      '✗ the app did not answer in time (reason_code 2): no callback within the response deadline ' +
        '(is the bot running, logged in with this app’s token, and handling this interaction?)',
    );
    expect(
      describeOutcome({
        outcome: 'failure',
        reason_code: 1,
        reason: 'the interactions endpoint answered 500',
        messages: [],
      }).split('\n'),
    ).toEqual([
      '✗ the interactions endpoint answered 500',
      expect.stringMatching(/^ {2}the app could not be reached or answered badly \(reason_code 1\)/),
    ]);
    expect(
      describeOutcome({
        outcome: 'success',
        response: { type: 8, data: { choices: [{ name: 'Paris', value: 'paris' }] } },
        messages: [],
      }),
    ).toBe('1 choice(s):\n  Paris = "paris"');
    expect(
      describeError({
        status: 400,
        body: {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            data: {
              _errors: [{ code: 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION', message: 'outdated' }],
            },
          },
        },
      }),
    ).toBe(
      'HTTP 400: Invalid Form Body (code 50035)\n  data: outdated [INTERACTION_APPLICATION_COMMAND_INVALID_VERSION]',
    );
  });
});
