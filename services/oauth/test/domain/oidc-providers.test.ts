import { DiscordError } from '@acs/discord-errors';
import {
  checkIdTokenClaims,
  issuerRefusal,
  readDiscoveryDocument,
  validateOidcProvider,
} from '../../src/domain/oidc-providers';

describe('issuerRefusal', () => {
  it.each([
    ['https://issuer.example', false, null],
    ['https://auth.issuer.example:8443/tenant/', false, null],
    ['http://127.0.0.1:4000', true, null],
    ['http://127.0.0.1:4000', false, 'The issuer must be an https URL.'],
    ['http://issuer.example', true, 'The issuer must be an https URL.'],
    ['https://10.1.2.3', false, 'The issuer must not be an IP address.'],
    ['https://[::1]', false, 'The issuer must not be an IP address.'],
    ['https://localhost', false, 'The issuer’s host needs at least two labels.'],
    ['https://printer.local', false, 'The issuer’s host must be a public name.'],
    ['https://x.in-addr.arpa', false, 'The issuer’s host must be a public name.'],
    ['https://a.b.localhost', false, 'The issuer’s host must be a public name.'],
    ['https://issuer.example?', false, 'The issuer must not have a query or a fragment.'],
    ['https://u:p@issuer.example', false, 'The issuer must not carry credentials.'],
  ])('%s (loopback allowed: %s) → %s', (issuer, allow, refusal) => {
    expect(issuerRefusal(issuer, allow)).toBe(refusal);
  });

  it('is what the admin PUT checks, with the audience', () => {
    expect(validateOidcProvider({ issuer: 'https://issuer.example', audience: 'game' }, false)).toEqual({
      issuer: 'https://issuer.example',
      audience: 'game',
    });
    expect(() => validateOidcProvider({ issuer: 'https://localhost' }, true)).toThrow(DiscordError);
  });
});

describe('readDiscoveryDocument', () => {
  const issuer = 'https://issuer.example';
  it('answers the jwks_uri of a document that names the issuer and a supported algorithm', () => {
    expect(
      readDiscoveryDocument(
        JSON.stringify({
          issuer,
          jwks_uri: `${issuer}/keys`,
          id_token_signing_alg_values_supported: ['HS256', 'ES256'],
        }),
        issuer,
        false,
      ),
    ).toBe(`${issuer}/keys`);
  });
  it.each([
    ['[]'],
    ['not json'],
    [JSON.stringify({ issuer: 'https://other.example', jwks_uri: `${issuer}/keys` })],
    [JSON.stringify({ issuer, jwks_uri: 'http://issuer.example/keys' })],
    [
      JSON.stringify({
        issuer,
        jwks_uri: `${issuer}/keys`,
        id_token_signing_alg_values_supported: ['HS256'],
      }),
    ],
    [JSON.stringify({ issuer })],
  ])('refuses %s with 530008', (text) => {
    expect(() => readDiscoveryDocument(text, issuer, false)).toThrow(
      expect.objectContaining({ code: 530008 }),
    );
  });
});

describe('checkIdTokenClaims', () => {
  const now = new Date('2026-11-28T10:00:00Z');
  const t = Math.floor(now.getTime() / 1000);
  const expected = { issuer: 'https://issuer.example', audience: 'game' };
  const good = { iss: expected.issuer, aud: 'game', sub: 's', iat: t, exp: t + 60 };
  it.each([
    [{ iss: 'https://issuer.example/' }, 530002],
    [{ aud: ['other'] }, 530003],
    [{ exp: undefined }, 530001],
    [{ exp: t - 61 }, 530001],
    [{ iat: undefined }, 530004],
    [{ iat: t - 7 * 86400 - 1 }, 530004],
    [{ iat: t + 3600 }, 530004],
    [{ sub: '' }, 530020],
    [{ sub: 'x'.repeat(1025) }, 530020],
  ])('%j → %d', (change, code) => {
    expect(() => checkIdTokenClaims({ ...good, ...change }, expected, now)).toThrow(
      expect.objectContaining({ code }),
    );
  });
  it('keeps a preferred_username of 1-32 characters only', () => {
    expect(checkIdTokenClaims({ ...good, preferred_username: 'Ann' }, expected, now)).toEqual({
      subject: 's',
      preferredUsername: 'Ann',
    });
    expect(
      checkIdTokenClaims({ ...good, preferred_username: 'x'.repeat(33) }, expected, now).preferredUsername,
    ).toBeNull();
  });
});
