import { DiscordError } from '@acs/discord-errors';
import { readSearchQuery } from '../../../src/domain/search';

/** The 50035 tree of a refused query. */
function errorsOf(pairs: [string, string][]): Record<string, unknown> {
  try {
    readSearchQuery(pairs);
  } catch (error) {
    expect(error).toBeInstanceOf(DiscordError);
    const body = (error as DiscordError).toBody() as { code: number; errors: Record<string, unknown> };
    expect(body.code).toBe(50035);
    return body.errors;
  }
  throw new Error('the query was accepted');
}

describe('readSearchQuery', () => {
  it('reads defaults', () => {
    expect(readSearchQuery([])).toMatchObject({
      limit: 25,
      offset: 0,
      content: '',
      sortBy: 'timestamp',
      sortOrder: 'desc',
      includeNsfw: false,
      channelIds: [],
      has: { include: [], exclude: [] },
    });
  });

  it('reads repeated keys as arrays, negations, booleans and ranges', () => {
    const query = readSearchQuery([
      ['channel_id', '11111111111111111'],
      ['channel_id', '22222222222222222'],
      ['has', 'link'],
      ['has', '-image'],
      ['author_type', '-bot'],
      ['pinned', 'True'],
      ['include_nsfw', '0'],
      ['limit', '1'],
      ['offset', '9975'],
      ['content', '  hello world '],
      ['sort_by', 'relevance'],
      ['link_hostname', 'Example.COM'],
      ['attachment_extension', '.PNG'],
      ['unknown', 'ignored'],
    ]);
    expect(query).toMatchObject({
      channelIds: ['11111111111111111', '22222222222222222'],
      has: { include: ['link'], exclude: ['image'] },
      authorTypes: { include: [], exclude: ['bot'] },
      pinned: true,
      includeNsfw: false,
      limit: 1,
      offset: 9975,
      content: 'hello world',
      sortBy: 'relevance',
      linkHostnames: ['example.com'],
      attachmentExtensions: ['png'],
    });
  });

  it('refuses every malformed parameter at its key, all at once', () => {
    const errors = errorsOf([
      ['limit', '26'],
      ['offset', '-1'],
      ['max_id', '99999999999999999999'],
      ['has', 'gif'],
      ['sort_order', 'up'],
      ['mention_everyone', 'yes'],
      ['author_id', 'x'],
      ['content', 'a'.repeat(1025)],
      ['slop', '101'],
    ]);
    expect(Object.keys(errors).sort()).toEqual(
      [
        'author_id',
        'content',
        'has',
        'limit',
        'max_id',
        'mention_everyone',
        'offset',
        'slop',
        'sort_order',
      ].sort(),
    );
  });

  it('refuses a scalar given twice, a list past its size, and NUL', () => {
    expect(
      errorsOf([
        ['limit', '1'],
        ['limit', '2'],
      ]),
    ).toHaveProperty('limit');
    expect(errorsOf(Array.from({ length: 101 }, (): [string, string] => ['mentions', '1']))).toHaveProperty(
      'mentions',
    );
    expect(errorsOf([['content', 'a\u0000b']])).toHaveProperty('content');
    // A megabyte of digits is one bad value, read once.
    expect(errorsOf([['limit', '9'.repeat(1_000_000)]])).toHaveProperty('limit');
  });
});
