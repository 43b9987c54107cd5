import { MalformedJsonError, parseJsonObject } from '@acs/discord-errors';
import { validateApplicationPatch, validateNewApplication } from '../../src/domain/validate-application-body';
import { formErrorsOf, oneError } from '../support/form-errors-of';

const create = (body: unknown) => formErrorsOf(() => validateNewApplication(body as Record<string, unknown>));
const patch = (body: unknown) =>
  formErrorsOf(() => validateApplicationPatch(body as Record<string, unknown>));

describe('parseJsonBody', () => {
  it('answers 50109 for a body that is not JSON', () => {
    expect(() => parseJsonObject('{"name": ')).toThrow(MalformedJsonError);
    try {
      parseJsonObject('nope');
    } catch (error) {
      expect((error as MalformedJsonError).toBody()).toEqual({
        code: 50109,
        message: 'The request body contains invalid JSON.',
      });
      expect((error as MalformedJsonError).httpStatus).toBe(400);
    }
  });

  it.each(['[]', '"text"', '12', 'null', 'true'])('answers a request-level 50035 for %s', (text) => {
    expect(formErrorsOf(() => parseJsonObject(text))).toEqual({
      _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
    });
  });

  it('reads an empty body as an empty object', () => {
    expect(parseJsonObject('')).toEqual({});
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
  });
});

describe('validateNewApplication', () => {
  it('applies the defaults', () => {
    expect(validateNewApplication({ name: 'My App' })).toEqual({
      name: 'My App',
      flags: 0,
      integrationTypes: [0],
      redirectUris: [],
      interactionsEndpointUrl: null,
      eventWebhooksUrl: null,
      eventWebhooksTypes: [],
      publicClient: false,
      ownerId: null,
    });
  });

  it('reads every field', () => {
    expect(
      validateNewApplication({
        name: 'Full',
        flags: 1 << 17,
        integration_types: [1, 0],
        redirect_uris: ['https://app.example/cb', 'com.example.app:/oauth', 'https://app.example/cb'],
        interactions_endpoint_url: 'https://app.example/interactions',
        event_webhooks_url: 'http://127.0.0.1:8080/events',
        event_webhooks_types: ['APPLICATION_AUTHORIZED', 'LOBBY_MESSAGE_CREATE'],
        public_client: true,
        owner_id: '80351110224678912',
        unknown_field: 'ignored',
      }),
    ).toEqual({
      name: 'Full',
      flags: 131072,
      integrationTypes: [0, 1],
      redirectUris: ['https://app.example/cb', 'com.example.app:/oauth'],
      interactionsEndpointUrl: 'https://app.example/interactions',
      eventWebhooksUrl: 'http://127.0.0.1:8080/events',
      eventWebhooksTypes: ['APPLICATION_AUTHORIZED', 'LOBBY_MESSAGE_CREATE'],
      publicClient: true,
      ownerId: '80351110224678912',
    });
  });

  it('requires a name', () => {
    expect(create({})).toEqual(oneError(['name'], 'BASE_TYPE_REQUIRED', 'This field is required'));
    expect(create({ name: null })).toEqual(
      oneError(['name'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
  });

  it.each(['a', 'x'.repeat(33), ''])('refuses the name %p by length', (name) => {
    expect(create({ name })).toEqual(
      oneError(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 32 in length.'),
    );
  });

  it('counts code points, not UTF-16 units', () => {
    expect(validateNewApplication({ name: '😀'.repeat(32) }).name).toHaveLength(64);
  });

  it('refuses a name that is not a string', () => {
    expect(create({ name: 42 })).toEqual(
      oneError(['name'], 'BASE_TYPE_STRING', 'Could not interpret "42" as string.'),
    );
  });

  it.each([
    [-1, 'NUMBER_TYPE_MIN', 'int value should be greater than or equal to 0.'],
    [1.5, 'NUMBER_TYPE_COERCE', 'Value "1.5" is not int.'],
    ['8', 'NUMBER_TYPE_COERCE', 'Value "8" is not int.'],
  ])('refuses flags %p', (flags, code, message) => {
    expect(create({ name: 'App', flags })).toEqual(oneError(['flags'], code, message));
  });

  it('checks integration_types item by item', () => {
    expect(create({ name: 'App', integration_types: [0, 2, 0, 'x'] })).toEqual({
      integration_types: {
        '1': { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (0, 1).' }] },
        '2': {
          _errors: [
            { code: 'SET_TYPE_ALREADY_CONTAINS_VALUE', message: 'The set already contains this value' },
          ],
        },
        '3': { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not int.' }] },
      },
    });
    expect(create({ name: 'App', integration_types: [] })).toEqual(
      oneError(['integration_types'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.'),
    );
    expect(create({ name: 'App', integration_types: 0 })).toEqual(
      oneError(['integration_types'], 'LIST_TYPE_CONVERT', 'Only iterables may be used in a ListType'),
    );
  });

  it('accepts at most 10 redirect URIs', () => {
    const uris = Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`);
    expect(create({ name: 'App', redirect_uris: uris })).toEqual(
      oneError(['redirect_uris'], 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.'),
    );
    expect(
      validateNewApplication({ name: 'App', redirect_uris: uris.slice(0, 10) }).redirectUris,
    ).toHaveLength(10);
  });

  it('checks each redirect URI', () => {
    expect(
      create({
        name: 'App',
        redirect_uris: [
          'https://ok.example/cb',
          'not a url',
          'javascript:alert(1)',
          'https://a.example/cb#frag',
          7,
          'https://',
        ],
      }),
    ).toEqual({
      redirect_uris: {
        '1': { _errors: [{ code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' }] },
        '2': {
          _errors: [{ code: 'URL_TYPE_INVALID_SCHEME', message: 'Scheme "javascript" is not supported.' }],
        },
        '3': {
          _errors: [
            { code: 'URL_TYPE_FRAGMENT_NOT_ALLOWED', message: 'A redirect URI must not contain a fragment.' },
          ],
        },
        '4': { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Could not interpret "7" as string.' }] },
        '5': { _errors: [{ code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' }] },
      },
    });
  });

  it.each([
    ['interactions_endpoint_url', '/relative', 'URL_TYPE_INVALID_URL', 'Not a well formed URL.'],
    ['interactions_endpoint_url', 'example.com/x', 'URL_TYPE_INVALID_URL', 'Not a well formed URL.'],
    [
      'event_webhooks_url',
      'ftp://files.example/x',
      'URL_TYPE_INVALID_SCHEME',
      `Scheme "ftp" is not supported. Scheme must be one of ('http', 'https').`,
    ],
    ['event_webhooks_url', ' https://a.example', 'URL_TYPE_INVALID_URL', 'Not a well formed URL.'],
  ])('refuses %s %p', (field, url, code, message) => {
    expect(create({ name: 'App', [field]: url })).toEqual(oneError([field], code, message));
  });

  it('refuses a URL longer than 2048 characters', () => {
    const url = `https://a.example/${'x'.repeat(2040)}`;
    expect(create({ name: 'App', interactions_endpoint_url: url })).toEqual(
      oneError(['interactions_endpoint_url'], 'BASE_TYPE_MAX_LENGTH', 'Must be 2048 or fewer in length.'),
    );
  });

  it('knows the webhook event types', () => {
    const tree = create({ name: 'App', event_webhooks_types: ['APPLICATION_AUTHORIZED', 'MESSAGE_CREATE'] });
    expect(tree).toEqual({
      event_webhooks_types: {
        '1': {
          _errors: [
            {
              code: 'BASE_TYPE_CHOICES',
              message: expect.stringMatching(
                /^Value must be one of \('APPLICATION_AUTHORIZED', .*'GAME_DIRECT_MESSAGE_DELETE'\)\.$/,
              ),
            },
          ],
        },
      },
    });
  });

  it('refuses a non-boolean public_client and a malformed owner_id', () => {
    expect(create({ name: 'App', public_client: 'yes', owner_id: 'me' })).toEqual({
      public_client: { _errors: [{ code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' }] },
      owner_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "me" is not snowflake.' }] },
    });
  });

  it('reports every bad field at once', () => {
    expect(
      Object.keys(create({ name: 'x', flags: -1, redirect_uris: 'https://a.example', public_client: 1 })),
    ).toEqual(['name', 'flags', 'redirect_uris', 'public_client']);
  });
});

describe('validateApplicationPatch', () => {
  it('returns only the fields given', () => {
    expect(validateApplicationPatch({})).toEqual({});
    expect(validateApplicationPatch({ name: 'Renamed', flags: 0 })).toEqual({ name: 'Renamed', flags: 0 });
  });

  it('clears the nullable fields with null and ignores null elsewhere', () => {
    expect(
      validateApplicationPatch({
        interactions_endpoint_url: null,
        event_webhooks_url: null,
        owner_id: null,
        name: null,
      }),
    ).toEqual({ interactionsEndpointUrl: null, eventWebhooksUrl: null, ownerId: null });
  });

  it('validates like creation', () => {
    expect(patch({ name: 'x' })).toEqual(
      oneError(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 32 in length.'),
    );
  });
});
