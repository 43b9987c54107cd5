import { createPublicKey, verify } from 'node:crypto';
import { IdTokenKeyStore } from '../../src/store/id-token-key-store';
import { createApp, createOAuthTestEnv, createUser, type OAuthTestEnv } from '../support/oauth-test-env';

// ID tokens over a real database: both partner-sdk endpoints and a code exchange with
// `openid` sign one with the deployment's key, which GetIdTokenKeys publishes and which
// every replica (another store over the same database) agrees on.

const ISSUER = 'https://acs.example';
const REDIRECT = 'https://game.example/cb';

let env: OAuthTestEnv;
let app: { id: string; secret: string };
let userId = '';
beforeAll(async () => {
  env = await createOAuthTestEnv();
  const json = await createApp(env.handlers, { name: 'Game', redirect_uris: [REDIRECT] });
  app = { id: json.id as string, secret: json.client_secret as string };
  userId = (await createUser(env.handlers, { username: 'dana' })).id as string;
});
afterAll(() => env.close());

interface Jwk {
  kid: string;
  kty: string;
  n: string;
  e: string;
}

/** The claims of `token` once its signature checks out against the published keys. */
async function verified(token: string): Promise<Record<string, unknown>> {
  const { keys } = JSON.parse((await env.handlers.GetIdTokenKeys()).jwks_json as string) as { keys: Jwk[] };
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as {
    kid: string;
    alg: string;
  };
  expect(alg).toBe('RS256');
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) throw new Error(`no published key ${kid}`);
  const key = createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: 'jwk' });
  expect(
    verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')),
  ).toBe(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

describe('ID tokens', () => {
  it('answer the Bot Token Endpoint with an ID token for the provisional account', async () => {
    const answer = await env.handlers.IssueBotProvisionalToken({
      application_id: app.id,
      body_json: JSON.stringify({ external_user_id: 'p-oidc' }),
      issuer: ISSUER,
    });
    const body = JSON.parse(answer.token_json as string) as { access_token: string; id_token: string };
    const principal = await env.handlers.ResolveToken({
      kind: 'PRINCIPAL_KIND_BEARER',
      token: body.access_token,
    });
    const claims = await verified(body.id_token);
    expect(claims).toMatchObject({ iss: ISSUER, sub: principal.user_id, aud: [app.id] });
    expect(claims.exp).toBe((claims.iat as number) + 604800);
    expect(claims).not.toHaveProperty('nonce');
  });

  it('answer a code exchange with openid with one echoing the nonce, and one without openid with none', async () => {
    const code = async (scope: string, nonce?: string) =>
      (
        await env.handlers.Authorize({
          body_json: JSON.stringify({
            client_id: app.id,
            user_id: userId,
            scope,
            redirect_uri: REDIRECT,
            ...(nonce === undefined ? {} : { nonce }),
          }),
        })
      ).code as string;
    const exchange = async (value: string) =>
      env.handlers.ExchangeToken({
        params: { grant_type: 'authorization_code', code: value, redirect_uri: REDIRECT },
        client_id: app.id,
        client_secret: app.secret,
        auth_method: 'CLIENT_AUTH_METHOD_POST',
        issuer: `${ISSUER}/`,
      });
    const withOpenId = await exchange(await code('identify openid', 'n-0S6_WzA2Mj'));
    expect(await verified(withOpenId.id_token as string)).toMatchObject({
      iss: ISSUER,
      sub: userId,
      aud: [app.id],
      nonce: 'n-0S6_WzA2Mj',
    });
    expect((await exchange(await code('identify'))).id_token).toBe('');
  });

  it('is signed with one key that every replica agrees on, kept in the database', async () => {
    const replicas = [new IdTokenKeyStore(env.pool), new IdTokenKeyStore(env.pool)];
    const [a, b] = await Promise.all(replicas.map((store) => store.signingKey()));
    expect(a!.kid).toBe(b!.kid);
    expect((await env.deps.idTokenKeys.signingKey()).kid).toBe(a!.kid);
    const { rows } = await env.pool.query(`SELECT count(*)::int AS n FROM "oauth"."id_token_key"`);
    expect(rows[0].n).toBe(1);
  });

  it('refuses a nonce that is not a string or too long, issuing no code', async () => {
    for (const nonce of [42, 'n'.repeat(1025)]) {
      await expect(
        env.handlers.Authorize({
          body_json: JSON.stringify({
            client_id: app.id,
            user_id: userId,
            scope: 'openid',
            redirect_uri: REDIRECT,
            nonce,
          }),
        }),
      ).rejects.toMatchObject({ httpStatus: 400, code: 50035 });
    }
  });
});
