import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { fieldError, UnauthorizedError, UnknownResourceError } from '@acs/discord-errors';
import { loadOAuthProto, loadPermissionsProto, type oauth, type permissions } from '@acs/protos';
import { createGrpcServer, createLogger, type GrpcServer } from '@acs/service-kit';
import { createAuthenticator } from '../../src/auth/create-authenticator';
import {
  closeBackendClients,
  createBackendClients,
  type BackendClients,
} from '../../src/clients/backend-clients';
import { createPeerClients } from '../../src/clients/peer-clients';
import { createServer } from '../../src/create-server';

// POST /users/@me/channels through the HTTP server, with oauth and permissions stood in for
// at the network edge: the recipients are asked of oauth before permissions opens anything
// (unknown → 400 / 50033), the body goes to permissions as sent, and the answer carries the
// others' user objects as other users see them.

const BOT = '1300000000000000001';
const ALICE = '1300000000000000010';
const BOB = '1300000000000000011';
const CAROL = '1300000000000000012';
const NOBODY = '1300000000000000099';
const DM = '1300000000000000500';
const GROUP = '1300000000000000501';

/** The tokens oauth knows, by kind. */
const PRINCIPALS: Record<string, oauth.ResolveTokenResponse> = {
  'bot.token': principal('PRINCIPAL_KIND_BOT', BOT),
  'alice.session': principal('PRINCIPAL_KIND_USER_SESSION', ALICE),
  'bearer.token': principal('PRINCIPAL_KIND_BEARER', ALICE, ['identify', 'guilds']),
};

function principal(
  kind: oauth.PrincipalKind,
  userId: string,
  scopes: string[] = [],
): oauth.ResolveTokenResponse {
  return {
    kind,
    application_id: BOT,
    user_id: userId,
    scopes,
    application_flags: 0,
    user_locale: '',
    cache_seconds: 60,
  };
}

/** A user as oauth's GetUser answers it: whole, private fields included. */
/** A user as oauth answers GetUser: whole (`user_json`) and as others see them (`public_user_json`). */
function userJson(id: string, username: string): { whole: string; shown: string } {
  const shown = {
    id,
    username,
    avatar: null,
    discriminator: '0',
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    global_name: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
  const whole = {
    ...shown,
    bot: false,
    mfa_enabled: false,
    locale: 'en-US',
    premium_type: 0,
    email: `${username}@example.test`,
    verified: true,
  };
  return { whole: JSON.stringify(whole), shown: JSON.stringify(shown) };
}
const USERS = new Map([
  [ALICE, userJson(ALICE, 'alice')],
  [BOB, userJson(BOB, 'bob')],
  [CAROL, userJson(CAROL, 'carol')],
]);

let oauthServer: GrpcServer;
let permissionsServer: GrpcServer;
let backends: BackendClients;
let http: Server;
let baseUrl: string;
const userLookups: string[] = [];
const opened: permissions.OpenDmChannelRequest__Output[] = [];

beforeAll(async () => {
  oauthServer = createGrpcServer({
    logger: createLogger('fake-oauth', 'silent'),
    services: [
      {
        name: 'acs.oauth.v1.OAuthService',
        definition: loadOAuthProto().acs.oauth.v1.OAuthService.service,
        handlers: {
          async ResolveToken(request: oauth.ResolveTokenRequest__Output) {
            const found = PRINCIPALS[request.token];
            if (!found || found.kind !== request.kind) throw new UnauthorizedError();
            return found;
          },
          async GetUser(request: oauth.GetUserRequest__Output) {
            userLookups.push(request.user_id);
            const user = USERS.get(request.user_id);
            if (!user) throw new UnknownResourceError(10013, 'Unknown User');
            return { user_json: user.whole, public_user_json: user.shown, locale: 'en-US' };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  // permissions' answers for the bodies the tests send: the DM of two users, a group DM,
  // and its 50035 for a body naming no user id.
  permissionsServer = createGrpcServer({
    logger: createLogger('fake-permissions', 'silent'),
    services: [
      {
        name: 'acs.permissions.v1.PermissionsService',
        definition: loadPermissionsProto().acs.permissions.v1.PermissionsService.service,
        handlers: {
          async OpenDmChannel(request: permissions.OpenDmChannelRequest__Output) {
            opened.push(request);
            const body = JSON.parse(request.body_json || '{}') as {
              recipient_id?: string;
              recipients?: string[];
            };
            if (body.recipients && body.recipients.length > 1) {
              return {
                channel_json: JSON.stringify({
                  id: GROUP,
                  type: 3,
                  last_message_id: null,
                  flags: 0,
                  name: null,
                  icon: null,
                  owner_id: request.user_id,
                }),
                recipient_ids: [request.user_id, ...body.recipients].sort(),
              };
            }
            const other = body.recipient_id ?? body.recipients?.[0];
            if (!other) throw fieldError('recipient_id', 'BASE_TYPE_REQUIRED', 'This field is required');
            if (!/^\d+$/.test(other))
              throw fieldError('recipient_id', 'NUMBER_TYPE_COERCE', `Value "${other}" is not snowflake.`);
            return {
              channel_json: JSON.stringify({ id: DM, type: 1, last_message_id: null, flags: 0 }),
              recipient_ids: [request.user_id, other].sort(),
            };
          },
        },
      },
    ],
    isReady: async () => true,
  });
  const oauthPort = await oauthServer.listen('127.0.0.1:0');
  const permissionsPort = await permissionsServer.listen('127.0.0.1:0');
  backends = createBackendClients({
    registry: '127.0.0.1:1',
    oauth: `127.0.0.1:${oauthPort}`,
    permissions: `127.0.0.1:${permissionsPort}`,
    dispatcher: '127.0.0.1:1',
    interactions: '127.0.0.1:1',
    lobby: '127.0.0.1:1',
  });
  const clients = createPeerClients(backends);
  http = createServer({
    clients,
    auth: createAuthenticator(clients.oauth, { maxCacheSeconds: 30, unknownTokenSeconds: 10 }),
    logger: createLogger('api-gateway', 'silent'),
    adminToken: 'admin-token-of-the-test-0123456789',
    maxBodyBytes: 1024 * 1024,
    requestDeadlineMs: 10_000,
    rateLimits: { globalPerSecond: 0, routeLimit: 0, routeWindowSeconds: 1 },
    invalidRequestLimits: { limit: 0, windowSeconds: 600 },
    trustProxy: false,
    isDraining: () => false,
    httpTimeouts: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 },
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v10`;
});

afterAll(async () => {
  await new Promise((resolve) => http?.close(resolve));
  if (backends) closeBackendClients(backends);
  await permissionsServer?.drain();
  await oauthServer?.drain();
});

beforeEach(() => {
  userLookups.length = 0;
  opened.length = 0;
});

async function openDm(authorization: string | undefined, body: unknown, path = '/users/@me/channels') {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      ...(authorization ? { Authorization: authorization } : {}),
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Bob as another user sees him: no email, locale, MFA or premium fields, no `bot: false`. */
const PUBLIC_BOB = {
  id: BOB,
  username: 'bob',
  avatar: null,
  discriminator: '0',
  public_flags: 0,
  flags: 0,
  banner: null,
  accent_color: null,
  global_name: null,
  avatar_decoration_data: null,
  collectibles: null,
  primary_guild: null,
};

it("opens a bot's DM with a user: the channel with the user's public object as recipient", async () => {
  const answer = await openDm('Bot bot.token', { recipient_id: BOB });
  expect(answer).toEqual({
    status: 200,
    body: { id: DM, type: 1, last_message_id: null, flags: 0, recipients: [PUBLIC_BOB] },
  });
  expect(userLookups).toEqual([BOB]);
  expect(opened).toEqual([
    expect.objectContaining({ user_id: BOT, body_json: JSON.stringify({ recipient_id: BOB }) }),
  ]);
});

it("opens a user's group DM from a session token, the caller not among the recipients", async () => {
  const answer = await openDm('alice.session', { recipients: [CAROL, BOB] }, '/users/%40me/channels');
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ id: GROUP, type: 3, name: null, icon: null, owner_id: ALICE });
  expect((answer.body.recipients as { id: string }[]).map((u) => u.id)).toEqual([BOB, CAROL]);
  expect(answer.body.recipients).toContainEqual(PUBLIC_BOB);
  expect(userLookups.sort()).toEqual([BOB, CAROL]);
});

it('answers 400 / 50033 for a recipient who does not exist, before permissions opens anything', async () => {
  for (const body of [{ recipient_id: NOBODY }, { recipients: [BOB, NOBODY] }]) {
    expect(await openDm('Bot bot.token', body)).toEqual({
      status: 400,
      body: { code: 50033, message: 'Invalid Recipient(s)' },
    });
  }
  expect(opened).toEqual([]);
});

it('passes a body that names no user id to permissions, whose 50035 is answered as is', async () => {
  expect(await openDm('Bot bot.token', { recipient_id: 'bob' })).toEqual({
    status: 400,
    body: {
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        recipient_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "bob" is not snowflake.' }] },
      },
    },
  });
  expect(userLookups).toEqual([]);
  expect(opened).toHaveLength(1);
});

it('answers 401 to an OAuth2 Bearer token and to a request without a token, opening nothing', async () => {
  for (const authorization of ['Bearer bearer.token', undefined, 'Bot unknown.token']) {
    expect(await openDm(authorization, { recipient_id: BOB })).toEqual({
      status: 401,
      body: { code: 0, message: '401: Unauthorized' },
    });
  }
  expect(opened).toEqual([]);
  expect(userLookups).toEqual([]);
});
