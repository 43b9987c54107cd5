import { embedLength, validateMessage, type Embed } from '../../../src/domain/messages';
import { codesAt, formErrorsOf, oneError } from '../form-errors-of';

const embedsOf = (embeds: unknown) => validateMessage({ embeds }).embeds;
const errorsOf = (embeds: unknown) => formErrorsOf(() => validateMessage({ embeds }));

describe('embeds', () => {
  it('normalizes an embed: type rich, fields inline false, empty texts dropped, timestamps in Discord form', () => {
    expect(
      embedsOf([
        {
          type: 'article',
          title: 'Title',
          description: '',
          url: 'https://example.com/a',
          color: 0x5865f2,
          timestamp: '2024-01-02T03:04:05.000Z',
          fields: [
            { name: 'a', value: 'b' },
            { name: 'c', value: 'd', inline: true },
          ],
          author: { name: 'Author', url: 'https://example.com', icon_url: 'attachment://a.png' },
          footer: { text: 'Footer', icon_url: null },
          image: { url: 'https://example.com/i.png', width: 10 },
          thumbnail: { url: 'http://example.com/t.png' },
          video: { url: 'https://example.com/v.mp4' },
          provider: { name: 'Example' },
        },
      ]),
    ).toEqual([
      {
        type: 'rich',
        title: 'Title',
        url: 'https://example.com/a',
        color: 0x5865f2,
        timestamp: '2024-01-02T03:04:05+00:00',
        fields: [
          { name: 'a', value: 'b', inline: false },
          { name: 'c', value: 'd', inline: true },
        ],
        author: { name: 'Author', url: 'https://example.com', icon_url: 'attachment://a.png' },
        footer: { text: 'Footer' },
        image: { url: 'https://example.com/i.png' },
        thumbnail: { url: 'http://example.com/t.png' },
      },
    ]);
  });

  it.each([
    ['2024-01-02T03:04:05.123456+02:00', '2024-01-02T01:04:05.123000+00:00'],
    ['2024-01-02T03:04:05+0100', '2024-01-02T02:04:05+00:00'],
    ['2024-01-02T03:04:05', '2024-01-02T03:04:05+00:00'],
    ['2024-01-02', '2024-01-02T00:00:00+00:00'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59+00:00'],
    ['9999-12-31T23:59:59+00:00', '9999-12-31T23:59:59+00:00'],
  ])('reads timestamp %p as %p', (timestamp, expected) => {
    expect(embedsOf([{ title: 't', timestamp }])[0]?.timestamp).toBe(expected);
  });

  it.each([
    'yesterday',
    '2024-13-45T00:00:00Z',
    '1700000000',
    // Dates that Date.parse would roll over, and instants beyond year 9999 in UTC.
    '2024-02-30T00:00:00Z',
    '2023-02-29',
    '2024-04-31',
    '2024-01-02T24:00:00Z',
    '2024-01-02T23:60:00Z',
    '9999-12-31T23:59:59-23:59',
  ])('refuses timestamp %p', (timestamp) => {
    expect(errorsOf([{ title: 't', timestamp }])).toEqual(
      oneError(
        ['embeds', 0, 'timestamp'],
        'DATE_TYPE_PARSE',
        `Could not parse ${timestamp}. Should be ISO8601.`,
      ),
    );
  });

  it('takes 10 embeds and refuses 11 at `embeds`', () => {
    expect(embedsOf(Array.from({ length: 10 }, () => ({ title: 't' })))).toHaveLength(10);
    expect(errorsOf(Array.from({ length: 11 }, () => ({ title: 't' })))).toEqual(
      oneError(['embeds'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.'),
    );
  });

  it('takes 6000 characters in total and refuses 6001 with the real answer', () => {
    const fill = (n: number) => [
      { title: 'x'.repeat(256), description: 'x'.repeat(4096) },
      {
        // 4352 characters above, 30 in the fields, footer and author below.
        description: 'x'.repeat(n - 4352 - 30),
        fields: [{ name: 'n'.repeat(5), value: 'v'.repeat(5) }],
        footer: { text: 'f'.repeat(10) },
        author: { name: 'a'.repeat(10) },
      },
    ];
    const embeds = embedsOf(fill(6000));
    expect(embeds.reduce((sum, e) => sum + embedLength(e), 0)).toBe(6000);
    expect(errorsOf(fill(6001))).toEqual(
      oneError(['embeds'], 'MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000'),
    );
  });

  it('counts the texts the limit counts, and nothing else', () => {
    const embed: Embed = {
      type: 'rich',
      title: 'ab',
      description: '😀',
      url: 'https://example.com/not-counted',
      fields: [{ name: 'cd', value: 'ef', inline: false }],
      footer: { text: 'g' },
      author: { name: 'h' },
    };
    expect(embedLength(embed)).toBe(2 + 1 + 4 + 1 + 1);
  });

  it.each([
    [{ title: 'x'.repeat(257) }, ['title'], 'Must be 256 or fewer in length.'],
    [{ description: 'x'.repeat(4097) }, ['description'], 'Must be 4096 or fewer in length.'],
    [
      { fields: [{ name: 'x'.repeat(257), value: 'v' }] },
      ['fields', 0, 'name'],
      'Must be 256 or fewer in length.',
    ],
    [
      { fields: [{ name: 'n', value: 'x'.repeat(1025) }] },
      ['fields', 0, 'value'],
      'Must be 1024 or fewer in length.',
    ],
    [{ footer: { text: 'x'.repeat(2049) } }, ['footer', 'text'], 'Must be 2048 or fewer in length.'],
    [{ author: { name: 'x'.repeat(257) } }, ['author', 'name'], 'Must be 256 or fewer in length.'],
    [{ title: 't', url: `https://e.com/${'x'.repeat(2040)}` }, ['url'], 'Must be 2048 or fewer in length.'],
  ])('limits %#', (embed, path, message) => {
    expect(errorsOf([embed])).toEqual(oneError(['embeds', 0, ...path], 'BASE_TYPE_MAX_LENGTH', message));
  });

  it('takes 25 fields and refuses 26', () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `n${i}`, value: 'v' }));
    expect(embedsOf([{ fields: fields(25) }])[0]?.fields).toHaveLength(25);
    expect(errorsOf([{ fields: fields(26) }])).toEqual(
      oneError(['embeds', 0, 'fields'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.'),
    );
  });

  it('requires a field name and value, the footer text, the author name and an image url', () => {
    const tree = errorsOf([
      {
        fields: [{ name: '', value: 'v' }, { name: 'n' }],
        footer: { icon_url: 'https://e.com/i.png' },
        author: {},
        image: {},
      },
    ]);
    for (const path of [
      ['fields', 0, 'name'],
      ['fields', 1, 'value'],
      ['footer', 'text'],
      ['author', 'name'],
      ['image', 'url'],
    ]) {
      expect(codesAt(tree, ['embeds', 0, ...path])).toEqual(['BASE_TYPE_REQUIRED']);
    }
  });

  it('checks URLs: well formed, http(s) for links, also attachment:// for media', () => {
    expect(errorsOf([{ title: 't', url: 'not a url' }])).toEqual(
      oneError(['embeds', 0, 'url'], 'URL_TYPE_INVALID_URL', 'Not a well formed URL.'),
    );
    expect(errorsOf([{ title: 't', url: 'ftp://example.com/file' }])).toEqual(
      oneError(
        ['embeds', 0, 'url'],
        'URL_TYPE_INVALID_SCHEME',
        `Scheme "ftp" is not supported. Scheme must be one of ('http', 'https').`,
      ),
    );
    expect(errorsOf([{ title: 't', url: 'attachment://a.png' }])).toEqual(
      oneError(['embeds', 0, 'url'], 'URL_TYPE_INVALID_SCHEME'),
    );
    expect(embedsOf([{ image: { url: 'attachment://a.png' } }])[0]?.image).toEqual({
      url: 'attachment://a.png',
    });
  });

  it('checks color: an integer in 0..0xFFFFFF', () => {
    expect(embedsOf([{ title: 't', color: 0 }])[0]?.color).toBe(0);
    expect(errorsOf([{ title: 't', color: 0x1000000 }])).toEqual(
      oneError(
        ['embeds', 0, 'color'],
        'NUMBER_TYPE_MAX',
        'int value should be less than or equal to 16777215.',
      ),
    );
    expect(errorsOf([{ title: 't', color: '#ff0000' }])).toEqual(
      oneError(['embeds', 0, 'color'], 'NUMBER_TYPE_COERCE', 'Value "#ff0000" is not int.'),
    );
  });

  it('checks JSON types', () => {
    expect(errorsOf({ title: 't' })).toEqual(oneError(['embeds'], 'LIST_TYPE_CONVERT'));
    expect(errorsOf(['t'])).toEqual(oneError(['embeds', 0], 'MODEL_TYPE_CONVERT'));
    expect(errorsOf([{ title: 5 }])).toEqual(oneError(['embeds', 0, 'title'], 'BASE_TYPE_STRING'));
    expect(errorsOf([{ fields: [{ name: 'n', value: 'v', inline: 'yes' }] }])).toEqual(
      oneError(['embeds', 0, 'fields', 0, 'inline'], 'BASE_TYPE_BOOLEAN'),
    );
    expect(errorsOf([{ footer: 'text' }])).toEqual(oneError(['embeds', 0, 'footer'], 'MODEL_TYPE_CONVERT'));
  });

  it('takes null for embeds and for every optional embed field', () => {
    expect(validateMessage({ content: 'a', embeds: null }).embeds).toEqual([]);
    expect(
      embedsOf([
        { title: 't', description: null, url: null, color: null, fields: null, footer: null, image: null },
      ]),
    ).toEqual([{ type: 'rich', title: 't' }]);
  });
});
