import type { oauth } from '@acs/protos';
import { createApp, type OAuthTestEnv } from './oauth-test-env';

/** An application as a client of the token endpoint: its id and secret. */
export interface TestClient {
  id: string;
  secret: string;
}

/**
 * The steps of an OAuth2 client through the handlers, for tests that build credentials:
 * an app owned by `owner()`, a code `user()` consents to, and token requests with the
 * secret in the form. Arguments are read when a step runs (tests set them in beforeAll).
 */
export function clientFlows(context: {
  env: () => OAuthTestEnv;
  owner: () => string;
  user: () => string;
  redirectUri: string;
}) {
  const { env, owner, user, redirectUri } = context;

  async function newApp(name: string): Promise<TestClient> {
    const json = await createApp(env().handlers, { name, redirect_uris: [redirectUri], owner_id: owner() });
    return { id: json.id as string, secret: json.client_secret as string };
  }

  /** A code for `identify`, as the consent page issues it. */
  async function authorize(client: TestClient): Promise<string> {
    const answer = await env().handlers.Authorize({
      body_json: JSON.stringify({
        client_id: client.id,
        user_id: user(),
        scope: 'identify',
        redirect_uri: redirectUri,
      }),
    });
    if (!answer.code) throw new Error('no code was issued');
    return answer.code;
  }

  function exchange(
    client: TestClient,
    params: Record<string, string>,
  ): Promise<oauth.ExchangeTokenResponse> {
    return env().handlers.ExchangeToken({
      params,
      client_id: client.id,
      client_secret: client.secret,
      auth_method: 'CLIENT_AUTH_METHOD_POST',
      issuer: '',
    });
  }

  return { newApp, authorize, exchange };
}
