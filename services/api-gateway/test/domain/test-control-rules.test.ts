import { InvalidFormBodyError } from '@acs/discord-errors';
import { matchesFaultRoute, parseFaultRoute } from '../../src/domain/fault-route';
import { findBodyWarnings, formatWarningsHeader } from '../../src/domain/find-body-warnings';
import { KNOWN_BODY_FIELDS } from '../../src/domain/known-body-fields';
import { readFaultRequest } from '../../src/domain/read-fault-request';

const route = (text: string) => {
  const parsed = parseFaultRoute(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

describe('fault routes', () => {
  it.each([
    ['POST /channels/:id/messages', 'POST', '/channels/123/messages', true],
    ['post /channels/{channel_id}/messages', 'POST', '/channels/123/messages', true],
    ['POST /api/v10/channels/:id/messages', 'POST', '/channels/123/messages', true],
    ['POST /channels/:id/messages', 'PATCH', '/channels/123/messages', false],
    ['POST /channels/:id/messages', 'POST', '/channels/123/messages/456', false],
    ['POST /channels/123/messages', 'POST', '/channels/124/messages', false],
    ['* /channels/*', 'DELETE', '/channels/1/messages/2', true],
    ['* /channels/*', 'GET', '/channels', false],
    ['GET /users/@me', 'GET', '/users/@me', true],
    ['POST /channels/*/messages', 'POST', '/channels/9/messages', true],
  ])('%s against %s %s: %s', (text, method, path, expected) => {
    expect(matchesFaultRoute(route(text), method, path)).toBe(expected);
  });

  it.each([
    '',
    'POST',
    '/channels',
    'FETCH /x',
    'POST channels',
    'POST /a b',
    `GET /${'a'.repeat(300)}`,
    'GET /a/%00',
  ])('refuses %j', (text) => expect(typeof parseFaultRoute(text)).toBe('string'));
});

describe('readFaultRequest', () => {
  it('reads a valid request with its defaults', () => {
    expect(readFaultRequest({ route: 'POST /channels/:id/messages', status: 429, times: 2 })).toEqual({
      route: 'POST /channels/:id/messages',
      status: 429,
      times: 2,
      delay_ms: 0,
    });
  });

  it('names every bad field in one 50035 tree', () => {
    let thrown: unknown;
    try {
      readFaultRequest({ route: 5, status: 200, times: 1001, delay_ms: 30_001, body: [] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidFormBodyError);
    const body = (thrown as InvalidFormBodyError).toBody();
    expect(body.code).toBe(50035);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(['body', 'delay_ms', 'route', 'status', 'times']);
    expect(body.errors?.times).toEqual({ _errors: [expect.objectContaining({ code: 'NUMBER_TYPE_MAX' })] });
  });

  it.each([null, [], 'x', 1])('refuses a body that is no object: %j', (value) => {
    expect(() => readFaultRequest(value)).toThrow(InvalidFormBodyError);
  });

  it('refuses missing fields, fractions and a huge body', () => {
    expect(() => readFaultRequest({})).toThrow(InvalidFormBodyError);
    expect(() => readFaultRequest({ route: 'GET /x', status: 500.5, times: 1 })).toThrow(
      InvalidFormBodyError,
    );
    expect(() =>
      readFaultRequest({ route: 'GET /x', status: 500, times: 1, body: { m: 'x'.repeat(5000) } }),
    ).toThrow(InvalidFormBodyError);
  });
});

describe('findBodyWarnings', () => {
  const createMessage = KNOWN_BODY_FIELDS['POST /channels/:channel_id/messages']!;

  it('names unknown and not-modelled fields, nested in embeds too', () => {
    expect(
      findBodyWarnings(createMessage, {
        content: 'hi',
        tts: false,
        foo: 1,
        shared_client_theme: {},
        embeds: [{ title: 't', colour: 1, footer: { text: 'x', size: 2 } }],
      }),
    ).toEqual([
      'unknown field "foo" ignored',
      'field "shared_client_theme" accepted but not modelled',
      'unknown field "embeds[0].colour" ignored',
      'unknown field "embeds[0].footer.size" ignored',
    ]);
  });

  it('finds nothing in a body it fully reads, or in what is no object', () => {
    expect(findBodyWarnings(createMessage, { content: 'hi', embeds: [{ title: 'x' }], nonce: '1' })).toEqual(
      [],
    );
    expect(findBodyWarnings(createMessage, 'text')).toEqual([]);
    expect(findBodyWarnings(createMessage, null)).toEqual([]);
  });

  it("looks into a callback's data and a bulk overwrite's commands", () => {
    const callback = KNOWN_BODY_FIELDS['POST /interactions/:interaction_id/:interaction_token/callback']!;
    expect(findBodyWarnings(callback, { type: 4, data: { content: 'x', ephemeral: true } })).toEqual([
      'unknown field "data.ephemeral" ignored',
    ]);
    const overwrite = KNOWN_BODY_FIELDS['PUT /applications/:application_id/commands']!;
    expect(
      findBodyWarnings(overwrite, [{ name: 'a', description: 'b', default_permission: true, x: 1 }]),
    ).toEqual(['field "[0].default_permission" accepted but not modelled', 'unknown field "[0].x" ignored']);
  });

  it("names the Modify Guild Member fields ACS keeps no state for (a bot's mute or voice move)", () => {
    const modifyMember = KNOWN_BODY_FIELDS['PATCH /guilds/:guild_id/members/:user_id']!;
    expect(
      findBodyWarnings(modifyMember, {
        communication_disabled_until: null,
        nick: 'x',
        mute: true,
        channel_id: '1',
      }),
    ).toEqual(['field "mute" accepted but not modelled', 'field "channel_id" accepted but not modelled']);
  });

  it('keeps what a client names printable, short and bounded in number and length', () => {
    const body = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`f${i}\u0000é"${'x'.repeat(100)}`, i]),
    );
    const warnings = findBodyWarnings(createMessage, body);
    expect(warnings).toHaveLength(20);
    expect(warnings[0]).toMatch(/^unknown field "f0\?\?\?x+\.\.\." ignored$/);
    const header = formatWarningsHeader(warnings);
    expect(header.length).toBeLessThanOrEqual(1000);
    expect(header).toMatch(/\.\.\. \d+ more$/);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
  });
});
