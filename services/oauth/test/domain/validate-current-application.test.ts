import { createHash } from 'node:crypto';
import {
  validateApplicationPatch,
  validateCurrentApplicationPatch,
} from '../../src/domain/validate-application-body';
import { formErrorsOf, oneError } from '../support/form-errors-of';

/** PATCH /applications/@me's body: the fields a bot may edit, read as the admin PATCH reads them. */
const edit = (body: Record<string, unknown>) => validateCurrentApplicationPatch(body);
const errorsOf = (body: Record<string, unknown>) => formErrorsOf(() => edit(body));

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const pngUri = `data:image/png;base64,${PNG.toString('base64')}`;
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

describe('validateCurrentApplicationPatch', () => {
  it('reads every field a bot may edit', () => {
    expect(
      edit({
        description: 'Plays music',
        icon: pngUri,
        cover_image: null,
        interactions_endpoint_url: 'https://bot.example/interactions',
        role_connections_verification_url: 'https://bot.example/verify',
        install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
        integration_types_config: {
          '0': { oauth2_install_params: { scopes: ['bot'], permissions: 8 } },
          '1': null,
        },
        flags: 1 << 19,
        tags: ['music', 'fun'],
        custom_install_url: 'https://bot.example/install',
        event_webhooks_url: 'https://bot.example/events',
        event_webhooks_status: 2,
        event_webhooks_types: ['APPLICATION_AUTHORIZED'],
      }),
    ).toEqual({
      description: 'Plays music',
      iconHash: md5(PNG),
      coverImageHash: null,
      interactionsEndpointUrl: 'https://bot.example/interactions',
      roleConnectionsVerificationUrl: 'https://bot.example/verify',
      installParams: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      integrationTypes: [0, 1],
      integrationInstallParams: { '0': { scopes: ['bot'], permissions: '8' } },
      flags: 1 << 19,
      flagsMask: (1 << 13) | (1 << 15) | (1 << 19),
      tags: ['music', 'fun'],
      customInstallUrl: 'https://bot.example/install',
      eventWebhooksUrl: 'https://bot.example/events',
      eventWebhooksEnabled: true,
      eventWebhooksTypes: ['APPLICATION_AUTHORIZED'],
    });
  });

  it('ignores what only the admin API sets, as Discord ignores fields it does not take', () => {
    expect(
      edit({
        name: 'Renamed',
        owner_id: '1',
        redirect_uris: ['x'],
        public_client: true,
        integration_types: [1],
      }),
    ).toEqual({});
    expect(edit({})).toEqual({});
  });

  it('clears the nullable fields with null', () => {
    expect(
      edit({
        description: null,
        icon: null,
        interactions_endpoint_url: null,
        role_connections_verification_url: null,
        install_params: null,
        tags: null,
        custom_install_url: null,
        event_webhooks_url: null,
      }),
    ).toEqual({
      description: '',
      iconHash: null,
      interactionsEndpointUrl: null,
      roleConnectionsVerificationUrl: null,
      installParams: null,
      tags: [],
      customInstallUrl: null,
      eventWebhooksUrl: null,
    });
  });

  it('refuses bad values the way the admin PATCH does, field by field', () => {
    const shared = {
      interactions_endpoint_url: 'ftp://bot.example/i',
      event_webhooks_url: 12,
      event_webhooks_types: ['NOPE'],
      flags: -1,
    };
    const fromBot = errorsOf(shared);
    expect(fromBot).toEqual(formErrorsOf(() => validateApplicationPatch(shared)));
    expect(Object.keys(fromBot).sort()).toEqual([
      'event_webhooks_types',
      'event_webhooks_url',
      'flags',
      'interactions_endpoint_url',
    ]);
  });

  it('takes a description as a string or as {default, localizations}, at most 400 characters', () => {
    expect(edit({ description: { default: 'Hi', localizations: { fr: 'Salut' } } })).toEqual({
      description: 'Hi',
    });
    expect(errorsOf({ description: 'x'.repeat(401) })).toEqual(
      oneError(['description'], 'BASE_TYPE_MAX_LENGTH', 'Must be 400 or fewer in length.'),
    );
    expect(errorsOf({ description: {} })).toEqual(
      oneError(['description', 'default'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
    expect(errorsOf({ description: 5 })).toEqual(
      oneError(['description'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType'),
    );
  });

  it('takes images as base64 data URIs only', () => {
    for (const icon of [
      'https://cdn.example/icon.png',
      'data:image/png;base64,',
      'data:text/plain;base64,aGk=',
    ]) {
      expect(errorsOf({ icon })).toEqual(oneError(['icon'], 'IMAGE_INVALID', 'Invalid image data'));
    }
    expect(edit({ cover_image: `data:image/jpeg;base64,${PNG.toString('base64')}` })).toEqual({
      coverImageHash: md5(PNG),
    });
  });

  it('takes at most 5 tags of at most 20 characters, each once', () => {
    expect(Object.keys(errorsOf({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }))).toEqual(['tags']);
    expect(errorsOf({ tags: ['x'.repeat(21)] })).toEqual({
      tags: {
        '0': { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 20 in length.' }] },
      },
    });
    expect(errorsOf({ tags: ['a', 'a'] })).toEqual({
      tags: {
        '1': {
          _errors: [
            { code: 'SET_TYPE_ALREADY_CONTAINS_VALUE', message: 'The set already contains this value' },
          ],
        },
      },
    });
  });

  it('checks install params: scopes of applications.commands and bot, permissions bounded before any big-number work', () => {
    expect(Object.keys(errorsOf({ install_params: { scopes: ['identify'] } }))).toEqual(['install_params']);
    expect(errorsOf({ install_params: { permissions: '8' } })).toEqual({
      install_params: {
        scopes: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
      },
    });
    expect(edit({ install_params: { scopes: ['bot'] } })).toEqual({
      installParams: { scopes: ['bot'], permissions: '0' },
    });
    const bigInt = jest.spyOn(globalThis, 'BigInt');
    try {
      for (const [permissions, code] of [
        ['9'.repeat(1_000_000), 'NUMBER_TYPE_MAX'],
        [String(2n ** 54n), 'NUMBER_TYPE_MAX'],
        ['-1', 'NUMBER_TYPE_MIN'],
        [1.5, 'NUMBER_TYPE_COERCE'],
      ] as const) {
        expect(errorsOf({ install_params: { scopes: ['bot'], permissions } })).toMatchObject({
          install_params: { permissions: { _errors: [{ code }] } },
        });
      }
      // No number longer than the largest allowed one ever reaches BigInt (2^54 does, and is refused).
      expect(bigInt).toHaveBeenCalled();
      const longest = Math.max(...bigInt.mock.calls.map(([value]) => String(value).length));
      expect(longest).toBeLessThanOrEqual(17);
    } finally {
      bigInt.mockRestore();
    }
  });

  it('checks integration_types_config: keys "0" and "1", one or both', () => {
    expect(edit({ integration_types_config: { '1': {} } })).toEqual({
      integrationTypes: [1],
      integrationInstallParams: {},
    });
    expect(errorsOf({ integration_types_config: { '2': {} } })).toEqual(
      oneError(['integration_types_config'], 'BASE_TYPE_CHOICES', `Key "2" must be one of ('0', '1').`),
    );
    expect(Object.keys(errorsOf({ integration_types_config: {} }))).toEqual(['integration_types_config']);
    expect(errorsOf({ integration_types_config: { _errors: {} } })).toEqual(
      oneError(['integration_types_config'], 'BASE_TYPE_CHOICES', `Key "_errors" must be one of ('0', '1').`),
    );
  });

  it('takes event_webhooks_status 1 (off) or 2 (on), never 3, which only the service sets', () => {
    expect(edit({ event_webhooks_status: 1 })).toEqual({ eventWebhooksEnabled: false });
    expect(errorsOf({ event_webhooks_status: 3 })).toEqual(
      oneError(['event_webhooks_status'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2).'),
    );
  });
});
