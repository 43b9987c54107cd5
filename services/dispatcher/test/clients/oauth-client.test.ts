import { DiscordError, UnauthorizedError, UnknownResourceError } from '@acs/discord-errors';
import { loadOAuthProto, type oauth } from '@acs/protos';
import {
  createGrpcClient,
  createGrpcServer,
  createLogger,
  PeerUnavailableError,
  type GrpcServer,
} from '@acs/service-kit';
import { createOAuthClient, type OAuthClient } from '../../src/clients/oauth-client';

const APP = '1500000000000000001';
const USER = '1500000000000000002';

let server: GrpcServer;
let grpcClient: oauth.OAuthServiceClient;
let client: OAuthClient;
/** RPCs the fake oauth answered, by name. */
const calls: string[] = [];
/** What the fake's GetEventWebhookSettings answers for APP, changed by the tests. */
let webhookUrl = 'https://example.com/events';

/** oauth at the network edge: one application with a bot token, one user; anything else is unknown. */
beforeAll(async () => {
  const proto = loadOAuthProto().acs.oauth.v1;
  server = createGrpcServer({
    logger: createLogger('fake-oauth', 'silent'),
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: proto.OAuthService.service,
        handlers: {
          async GetEventWebhookSettings(
            request: oauth.GetEventWebhookSettingsRequest__Output,
          ): Promise<oauth.GetEventWebhookSettingsResponse> {
            calls.push('GetEventWebhookSettings');
            if (request.application_id !== APP) throw new UnknownResourceError(10002, 'Unknown Application');
            return {
              event_webhooks_url: webhookUrl,
              event_webhooks_types: ['APPLICATION_AUTHORIZED'],
              verify_key: 'ab'.repeat(32),
              signing_key_pem: 'pem',
              flags: 8,
              bot_user_json: JSON.stringify({ id: APP, username: 'bot', bot: true }),
            };
          },
          async ResolveToken(
            request: oauth.ResolveTokenRequest__Output,
          ): Promise<oauth.ResolveTokenResponse> {
            if (request.kind === 'PRINCIPAL_KIND_USER_SESSION' && request.token === 'session')
              return { kind: 'PRINCIPAL_KIND_USER_SESSION', user_id: USER };
            if (request.kind !== 'PRINCIPAL_KIND_BOT' || request.token !== 'good')
              throw new UnauthorizedError();
            return { kind: 'PRINCIPAL_KIND_BOT', application_id: APP, user_id: APP };
          },
          async GetUser(request: oauth.GetUserRequest__Output): Promise<oauth.GetUserResponse> {
            calls.push('GetUser');
            if (request.user_id !== USER) throw new UnknownResourceError(10013, 'Unknown User');
            const user = {
              id: USER,
              username: 'someone',
              email: 'a@example.com',
              verified: true,
              locale: 'fr',
            };
            const shown = { id: USER, username: 'someone' };
            return { user_json: JSON.stringify(user), public_user_json: JSON.stringify(shown), locale: 'fr' };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const port = await server.listen('127.0.0.1:0');
  grpcClient = createGrpcClient(proto.OAuthService, `127.0.0.1:${port}`);
  client = createOAuthClient(grpcClient);
});

afterAll(async () => {
  grpcClient?.close();
  await server?.drain();
});

beforeEach(() => {
  calls.length = 0;
});

describe('createOAuthClient', () => {
  it("reads an application's settings, shared by concurrent askers and cached until forgotten", async () => {
    const [settings] = await Promise.all([client.settings(APP), client.settings(APP)]);
    expect(settings).toEqual({
      applicationId: APP,
      webhookUrl: 'https://example.com/events',
      webhookTypes: ['APPLICATION_AUTHORIZED'],
      verifyKey: 'ab'.repeat(32),
      signingKeyPem: 'pem',
      flags: 8,
      botUser: { id: APP, username: 'bot', bot: true },
    });
    webhookUrl = '';
    expect((await client.settings(APP)).webhookUrl).toBe('https://example.com/events');
    expect(calls).toEqual(['GetEventWebhookSettings']);
    client.forgetSettings(APP);
    expect((await client.settings(APP)).webhookUrl).toBeNull();
    expect(calls).toEqual(['GetEventWebhookSettings', 'GetEventWebhookSettings']);
  });

  it('asks oauth again for settings cached before `notBefore` (changed through another replica), and keeps the newer answer', async () => {
    client.forgetSettings(APP);
    webhookUrl = '';
    expect((await client.settings(APP)).webhookUrl).toBeNull();
    const cachedAt = new Date();
    await new Promise((r) => setTimeout(r, 5));
    // Another replica set the URL and forgot only its own cache; an event follows.
    webhookUrl = 'https://example.com/events';
    const eventAt = new Date();
    calls.length = 0;
    expect((await client.settings(APP)).webhookUrl).toBeNull();
    const [first, second] = await Promise.all([
      client.settings(APP, { notBefore: eventAt }),
      client.settings(APP, { notBefore: eventAt }),
    ]);
    expect([first.webhookUrl, second.webhookUrl]).toEqual([webhookUrl, webhookUrl]);
    expect(calls).toEqual(['GetEventWebhookSettings']);
    // The newer answer now serves later askers, and an earlier bound reuses it.
    expect((await client.settings(APP)).webhookUrl).toBe(webhookUrl);
    expect((await client.settings(APP, { notBefore: cachedAt })).webhookUrl).toBe(webhookUrl);
    expect(calls).toEqual(['GetEventWebhookSettings']);
  });

  it("rejects with oauth's own error for an application it does not know, and does not cache the failure", async () => {
    const unknown = '1500000000000000009';
    const failure = await client.settings(unknown).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiscordError);
    expect(failure).toMatchObject({ httpStatus: 404, code: 10002 });
    await client.settings(unknown).catch(() => undefined);
    expect(calls).toEqual(['GetEventWebhookSettings', 'GetEventWebhookSettings']);
  });

  it('resolves a bot token to its application, and an invalid token to undefined', async () => {
    await expect(client.resolveBotToken('good')).resolves.toBe(APP);
    await expect(client.resolveBotToken('bad')).resolves.toBeUndefined();
  });

  it('resolves a session token to its user, and neither kind of token as the other', async () => {
    await expect(client.resolveUserSession('session')).resolves.toBe(USER);
    await expect(client.resolveUserSession('good')).resolves.toBeUndefined();
    await expect(client.resolveBotToken('session')).resolves.toBeUndefined();
  });

  it("gives a user's public fields only, and the user whole to themselves", async () => {
    await expect(client.user(USER)).resolves.toEqual({ id: USER, username: 'someone' });
    await expect(client.user('1500000000000000008')).rejects.toMatchObject({ httpStatus: 404, code: 10013 });
    await expect(client.currentUser(USER)).resolves.toEqual({
      id: USER,
      username: 'someone',
      email: 'a@example.com',
      verified: true,
      locale: 'fr',
    });
  });

  it('rejects with 503 when oauth cannot be reached', async () => {
    const proto = loadOAuthProto().acs.oauth.v1;
    // Port 1: nothing listens there, the connection is refused.
    const down = createGrpcClient(proto.OAuthService, '127.0.0.1:1');
    try {
      await expect(createOAuthClient(down).botGuilds(APP)).rejects.toBeInstanceOf(PeerUnavailableError);
    } finally {
      down.close();
    }
  });
});
