import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DiscordError, fieldError, InvalidFormBodyError, UnknownResourceError } from '@acs/discord-errors';
import { createLogger } from '@acs/service-kit';
import { createAuthenticator } from '../../src/auth/create-authenticator';
import { closeBackendClients, createBackendClients } from '../../src/clients/backend-clients';
import { createPeerClients } from '../../src/clients/peer-clients';
import { createServer } from '../../src/create-server';
import type { RateLimits } from '../../src/http/rate-limiter';
import {
  startFakeInteractions,
  messageJson,
  type FakeInteractions,
} from '../support/fake-interactions-server';
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth-server';

/** What a request without a multipart body's files carries of them (proto3 defaults). */
const NO_FILES = { files: [], attachment_base_url: '' };

// The interaction routes through the whole HTTP server, with oauth and interactions stood
// in for at the network edge: who may call them, the bodies they take (JSON, a form's
// payload_json), their query strings, the path checks that keep malformed ids and tokens
// from the service, the service's answers and errors passed on verbatim, 503 while
// interactions is down, and how the rate limits count them.

const USER = '1500000000000000001';
const APP = '1500000000000000002';
const INTERACTION = '1500000000000000003';
const MESSAGE = '1500000000000000004';
const TOKEN = 'aW50ZXJhY3Rpb246MTUwMDAwMDAwMDAwMDAwMDAwMzphYmNk.x-_';
const SESSION = 'user.session.token';

let oauth: FakeOAuth;
let interactions: FakeInteractions;
const gateways: Array<{ close(): Promise<void> }> = [];

/** The gateway's HTTP server against the stand-ins (interactions at `interactionsUrl`), on a free port. */
async function startGateway(interactionsUrl: string, rateLimits: RateLimits): Promise<string> {
  const backends = createBackendClients({
    registry: '127.0.0.1:1',
    oauth: `127.0.0.1:${oauth.port}`,
    permissions: '127.0.0.1:1',
    dispatcher: '127.0.0.1:1',
    interactions: interactionsUrl,
    lobby: interactionsUrl,
  });
  const clients = createPeerClients(backends);
  const http: Server = createServer({
    clients,
    auth: createAuthenticator(clients.oauth, { maxCacheSeconds: 30, unknownTokenSeconds: 10 }),
    logger: createLogger('api-gateway', 'silent'),
    adminToken: 'admin-token-of-the-test-0123456789',
    maxBodyBytes: 64 * 1024,
    requestDeadlineMs: 5_000,
    rateLimits,
    invalidRequestLimits: { limit: 0, windowSeconds: 600 },
    // Each rate-limit test names its client in X-Forwarded-For.
    trustProxy: ['loopback'],
    isDraining: () => false,
    httpTimeouts: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 },
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  gateways.push({
    close: async () => {
      await new Promise((resolve) => http.close(resolve));
      closeBackendClients(backends);
    },
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

const NO_LIMITS: RateLimits = { globalPerSecond: 0, routeLimit: 0, routeWindowSeconds: 1 };
let base: string;

beforeAll(async () => {
  oauth = await startFakeOAuth();
  oauth.tokens.set(SESSION, {
    kind: 'PRINCIPAL_KIND_USER_SESSION',
    application_id: '',
    user_id: USER,
    scopes: [],
    application_flags: 0,
    user_locale: 'de',
    cache_seconds: 60,
  });
  oauth.tokens.set('a.bot.token', {
    kind: 'PRINCIPAL_KIND_BOT',
    application_id: APP,
    user_id: APP,
    scopes: [],
    application_flags: 0,
    user_locale: '',
    cache_seconds: 60,
  });
  interactions = await startFakeInteractions();
  base = await startGateway(`127.0.0.1:${interactions.port}`, NO_LIMITS);
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await interactions?.close();
  await oauth?.close();
});

beforeEach(() => {
  interactions.reset();
  oauth.calls.length = 0;
});

interface Answer {
  status: number;
  contentType: string | null;
  headers: Headers;
  text: string;
  body: unknown;
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    headers: response.headers,
    text,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A multipart body of the given parts, as FormData sends it. */
function multipart(fields: Record<string, string>, files: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, value] of Object.entries(files)) form.append(name, new Blob([value]), 'a.txt');
  return form;
}

const INVOCATION = {
  type: 2,
  application_id: APP,
  channel_id: '1500000000000000010',
  nonce: 'n1',
  data: { id: '1500000000000000011', name: 'ping', type: 1, version: '1500000000000000012' },
};
const errorBody = (error: DiscordError) => error.toBody();
const UNAUTHORIZED = { code: 0, message: '401: Unauthorized' };

describe('POST /interactions', () => {
  const url = () => `${base}/api/v10/interactions`;

  it('records a session’s invocation as sent, with the user’s locale, and answers 204 with no body', async () => {
    const text = JSON.stringify(INVOCATION);
    const answer = await send(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: SESSION },
      body: text,
    });
    expect(answer).toMatchObject({ status: 204, text: '' });
    expect(interactions.calls).toEqual([
      {
        rpc: 'CreateInteraction',
        request: {
          user_id: USER,
          body_json: text,
          locale: 'de',
          wait: false,
          wait_final: false,
          wait_timeout_ms: 0,
          ...NO_FILES,
        },
      },
    ]);
    // A locale header names the requester's locale before the user's setting.
    await send(url(), json(INVOCATION, { Authorization: SESSION, 'X-Discord-Locale': 'fr' }));
    expect(interactions.calls[1]?.request).toMatchObject({ locale: 'fr' });
  });

  it('is served under /api/v9 too, as the chat client calls it', async () => {
    expect(
      (await send(`${base}/api/v9/interactions`, json(INVOCATION, { Authorization: SESSION }))).status,
    ).toBe(204);
    expect(interactions.calls).toHaveLength(1);
    // Only that route: API v9 is no second copy of v10.
    expect((await send(`${base}/api/v9/gateway`)).status).toBe(404);
  });

  it('waits for the outcome with ?wait=true and answers it as the service wrote it', async () => {
    for (const wait of ['true', '1', 'True']) {
      const answer = await send(`${url()}?wait=${wait}`, json(INVOCATION, { Authorization: SESSION }));
      expect(answer).toMatchObject({
        status: 200,
        contentType: 'application/json',
        text: '{"interaction":{"id":"1"},"outcome":"success","messages":[]}',
      });
    }
    expect(interactions.calls.map((c) => c.request)).toEqual(
      Array(3).fill(expect.objectContaining({ wait: true })),
    );
    expect(await send(`${url()}?wait=false`, json(INVOCATION, { Authorization: SESSION }))).toMatchObject({
      status: 204,
    });
    const bad = await send(`${url()}?wait=soon`, json(INVOCATION, { Authorization: SESSION }));
    expect(bad).toMatchObject({
      status: 400,
      body: errorBody(fieldError('wait', 'BASE_TYPE_BOOLEAN', 'Must be either true or false.')),
    });
    expect(interactions.calls).toHaveLength(4);
  });

  it.each([
    ['a bot token', 'Bot a.bot.token'],
    ['a Bearer token', 'Bearer some.access.token'],
  ])('refuses %s with 401 without asking oauth', async (_name, authorization) => {
    expect(await send(url(), json(INVOCATION, { Authorization: authorization }))).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });
    expect(oauth.calls).toEqual([]);
    expect(interactions.calls).toEqual([]);
  });

  it('refuses a request without a token, or with an unknown session, with 401', async () => {
    expect(await send(url(), json(INVOCATION))).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await send(url(), json(INVOCATION, { Authorization: 'not.a.session' }))).toMatchObject({
      status: 401,
      body: UNAUTHORIZED,
    });
    expect(oauth.calls).toEqual([{ kind: 'PRINCIPAL_KIND_USER_SESSION', token: 'not.a.session' }]);
    expect(interactions.calls).toEqual([]);
  });

  it('takes the body as a multipart payload_json, and refuses files at `files` before the service', async () => {
    const text = JSON.stringify(INVOCATION);
    const ok = await send(url(), {
      method: 'POST',
      headers: { Authorization: SESSION },
      body: multipart({ payload_json: text }),
    });
    expect(ok.status).toBe(204);
    expect(interactions.calls[0]?.request).toMatchObject({ body_json: text });

    const withFile = await send(url(), {
      method: 'POST',
      headers: { Authorization: SESSION },
      body: multipart({ payload_json: text }, { 'files[0]': 'hello' }),
    });
    expect(withFile).toMatchObject({
      status: 400,
      body: errorBody(
        fieldError(
          'files',
          'ATTACHMENTS_NOT_SUPPORTED',
          'Attachments are not supported yet: send the body as JSON, or as payload_json without files.',
        ),
      ),
    });
    expect(interactions.calls).toHaveLength(1);
  });

  it('answers the service’s error verbatim', async () => {
    const outdated = new InvalidFormBodyError({
      data: {
        _errors: [
          {
            code: 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION',
            message: 'This command is outdated, please try again in a few minutes',
          },
        ],
      },
    });
    interactions.answers.CreateInteraction = () => {
      throw outdated;
    };
    expect(await send(url(), json(INVOCATION, { Authorization: SESSION }))).toMatchObject({
      status: 400,
      contentType: 'application/json',
      body: outdated.toBody(),
    });
  });
});

describe('POST /interactions/{id}/{token}/callback', () => {
  const url = (id = INTERACTION, token = TOKEN) => `${base}/api/v10/interactions/${id}/${token}/callback`;
  const RESPONSE = { type: 4, data: { content: 'pong' } };

  it('takes no authentication: a header, even a bad one, is ignored', async () => {
    const text = JSON.stringify(RESPONSE);
    const headerSets: Array<Record<string, string>> = [{}, { Authorization: 'Bot not.a.real.token' }];
    for (const headers of headerSets) {
      const answer = await send(url(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: text,
      });
      expect(answer).toMatchObject({ status: 204, text: '' });
    }
    expect(oauth.calls).toEqual([]);
    expect(interactions.calls).toEqual(
      Array(2).fill({
        rpc: 'CreateCallback',
        request: {
          interaction_id: INTERACTION,
          token: TOKEN,
          body_json: text,
          with_response: false,
          ...NO_FILES,
        },
      }),
    );
  });

  it('answers the callback response with ?with_response=true, and refuses a value that is no boolean', async () => {
    const answer = await send(`${url()}?with_response=true`, json(RESPONSE));
    expect(answer).toMatchObject({
      status: 200,
      contentType: 'application/json',
      text: '{"interaction":{"id":"1","type":2}}',
    });
    expect(interactions.calls[0]?.request).toMatchObject({ with_response: true });
    expect(await send(`${url()}?with_response=0`, json(RESPONSE))).toMatchObject({ status: 204 });
    expect(await send(`${url()}?with_response=yes`, json(RESPONSE))).toMatchObject({
      status: 400,
      body: errorBody(fieldError('with_response', 'BASE_TYPE_BOOLEAN', 'Must be either true or false.')),
    });
    expect(interactions.calls).toHaveLength(2);
  });

  it('takes the response as a urlencoded or multipart payload_json', async () => {
    const text = JSON.stringify(RESPONSE);
    const urlencoded = await send(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payload_json: text }).toString(),
    });
    expect(urlencoded.status).toBe(204);
    expect((await send(url(), { method: 'POST', body: multipart({ payload_json: text }) })).status).toBe(204);
    expect(interactions.calls.map((c) => (c.request as { body_json: string }).body_json)).toEqual([
      text,
      text,
    ]);
  });

  it('refuses a form without payload_json, a payload that is no JSON, and another content type', async () => {
    const withoutPayload = await send(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'type=4',
    });
    expect(withoutPayload).toMatchObject({
      status: 400,
      body: errorBody(fieldError('payload_json', 'BASE_TYPE_REQUIRED', 'This field is required')),
    });
    const notJson = await send(url(), { method: 'POST', body: multipart({ payload_json: '{"type":' }) });
    expect(notJson).toMatchObject({
      status: 400,
      body: { code: 50109, message: 'The request body contains invalid JSON.' },
    });
    const twice = new URLSearchParams([
      ['payload_json', '{}'],
      ['payload_json', '{}'],
    ]);
    const repeated = await send(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: twice.toString(),
    });
    expect(repeated).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: {
          _errors: [{ code: 'FORM_BODY_INVALID', message: 'The form body has payload_json more than once.' }],
        },
      },
    });
    const text = await send(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{"type":4}',
    });
    expect(text).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          _errors: [
            {
              code: 'CONTENT_TYPE_INVALID',
              message: `Expected "Content-Type" header to be one of {'application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'}.`,
            },
          ],
        },
      },
    });
    expect(interactions.calls).toEqual([]);
  });

  it('checks the interaction id (50035) and keeps a token that cannot be one from the service (10062)', async () => {
    expect(await send(url('abc'), json(RESPONSE))).toMatchObject({
      status: 400,
      body: errorBody(fieldError('interaction_id', 'NUMBER_TYPE_COERCE', 'Value "abc" is not snowflake.')),
    });
    const unknown = errorBody(new UnknownResourceError(10062, 'Unknown interaction'));
    for (const token of ['not%20a%20token', 'a!b', 'x'.repeat(513)]) {
      expect(await send(url(INTERACTION, token), json(RESPONSE))).toMatchObject({
        status: 404,
        body: unknown,
      });
    }
    expect(interactions.calls).toEqual([]);
    // 512 characters of the token alphabet reach the service, which has the last word.
    expect((await send(url(INTERACTION, 'x'.repeat(512)), json(RESPONSE))).status).toBe(204);
  });

  it('answers the service’s errors verbatim', async () => {
    const acknowledged = new DiscordError(400, 40060, 'Interaction has already been acknowledged');
    interactions.answers.CreateCallback = () => {
      throw acknowledged;
    };
    expect(await send(url(), json(RESPONSE))).toMatchObject({ status: 400, body: acknowledged.toBody() });
    const late = new UnknownResourceError(10062, 'Unknown interaction');
    interactions.answers.CreateCallback = () => {
      throw late;
    };
    expect(await send(url(), json(RESPONSE))).toMatchObject({ status: 404, body: late.toBody() });
  });
});

describe('the interaction webhook routes', () => {
  const webhook = (app = APP, token = TOKEN) => `${base}/api/v10/webhooks/${app}/${token}`;
  const messageUrl = (id: string, app = APP, token = TOKEN) => `${webhook(app, token)}/messages/${id}`;
  const MESSAGE_BODY = { content: 'pong' };

  it('posts a follow-up and answers the message, waiting or not', async () => {
    const text = JSON.stringify(MESSAGE_BODY);
    for (const query of ['', '?wait=true', '?wait=false&with_components=true', `?thread_id=${MESSAGE}`]) {
      const answer = await send(`${webhook()}${query}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bot ignored' },
        body: text,
      });
      expect(answer).toMatchObject({ status: 200, contentType: 'application/json', text: messageJson('11') });
    }
    expect(interactions.calls).toEqual(
      Array(4).fill({
        rpc: 'CreateFollowup',
        request: { application_id: APP, token: TOKEN, body_json: text, ...NO_FILES },
      }),
    );
    expect(oauth.calls).toEqual([]);
  });

  it('reads, edits and deletes @original and a message by id', async () => {
    const wire = { application_id: APP, token: TOKEN, body_json: '', ...NO_FILES };
    expect(await send(messageUrl('@original'))).toMatchObject({ status: 200, text: messageJson('12') });
    // As discord-api-types spells it in a route: percent-encoded.
    expect(await send(messageUrl('%40original'))).toMatchObject({ status: 200 });
    const edit = JSON.stringify(MESSAGE_BODY);
    const edited = await send(`${messageUrl(MESSAGE)}?with_components=false`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: edit,
    });
    expect(edited).toMatchObject({ status: 200, text: messageJson('13') });
    const multipartEdit = await send(messageUrl('@original'), {
      method: 'PATCH',
      body: multipart({ payload_json: edit }),
    });
    expect(multipartEdit.status).toBe(200);
    expect(await send(messageUrl(MESSAGE), { method: 'DELETE' })).toMatchObject({ status: 204, text: '' });
    expect(interactions.calls).toEqual([
      { rpc: 'GetWebhookMessage', request: { ...wire, message_id: '@original' } },
      { rpc: 'GetWebhookMessage', request: { ...wire, message_id: '@original' } },
      { rpc: 'EditWebhookMessage', request: { ...wire, message_id: MESSAGE, body_json: edit } },
      { rpc: 'EditWebhookMessage', request: { ...wire, message_id: '@original', body_json: edit } },
      { rpc: 'DeleteWebhookMessage', request: { ...wire, message_id: MESSAGE } },
    ]);
  });

  it('checks ids and query strings at the edge (50035), and refuses a token that cannot be one (50027)', async () => {
    expect(await send(messageUrl('@latest'))).toMatchObject({
      status: 400,
      body: errorBody(fieldError('message_id', 'NUMBER_TYPE_COERCE', 'Value "@latest" is not snowflake.')),
    });
    expect(await send(webhook('12x'), json(MESSAGE_BODY))).toMatchObject({
      status: 400,
      body: errorBody(fieldError('webhook_id', 'NUMBER_TYPE_COERCE', 'Value "12x" is not snowflake.')),
    });
    expect(await send(`${messageUrl(MESSAGE)}?thread_id=none`)).toMatchObject({
      status: 400,
      body: errorBody(fieldError('thread_id', 'NUMBER_TYPE_COERCE', 'Value "none" is not snowflake.')),
    });
    expect(await send(`${webhook()}?wait=always`, json(MESSAGE_BODY))).toMatchObject({
      status: 400,
      body: errorBody(fieldError('wait', 'BASE_TYPE_BOOLEAN', 'Must be either true or false.')),
    });
    const invalid = { code: 50027, message: 'Invalid Webhook Token' };
    expect(await send(webhook(APP, 'to:ken'), json(MESSAGE_BODY))).toMatchObject({
      status: 401,
      body: invalid,
    });
    expect(await send(messageUrl('@original', APP, 'y'.repeat(600)))).toMatchObject({
      status: 401,
      body: invalid,
    });
    expect(await send(messageUrl('@original', APP, 'a%2Fb'), { method: 'DELETE' })).toMatchObject({
      status: 401,
      body: invalid,
    });
    expect(interactions.calls).toEqual([]);
  });

  it('refuses files in a follow-up, and answers the service’s errors verbatim', async () => {
    const withFile = await send(webhook(), {
      method: 'POST',
      body: multipart({ payload_json: '{"content":"x"}' }, { 'files[0]': 'bytes' }),
    });
    expect(withFile).toMatchObject({ status: 400, body: { errors: { files: expect.anything() } } });
    const expired = new DiscordError(401, 50027, 'Invalid Webhook Token');
    interactions.answers.CreateFollowup = () => {
      throw expired;
    };
    expect(await send(webhook(), json(MESSAGE_BODY))).toMatchObject({ status: 401, body: expired.toBody() });
    const unknown = new UnknownResourceError(10008, 'Unknown Message');
    interactions.answers.GetWebhookMessage = () => {
      throw unknown;
    };
    expect(await send(messageUrl(MESSAGE))).toMatchObject({ status: 404, body: unknown.toBody() });
    const capped = new DiscordError(
      400,
      40094,
      'This interaction has hit the maximum number of follow up messages',
    );
    interactions.answers.CreateFollowup = () => {
      throw capped;
    };
    expect(await send(webhook(), json(MESSAGE_BODY))).toMatchObject({ status: 400, body: capped.toBody() });
  });
});

describe('while interactions is down', () => {
  it('answers every interaction route 503 with Discord’s body', async () => {
    // Port 1 refuses: the service is down.
    const down = await startGateway('127.0.0.1:1', NO_LIMITS);
    const unavailable = { status: 503, body: { code: 0, message: '503: Service Unavailable' } };
    expect(
      await send(`${down}/api/v10/interactions`, json(INVOCATION, { Authorization: SESSION })),
    ).toMatchObject(unavailable);
    expect(
      await send(`${down}/api/v10/interactions/${INTERACTION}/${TOKEN}/callback`, json({ type: 5 })),
    ).toMatchObject(unavailable);
    expect(await send(`${down}/api/v10/webhooks/${APP}/${TOKEN}/messages/@original`)).toMatchObject(
      unavailable,
    );
  });
});

describe('the rate limits of the interaction routes', () => {
  const ROUTE_LIMIT = 3;
  let limited: string;

  beforeAll(async () => {
    // A global window of one request a second: any request it counted beyond the first in
    // a burst would be refused. Route windows of a minute, so that none ends during a test.
    limited = await startGateway(`127.0.0.1:${interactions.port}`, {
      globalPerSecond: 1,
      routeLimit: ROUTE_LIMIT,
      routeWindowSeconds: 60,
    });
  });

  const from = (client: string, init: RequestInit = {}): RequestInit => ({
    ...init,
    headers: { ...(init.headers as Record<string, string>), 'X-Forwarded-For': client },
  });
  const callback = (client: string, token = TOKEN) =>
    send(`${limited}/api/v10/interactions/${INTERACTION}/${token}/callback`, from(client, json({ type: 5 })));

  it('holds other routes to the global limit, in the same burst as interaction requests it does not count', async () => {
    const client = '198.51.100.20';
    const answers = await Promise.all([
      callback(client),
      callback(client),
      callback(client),
      send(`${limited}/api/v10/gateway`, from(client)),
      send(`${limited}/api/v10/gateway`, from(client)),
    ]);
    // All three callbacks pass although the global window takes one request: they are not
    // counted in it, and one of the two others is refused by it.
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual([204, 204, 204]);
    const gateway = answers.slice(3);
    const refused = gateway.filter((a) => a.status === 429);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.headers.get('x-ratelimit-global')).toBe('true');
    expect(refused[0]!.headers.get('x-ratelimit-scope')).toBe('global');
  });

  // The callback and the interaction webhooks share one bucket per interaction token, whoever
  // sends it (Discord's webhook bucket): each test counts a token of its own.
  it('counts callbacks per interaction token, with the bucket headers, then 429 in the route’s scope', async () => {
    const client = '198.51.100.21';
    const token = 'Y291bnRlZA';
    const answers = await Promise.all(Array.from({ length: ROUTE_LIMIT }, () => callback(client, token)));
    expect(answers.map((a) => a.status)).toEqual(Array(ROUTE_LIMIT).fill(204));
    const headers = answers[0]!.headers;
    expect(headers.get('x-ratelimit-limit')).toBe(String(ROUTE_LIMIT));
    expect(headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    expect(answers.map((a) => a.headers.get('x-ratelimit-remaining')).sort()).toEqual(['0', '1', '2']);

    const over = await callback('198.51.100.121', token); // from another address too
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-scope')).toBe('user');
    expect(over.headers.get('x-ratelimit-global')).toBeNull();
    expect(over.body).toMatchObject({ message: 'You are being rate limited.', global: false });
    // Another interaction's callback is counted apart, in the same bucket.
    const other = await callback(client, 'b3RoZXI');
    expect(other.status).toBe(204);
    expect(other.headers.get('x-ratelimit-remaining')).toBe(String(ROUTE_LIMIT - 1));
    expect(other.headers.get('x-ratelimit-bucket')).toBe(headers.get('x-ratelimit-bucket'));
  });

  it('counts interaction webhooks per token', async () => {
    const client = '198.51.100.22';
    const followup = (token: string) =>
      send(`${limited}/api/v10/webhooks/${APP}/${token}`, from(client, json({ content: 'x' })));
    const answers = await Promise.all(Array.from({ length: ROUTE_LIMIT + 1 }, () => followup('Zm9sbG93')));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(ROUTE_LIMIT).fill(200), 429]);
    expect((await followup('YW5vdGhlcg')).status).toBe(200);
  });

  it('counts a session’s invocations by its credential, under v9 and v10 alike, and a bot token by address', async () => {
    const client = '198.51.100.23';
    const invoke = (version: string, authorization: string) =>
      send(
        `${limited}/api/${version}/interactions`,
        from(client, json(INVOCATION, { Authorization: authorization })),
      );
    const answers = await Promise.all([
      invoke('v10', SESSION),
      invoke('v10', SESSION),
      invoke('v9', SESSION),
    ]);
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204]);
    expect((await invoke('v9', SESSION)).status).toBe(429);
    // A bot token is no credential of this route: counted by its address, which has its
    // own requests (one spent without a token), and never looked up.
    expect((await send(`${limited}/api/v10/interactions`, from(client, json(INVOCATION)))).status).toBe(401);
    const bot = await invoke('v10', 'Bot a.bot.token');
    expect(bot.status).toBe(401);
    expect(bot.headers.get('x-ratelimit-remaining')).toBe(String(ROUTE_LIMIT - 2));
    expect(oauth.calls.filter((call) => call.token === 'a.bot.token')).toEqual([]);
  });
});
