import { buildLocation } from '../../src/domain/build-location';
import { planAuthorization } from '../../src/domain/plan-authorization';
import { validateAuthorizeBody, type AuthorizeInput } from '../../src/domain/validate-authorize-body';
import { formErrorsOf, oneError } from '../support/form-errors-of';

const CLIENT = '1000000000000000001';
const USER = '1000000000000000002';
const GUILD = '1000000000000000003';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const body = (extra: Record<string, unknown>) => ({ client_id: CLIENT, user_id: USER, ...extra });
const input = (extra: Record<string, unknown>): AuthorizeInput => validateAuthorizeBody(body(extra));
const errorsOf = (value: unknown) =>
  formErrorsOf(() => validateAuthorizeBody(value as Record<string, unknown>));

describe('validateAuthorizeBody', () => {
  it('reads a full consent', () => {
    expect(
      input({
        scope: 'identify  bot guilds identify',
        redirect_uri: 'https://app.example/cb',
        state: 'xyz',
        guild_id: GUILD,
        permissions: '2048',
        integration_type: 0,
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
      }),
    ).toEqual({
      clientId: CLIENT,
      userId: USER,
      scopes: ['identify', 'bot', 'guilds', 'applications.commands'],
      redirectUri: 'https://app.example/cb',
      state: 'xyz',
      guildId: GUILD,
      permissions: '2048',
      integrationType: 0,
      codeChallenge: CHALLENGE,
      codeChallengeMethod: 'S256',
      nonce: null,
    });
  });

  it('requires client_id, user_id and scope', () => {
    expect(errorsOf({})).toEqual({
      client_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
      user_id: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
      scope: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    });
    expect(errorsOf(body({ scope: '   ' }))).toEqual(
      oneError(['scope'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
  });

  it('refuses unknown scopes, one error each', () => {
    expect(errorsOf(body({ scope: 'identify admin applications.commands.update' }))).toEqual({
      scope: {
        _errors: [
          { code: 'BASE_TYPE_CHOICES', message: 'Value "admin" is not a valid scope.' },
          {
            code: 'BASE_TYPE_CHOICES',
            message:
              'Scope "applications.commands.update" is granted only through the client credentials grant.',
          },
        ],
      },
    });
  });

  it('refuses malformed ids, permissions and integration types', () => {
    expect(
      errorsOf({
        client_id: 'abc',
        user_id: -1,
        scope: 'bot',
        guild_id: '1e3',
        permissions: '-8',
        integration_type: 2,
      }),
    ).toEqual({
      client_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "abc" is not snowflake.' }] },
      user_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "-1" is not snowflake.' }] },
      guild_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "1e3" is not snowflake.' }] },
      permissions: {
        _errors: [{ code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 0.' }],
      },
      integration_type: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (0, 1).' }] },
    });
  });

  it('accepts only S256 PKCE', () => {
    expect(
      errorsOf(body({ scope: 'identify', code_challenge: CHALLENGE, code_challenge_method: 'plain' })),
    ).toEqual(oneError(['code_challenge_method'], 'BASE_TYPE_CHOICES', "Value must be one of ('S256')."));
    expect(errorsOf(body({ scope: 'identify', code_challenge: CHALLENGE }))).toEqual(
      oneError(
        ['code_challenge_method'],
        'BASE_TYPE_REQUIRED',
        'This field is required: the default method "plain" is not supported, use "S256".',
      ),
    );
    expect(errorsOf(body({ scope: 'identify', code_challenge_method: 'S256' }))).toEqual(
      oneError(['code_challenge'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
    expect(
      errorsOf(body({ scope: 'identify', code_challenge: 'short', code_challenge_method: 'S256' })),
    ).toEqual(oneError(['code_challenge'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 43 and 128 in length.'));
    expect(
      errorsOf(
        body({ scope: 'identify', code_challenge: `${CHALLENGE.slice(1)}=`, code_challenge_method: 'S256' }),
      ),
    ).toEqual(
      oneError(['code_challenge'], 'STRING_TYPE_REGEX', 'String value did not match validation regex.'),
    );
  });
});

describe('planAuthorization', () => {
  const app = { integrationTypes: [0, 1] as (0 | 1)[], redirectUris: ['https://app.example/cb'] };
  const plan = (extra: Record<string, unknown>, target = app) => planAuthorization(input(extra), target);
  const planErrors = (extra: Record<string, unknown>, target = app) =>
    formErrorsOf(() => plan(extra, target));

  it('installs in a guild for bot, without a code', () => {
    expect(plan({ scope: 'bot', guild_id: GUILD })).toEqual({
      scopes: ['bot', 'applications.commands'],
      install: { type: 0, guildId: GUILD },
      installScopes: ['bot', 'applications.commands'],
      issueCode: false,
      redirectUri: null,
    });
  });

  it('needs a guild for a guild install', () => {
    expect(planErrors({ scope: 'applications.commands' })).toEqual(
      oneError(['guild_id'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
  });

  it('installs to the user with integration type 1', () => {
    expect(plan({ scope: 'applications.commands identify', integration_type: 1 })).toEqual({
      scopes: ['applications.commands', 'identify'],
      install: { type: 1, userId: USER },
      installScopes: ['applications.commands'],
      issueCode: true,
      redirectUri: 'https://app.example/cb',
    });
  });

  it('refuses bot with integration type 1 and a type the app does not support', () => {
    expect(planErrors({ scope: 'bot', integration_type: 1 })).toEqual(
      oneError(['integration_type'], 'BASE_TYPE_CHOICES', 'Value must be one of (0).'),
    );
    expect(
      planErrors({ scope: 'applications.commands', integration_type: 1 }, { ...app, integrationTypes: [0] }),
    ).toEqual(oneError(['integration_type'], 'BASE_TYPE_CHOICES', 'Value must be one of (0).'));
  });

  it('matches redirect URIs exactly', () => {
    expect(planErrors({ scope: 'identify', redirect_uri: 'https://app.example/cb/' })).toEqual(
      oneError(['redirect_uri'], 'OAUTH2_INVALID_REDIRECT_URI', 'Invalid OAuth2 redirect_uri'),
    );
    expect(planErrors({ scope: 'bot', guild_id: GUILD, redirect_uri: 'https://evil.example/cb' })).toEqual(
      oneError(['redirect_uri'], 'OAUTH2_INVALID_REDIRECT_URI', 'Invalid OAuth2 redirect_uri'),
    );
  });

  it('accepts the Social SDK redirects: its default scheme, registered custom schemes, loopback on any port', () => {
    const sdk = {
      ...app,
      redirectUris: ['http://127.0.0.1/callback', 'mygame:/authorize/callback', 'http://[::1]/cb'],
    };
    const pkce = { code_challenge: CHALLENGE, code_challenge_method: 'S256' };
    for (const uri of [
      `discord-${CLIENT}:/authorize/callback`,
      'mygame:/authorize/callback',
      'http://127.0.0.1:42149/callback',
      'http://127.0.0.1/callback',
      'http://[::1]:5000/cb',
    ]) {
      expect(plan({ scope: 'identify', redirect_uri: uri, ...pkce }, sdk).redirectUri).toBe(uri);
    }
    for (const uri of [
      'discord-1:/authorize/callback',
      `discord-${CLIENT}:/authorize/callback/`,
      'othergame:/authorize/callback',
      'http://127.0.0.1:42149/callback/',
      'http://127.0.0.1:42149/other',
      'https://127.0.0.1:42149/callback',
      'http://localhost:42149/callback',
      'http://127.0.0.2:42149/callback',
    ]) {
      expect([uri, planErrors({ scope: 'identify', redirect_uri: uri, ...pkce }, sdk)]).toEqual([
        uri,
        oneError(['redirect_uri'], 'OAUTH2_INVALID_REDIRECT_URI', 'Invalid OAuth2 redirect_uri'),
      ]);
    }
  });

  it('requires PKCE for a code to a custom-scheme redirect, not for loopback or https', () => {
    const sdk = { ...app, redirectUris: ['http://127.0.0.1/callback', 'mygame:/authorize/callback'] };
    for (const uri of [`discord-${CLIENT}:/authorize/callback`, 'mygame:/authorize/callback']) {
      expect(planErrors({ scope: 'identify', redirect_uri: uri }, sdk)).toEqual(
        oneError(
          ['code_challenge'],
          'BASE_TYPE_REQUIRED',
          'A PKCE code_challenge (S256) is required for a custom-scheme redirect_uri.',
        ),
      );
    }
    expect(plan({ scope: 'identify', redirect_uri: 'http://127.0.0.1:9/callback' }, sdk).issueCode).toBe(
      true,
    );
    expect(plan({ scope: 'identify', redirect_uri: 'https://app.example/cb' }).issueCode).toBe(true);
  });

  it('needs a redirect URI for a code unless exactly one is registered', () => {
    const two = { ...app, redirectUris: ['https://a.example/cb', 'https://b.example/cb'] };
    expect(planErrors({ scope: 'identify' }, two)).toEqual(
      oneError(['redirect_uri'], 'BASE_TYPE_REQUIRED', 'This field is required'),
    );
    expect(plan({ scope: 'identify', redirect_uri: 'https://b.example/cb' }, two).redirectUri).toBe(
      'https://b.example/cb',
    );
    expect(planErrors({ scope: 'identify' }, { ...app, redirectUris: [] })).toEqual(
      oneError(['redirect_uri'], 'OAUTH2_INVALID_REDIRECT_URI', 'Invalid OAuth2 redirect_uri'),
    );
  });
});

describe('buildLocation', () => {
  const none = { redirectUri: null, code: null, state: null, guildId: null, permissions: null };

  it('is empty without a redirect URI', () => {
    expect(buildLocation({ ...none, code: 'abc', state: 's' })).toBe('');
  });

  it('appends code and state, URL-encoded', () => {
    expect(
      buildLocation({ ...none, redirectUri: 'https://app.example/cb', code: 'c0de', state: 'a b&c=d' }),
    ).toBe('https://app.example/cb?code=c0de&state=a+b%26c%3Dd');
  });

  it('keeps the query a redirect URI already has', () => {
    expect(buildLocation({ ...none, redirectUri: 'https://app.example/cb?x=1', code: 'c' })).toBe(
      'https://app.example/cb?x=1&code=c',
    );
  });

  it('carries guild_id and permissions after a bot install, and stays bare with nothing to add', () => {
    expect(
      buildLocation({
        ...none,
        redirectUri: 'https://app.example/cb',
        guildId: GUILD,
        permissions: '8',
        state: 's',
      }),
    ).toBe(`https://app.example/cb?state=s&guild_id=${GUILD}&permissions=8`);
    expect(buildLocation({ ...none, redirectUri: 'https://app.example/cb' })).toBe('https://app.example/cb');
  });
});
