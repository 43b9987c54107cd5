import { readInvocationBody } from '../../../src/domain/invocation';
import {
  APP,
  bodyOf,
  CHANNEL,
  COMMAND,
  errorOf,
  errorsIn,
  GUILD,
  leavesAt,
  treeOf,
  VERSION,
} from './fixtures';

const read = (body: unknown) => () =>
  readInvocationBody(typeof body === 'string' ? body : JSON.stringify(body));

describe('readInvocationBody', () => {
  it('reads what the chat client sends (A8)', () => {
    const body = readInvocationBody(
      JSON.stringify(
        bodyOf(
          { session_id: 'a'.repeat(32), nonce: '1234', analytics_location: 'slash_ui' },
          { options: [{ name: 'text', type: 3, value: 'hi' }], guild_id: GUILD },
        ),
      ),
    );
    expect(body).toEqual({
      type: 2,
      applicationId: APP,
      guildId: GUILD,
      channelId: CHANNEL,
      sessionId: 'a'.repeat(32),
      nonce: '1234',
      data: {
        id: COMMAND,
        name: 'ping',
        type: 1,
        version: VERSION,
        options: [{ name: 'text', type: 3, value: 'hi', options: null, focused: false }],
        targetId: null,
      },
    });
  });

  it('takes a DM invocation (no guild), an integer nonce and a data without type', () => {
    const body = readInvocationBody(
      JSON.stringify({ ...bodyOf({ nonce: 42 }, { type: null }), guild_id: null }),
    );
    expect(body).toMatchObject({ guildId: null, nonce: '42', data: { type: null, options: null } });
  });

  it('refuses text that is not JSON with 50109, and JSON that is not an object at the top', () => {
    expect(errorOf(read('{"type": 2,')).toBody()).toEqual({
      code: 50109,
      message: 'The request body contains invalid JSON.',
    });
    expect(leavesAt(treeOf(read([1])), [])[0]?.code).toBe('MODEL_TYPE_CONVERT');
  });

  it('requires type, application_id, channel_id and data, all reported at once', () => {
    expect(errorsIn(treeOf(read({})))).toEqual([
      { path: 'type', code: 'BASE_TYPE_REQUIRED' },
      { path: 'application_id', code: 'BASE_TYPE_REQUIRED' },
      { path: 'channel_id', code: 'BASE_TYPE_REQUIRED' },
      { path: 'data', code: 'BASE_TYPE_REQUIRED' },
    ]);
  });

  it("takes interaction types 2 and 4 only (3 and 5 are readInteractionRequest's)", () => {
    for (const type of [1, 99]) {
      expect(leavesAt(treeOf(read(bodyOf({ type }))), ['type'])).toEqual([
        { code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (2, 3, 4, 5).' },
      ]);
    }
    expect(leavesAt(treeOf(read(bodyOf({ type: '2' }))), ['type'])[0]?.code).toBe('NUMBER_TYPE_COERCE');
  });

  it('checks every id as a snowflake', () => {
    const tree = treeOf(
      read(bodyOf({ application_id: 'x', guild_id: '1'.repeat(30), channel_id: true }, { id: -1 })),
    );
    expect(errorsIn(tree)).toEqual([
      { path: 'application_id', code: 'NUMBER_TYPE_COERCE' },
      { path: 'guild_id', code: 'NUMBER_TYPE_MAX' },
      { path: 'channel_id', code: 'NUMBER_TYPE_COERCE' },
      { path: 'data.id', code: 'NUMBER_TYPE_COERCE' },
    ]);
    expect(errorsIn(treeOf(read(bodyOf({}, { target_id: 'me' }))))).toEqual([
      { path: 'data.target_id', code: 'NUMBER_TYPE_COERCE' },
    ]);
  });

  it('requires data.name and data.version, and data to be an object', () => {
    expect(errorsIn(treeOf(read(bodyOf({}, { name: null, version: undefined }))))).toEqual([
      { path: 'data.name', code: 'BASE_TYPE_REQUIRED' },
      { path: 'data.version', code: 'BASE_TYPE_REQUIRED' },
    ]);
    expect(errorsIn(treeOf(read({ ...bodyOf(), data: 'ping' })))).toEqual([
      { path: 'data', code: 'MODEL_TYPE_CONVERT' },
    ]);
  });

  it('bounds the nonce (25 characters) and the session id', () => {
    expect(leavesAt(treeOf(read(bodyOf({ nonce: 'n'.repeat(26) }))), ['nonce'])).toEqual([
      { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' },
    ]);
    expect(leavesAt(treeOf(read(bodyOf({ nonce: 1.5 }))), ['nonce'])[0]?.code).toBe('BASE_TYPE_STRING');
    expect(leavesAt(treeOf(read(bodyOf({ session_id: 's'.repeat(129) }))), ['session_id'])[0]?.code).toBe(
      'BASE_TYPE_BAD_LENGTH',
    );
  });

  it('refuses U+0000 anywhere, at its path', () => {
    const tree = treeOf(read(bodyOf({}, { options: [{ name: 'text', type: 3, value: 'a\u0000b' }] })));
    expect(errorsIn(tree)).toEqual([{ path: 'data.options.0.value', code: 'STRING_TYPE_NUL_CHARACTER' }]);
  });

  it('type-checks the option tree: a list of objects with a name, 25 at most per level', () => {
    expect(errorsIn(treeOf(read(bodyOf({}, { options: { name: 'x' } }))))).toEqual([
      { path: 'data.options', code: 'LIST_TYPE_CONVERT' },
    ]);
    expect(errorsIn(treeOf(read(bodyOf({}, { options: [{ name: 'a' }, 7] }))))).toEqual([
      { path: 'data.options.1', code: 'MODEL_TYPE_CONVERT' },
    ]);
    expect(
      errorsIn(treeOf(read(bodyOf({}, { options: [{ type: 3, value: 'x', focused: 'yes' }] })))),
    ).toEqual([
      { path: 'data.options.0.name', code: 'BASE_TYPE_REQUIRED' },
      { path: 'data.options.0.focused', code: 'BASE_TYPE_BOOLEAN' },
    ]);
    const many = Array.from({ length: 26 }, (_, i) => ({ name: `o${i}`, value: i }));
    expect(errorsIn(treeOf(read(bodyOf({}, { options: many }))))).toEqual([
      { path: 'data.options', code: 'BASE_TYPE_MAX_LENGTH' },
    ]);
  });

  it('stops at three levels of options', () => {
    const deep = [
      { name: 'g', options: [{ name: 's', options: [{ name: 'v', options: [{ name: 'x' }] }] }] },
    ];
    expect(errorsIn(treeOf(read(bodyOf({}, { options: deep }))))).toEqual([
      {
        path: 'data.options.0.options.0.options.0.options',
        code: 'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID',
      },
    ]);
  });
});
