import {
  capBody,
  describeFailure,
  describeRefusal,
  readExpiryWindow,
  readTimelinePage,
} from '../../../src/domain/timeline';

const TREE = {
  code: 50035,
  message: 'Invalid Form Body',
  errors: {
    data: {
      embeds: {
        '0': {
          title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 256 or fewer in length.' }] },
        },
      },
      content: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    },
  },
};

describe('describeFailure', () => {
  it('says each cause in one line', () => {
    expect(describeFailure({ kind: 'timeout' }, 3000)).toBe('the app did not answer within 3 s');
    expect(describeFailure({ kind: 'no_bot_session' }, 3000)).toBe(
      'the app did not answer within 3 s: no bot session was connected to receive INTERACTION_CREATE ' +
        '(the application has no interactions endpoint URL, so its interactions go to its bot over the gateway)',
    );
    expect(describeFailure({ kind: 'timeout' }, 3000, { status: 400, body: TREE })).toBe(
      'the app did not answer within 3 s; its callback was refused: 400 50035 Invalid Form Body: ' +
        'data.embeds.0.title: BASE_TYPE_MAX_LENGTH (Must be 256 or fewer in length.); ' +
        'data.content: BASE_TYPE_REQUIRED (This field is required)',
    );
    expect(
      describeFailure({ kind: 'endpoint', detail: 'the interactions endpoint answered 500' }, 3000),
    ).toBe('the interactions endpoint answered 500');
    expect(
      describeFailure(
        { kind: 'refused', status: 400, body: { code: 50006, message: 'Cannot send an empty message' } },
        3000,
      ),
    ).toBe("the endpoint's answer was refused: 400 50006 Cannot send an empty message");
  });

  it('copes with a body that is no Discord error', () => {
    expect(describeRefusal(500, null)).toBe('500');
    expect(describeRefusal(400, { errors: 'nonsense' })).toBe('400');
  });
});

describe('capBody', () => {
  it('keeps a small body as is, and a large one as a preview that says its size', () => {
    expect(capBody({ a: 1 })).toEqual({ a: 1 });
    expect(capBody(undefined)).toBeNull();
    const large = { content: 'x'.repeat(20_000) };
    const capped = capBody(large) as { truncated: boolean; bytes: number; preview: string };
    expect(capped).toMatchObject({ truncated: true, bytes: JSON.stringify(large).length });
    expect(capped.preview.length).toBe(2048);
  });
});

describe('the admin inputs', () => {
  it('reads a page: limit 1-100, 25 by default', () => {
    expect(readTimelinePage('', 0)).toEqual({ before: null, limit: 25 });
    expect(readTimelinePage('123', 100)).toEqual({ before: '123', limit: 100 });
    expect(() => readTimelinePage('', 101)).toThrow(expect.objectContaining({ code: 50035 }));
    expect(() => readTimelinePage('', -1)).toThrow(expect.objectContaining({ code: 50035 }));
  });

  it('reads a window: initial or token', () => {
    expect(readExpiryWindow({ window: 'initial' })).toBe('initial');
    expect(readExpiryWindow({ window: 'token' })).toBe('token');
    for (const bad of [null, [], {}, { window: 'soon' }, { window: 3 }]) {
      expect(() => readExpiryWindow(bad)).toThrow(expect.objectContaining({ code: 50035 }));
    }
  });
});
