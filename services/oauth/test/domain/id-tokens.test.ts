import { createPublicKey, verify } from 'node:crypto';
import {
  buildIdTokenClaims,
  DEFAULT_ISSUER,
  generateIdTokenKey,
  readIssuer,
  renderJwks,
  signIdToken,
  wantsIdToken,
} from '../../src/domain/id-tokens';

const AT = new Date('2026-11-28T06:00:00.000Z');
const base = {
  issuer: 'https://acs.example',
  userId: '1300000000000000007',
  applicationId: '1300000000000000001',
  issuedAt: AT,
  lifetimeSeconds: 604800,
  nonce: null,
};

describe('buildIdTokenClaims', () => {
  it('says iss, sub, aud (an array, as Discord), iat, exp and auth_time', () => {
    const iat = AT.getTime() / 1000;
    expect(buildIdTokenClaims(base)).toEqual({
      iss: 'https://acs.example',
      sub: '1300000000000000007',
      aud: ['1300000000000000001'],
      iat,
      exp: iat + 604800,
      auth_time: iat,
    });
  });

  it('echoes a nonce, and only when one was given', () => {
    expect(buildIdTokenClaims({ ...base, nonce: 'n-1' })).toMatchObject({ nonce: 'n-1' });
    expect(buildIdTokenClaims({ ...base, nonce: '' })).toMatchObject({ nonce: '' });
    expect(buildIdTokenClaims(base)).not.toHaveProperty('nonce');
  });
});

describe('signIdToken', () => {
  const key = generateIdTokenKey();

  it('signs an RS256 JWS with the kid that the JWKS publishes, verifiable with the public JWK', () => {
    const token = signIdToken({ sub: '1' }, key);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({
      alg: 'RS256',
      typ: 'JWT',
      kid: key.kid,
    });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toEqual({ sub: '1' });
    const publicKey = createPublicKey({ key: { ...key.publicJwk }, format: 'jwk' });
    expect(
      verify('sha256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(true);
    expect(
      verify('sha256', Buffer.from(`${header}.e30`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(false);
  });

  it('publishes RSA signing keys with alg RS256 and e AQAB, kid the JWK thumbprint', () => {
    expect(key.publicJwk).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256', e: 'AQAB', kid: key.kid });
    expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(renderJwks([key.publicJwk])).toEqual({ keys: [key.publicJwk] });
    expect(generateIdTokenKey().kid).not.toBe(key.kid);
  });
});

describe('readIssuer', () => {
  it('keeps an http(s) base URL without its trailing slash', () => {
    expect(readIssuer('https://acs.example/', DEFAULT_ISSUER)).toBe('https://acs.example');
    expect(readIssuer('http://127.0.0.1:40123', DEFAULT_ISSUER)).toBe('http://127.0.0.1:40123');
  });

  it.each([
    '',
    'not a url',
    'ftp://x.example',
    'https://u:p@x.example',
    'https://x.example/?q',
    'https://x.example/#f',
    `https://${'a'.repeat(2100)}.example`,
  ])('falls back for %j', (text) => {
    expect(readIssuer(text, DEFAULT_ISSUER)).toBe(DEFAULT_ISSUER);
  });
});

describe('wantsIdToken', () => {
  it('is the openid scope', () => {
    expect(wantsIdToken(['identify', 'openid'])).toBe(true);
    expect(wantsIdToken(['identify', 'sdk.social_layer'])).toBe(false);
  });
});
