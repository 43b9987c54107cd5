import { DiscordError } from '@acs/discord-errors';
import type { interactions } from '@acs/protos';
import {
  CHANNEL,
  Endpoint,
  GUILD,
  makeApp,
  makeCommand,
  startInvocationServer,
  USER,
  type FakeApp,
  type InvocationServer,
} from './invocation-world';

/** A parsed JSON value, read freely by the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let server: InvocationServer;
let endpoint: Endpoint;
let httpApp: FakeApp;
let gatewayApp: FakeApp;
let otherApp: FakeApp;
let nonces = 0;

const DEADLINE_MS = 1500;

beforeAll(async () => {
  server = await startInvocationServer({ deadlineMs: DEADLINE_MS, sweepIntervalMs: 200 });
  endpoint = new Endpoint(() => httpApp.publicKey);
  httpApp = makeApp(server.world, await endpoint.start());
  gatewayApp = makeApp(server.world);
  otherApp = makeApp(server.world);
});
afterAll(async () => {
  await server?.close();
  await endpoint?.stop();
});

function body(command: Record<string, unknown>) {
  return {
    type: 2,
    application_id: command.application_id,
    guild_id: GUILD,
    channel_id: CHANNEL,
    nonce: `t${++nonces}`,
    data: { id: command.id, name: command.name, type: command.type, version: command.version },
  };
}

/** CreateInteraction with `wait` (or `wait_final`), the parsed outcome. */
async function invoke(invocation: object, final?: { timeoutMs: number }): Promise<Record<string, Json>> {
  const answer = await server.call<interactions.CreateInteractionResponse__Output>('CreateInteraction', {
    user_id: USER.id,
    body_json: JSON.stringify(invocation),
    locale: 'en-GB',
    wait: true,
    wait_final: final !== undefined,
    wait_timeout_ms: final?.timeoutMs ?? 0,
  });
  return JSON.parse(answer.outcome_json) as Record<string, Json>;
}

/** The `interaction.created` event of a gateway invocation (its bot payload carries the token). */
async function created(nonce: string): Promise<{ id: string; token: string }> {
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    const { rows } = await server.pool.query<{ payload: { data: Json } }>(
      `SELECT payload FROM outbox WHERE subject = 'acs.interactions.interaction.created'
         AND payload -> 'data' ->> 'nonce' = $1`,
      [nonce],
    );
    const data = rows[0]?.payload.data;
    if (data) return { id: data.interaction_id, token: data.bot_payload.token };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no interaction.created for ${nonce}`);
}

async function timeline(applicationId: string, before = '', limit = 0): Promise<Json[]> {
  const answer = await server.call<interactions.InteractionTimelineResponse__Output>(
    'ListInteractionTimeline',
    {
      application_id: applicationId,
      before,
      limit,
    },
  );
  return JSON.parse(answer.timeline_json) as Json[];
}

async function entry(applicationId: string, interactionId: string): Promise<Json> {
  const answer = await server.call<interactions.InteractionTimelineResponse__Output>(
    'GetInteractionTimeline',
    {
      application_id: applicationId,
      interaction_id: interactionId,
    },
  );
  return JSON.parse(answer.timeline_json);
}

async function expire(applicationId: string, interactionId: string, bodyJson: string): Promise<Json> {
  const answer = await server.call<interactions.InteractionTimelineResponse__Output>('ExpireInteraction', {
    application_id: applicationId,
    interaction_id: interactionId,
    body_json: bodyJson,
  });
  return JSON.parse(answer.timeline_json);
}

const callback = (id: string, token: string, response: unknown) =>
  server.call('CreateCallback', {
    interaction_id: id,
    token,
    body_json: JSON.stringify(response),
    with_response: false,
  });

async function failure(promise: Promise<unknown>): Promise<DiscordError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DiscordError);
  return error as DiscordError;
}

/** The failure events the user's INTERACTION_FAILURE is made of. */
async function failedEvent(interactionId: string): Promise<Json> {
  const { rows } = await server.pool.query<{ payload: { data: Json } }>(
    `SELECT payload FROM outbox WHERE subject = 'acs.interactions.interaction.failed'
       AND payload -> 'data' ->> 'interaction_id' = $1`,
    [interactionId],
  );
  return rows[0]?.payload.data;
}

describe('the timeline: why an interaction failed', () => {
  it('an endpoint that answers 500: the status, in the timeline, the wait answer and the user event', async () => {
    const command = makeCommand(server.world, httpApp);
    endpoint.answer = () => ({ status: 500, body: { oops: true } });
    const outcome = await invoke(body(command));
    const id = outcome.interaction.id as string;
    const reason = 'the interactions endpoint answered 500: {"oops":true}';
    expect(outcome).toMatchObject({ outcome: 'failure', reason_code: 1, reason });
    expect(await failedEvent(id)).toMatchObject({ reason_code: 1, reason });
    const seen = await entry(httpApp.id, id);
    expect(seen).toMatchObject({
      id,
      application_id: httpApp.id,
      type: 2,
      data: { name: 'ping' },
      user_id: USER.id,
      guild_id: GUILD,
      channel_id: CHANNEL,
      state: 'failed',
      reason,
      outcome: { kind: 'failed', reason_code: 1, reason, cause: { kind: 'endpoint' } },
      delivery: {
        kind: 'endpoint',
        url: endpoint.url,
        signature_headers: ['X-Signature-Ed25519', 'X-Signature-Timestamp'],
        timestamp: expect.stringMatching(/^\d{10}$/),
        status: 500,
      },
      payload: { id, type: 2, data: { name: 'ping' } },
    });
    expect(seen.payload).not.toHaveProperty('token');
    expect(seen.timings.delivered_ms).toEqual(expect.any(Number));
    expect(seen.timings.answered_ms).toBeGreaterThanOrEqual(seen.timings.delivered_ms);
  });

  it('an unreachable endpoint says so', async () => {
    const closed = new Endpoint(() => httpApp.publicKey);
    const url = await closed.start();
    await closed.stop();
    const app = makeApp(server.world, url);
    const outcome = await invoke(body(makeCommand(server.world, app)));
    expect(outcome.reason).toMatch(/^the interactions endpoint was unreachable: .*ECONNREFUSED/);
    expect((await entry(app.id, outcome.interaction.id)).delivery).toMatchObject({ status: null });
  });

  it("an endpoint's inline answer refused: the status and the 50035 tree", async () => {
    const command = makeCommand(server.world, httpApp);
    endpoint.answer = () => ({
      status: 200,
      body: { type: 4, data: { embeds: [{ title: 'x'.repeat(300) }] } },
    });
    const outcome = await invoke(body(command));
    expect(outcome).toMatchObject({ outcome: 'failure', reason_code: 1 });
    expect(outcome.reason).toMatch(
      /^the endpoint's answer was refused: 400 50035 Invalid Form Body: data\.embeds\.0\.title: BASE_TYPE_MAX_LENGTH/,
    );
    const seen = await entry(httpApp.id, outcome.interaction.id);
    expect(seen.outcome.cause).toMatchObject({
      kind: 'refused',
      status: 400,
      body: {
        code: 50035,
        errors: { data: { embeds: { '0': { title: { _errors: [expect.anything()] } } } } },
      },
    });
  });

  it('a refused callback, then nothing: the timeout names the refusal; the timeline keeps it', async () => {
    const invocation = body(makeCommand(server.world, gatewayApp));
    const waiting = invoke(invocation);
    const { id, token } = await created(invocation.nonce);
    const refused = await failure(
      callback(id, token, { type: 4, data: { embeds: [{ title: 'x'.repeat(300) }] } }),
    );
    expect(refused.code).toBe(50035);
    const outcome = await waiting;
    expect(outcome).toMatchObject({ outcome: 'failure', reason_code: 2 });
    expect(outcome.reason).toMatch(
      /^the app did not answer within 1\.5 s; its callback was refused: 400 50035 Invalid Form Body: data\.embeds\.0\.title/,
    );
    expect((await failedEvent(id)).reason).toBe(outcome.reason);
    const seen = await entry(gatewayApp.id, id);
    expect(seen).toMatchObject({ state: 'failed', reason: outcome.reason, delivery: { kind: 'gateway' } });
    expect(seen.refusals).toEqual([
      { at: expect.any(String), status: 400, body: expect.objectContaining({ code: 50035 }) },
    ]);
  });

  it('no answer at all: the timeout alone', async () => {
    const outcome = await invoke(body(makeCommand(server.world, gatewayApp)));
    expect(outcome).toMatchObject({ reason_code: 2, reason: 'the app did not answer within 1.5 s' });
  });
});

describe('the timeline: answers, follow-ups, edits, ?wait=final', () => {
  it('waits past a deferral until the original is filled, and answers the follow-ups posted meanwhile', async () => {
    const invocation = body(makeCommand(server.world, gatewayApp));
    const waiting = invoke(invocation, { timeoutMs: 10_000 });
    const { id, token } = await created(invocation.nonce);
    await callback(id, token, { type: 5 });
    await server.call('EditWebhookMessage', {
      application_id: gatewayApp.id,
      token,
      message_id: '@original',
      body_json: JSON.stringify({ content: 'Rolled a 4' }),
    });
    const outcome = await waiting;
    expect(outcome).toMatchObject({
      outcome: 'success',
      final: true,
      response: { type: 5 },
      original: { content: 'Rolled a 4' },
    });
    expect(outcome.original.flags & 128).toBe(0);
    await server.call('CreateFollowup', {
      application_id: gatewayApp.id,
      token,
      body_json: JSON.stringify({ content: 'and again: 2' }),
    });
    const seen = await entry(gatewayApp.id, id);
    expect(seen).toMatchObject({
      state: 'answered',
      outcome: { kind: 'answered', callback_type: 5, body: { type: 5 } },
      edits: [{ kind: 'edit', original: true, body: { content: 'Rolled a 4' } }],
      followups: [{ kind: 'followup', original: false, body: { content: 'and again: 2' } }],
      windows: { initial: 'closed', token: 'valid' },
    });
    expect(seen.timings.answered_ms).toBeGreaterThanOrEqual(0);
  });

  it('a follow-up that fills the deferral ends the wait too; the deadline ends it unfilled', async () => {
    const invocation = body(makeCommand(server.world, gatewayApp));
    const waiting = invoke(invocation, { timeoutMs: 10_000 });
    const { id, token } = await created(invocation.nonce);
    await callback(id, token, { type: 5 });
    await server.call('CreateFollowup', {
      application_id: gatewayApp.id,
      token,
      body_json: JSON.stringify({ content: 'done' }),
    });
    await expect(waiting).resolves.toMatchObject({ final: true, original: { content: 'done' } });

    const unfilled = body(makeCommand(server.world, gatewayApp));
    const started = Date.now();
    const late = invoke(unfilled, { timeoutMs: 800 });
    const other = await created(unfilled.nonce);
    await callback(other.id, other.token, { type: 5 });
    await expect(late).resolves.toMatchObject({ outcome: 'success', final: false, followups: [] });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('expiring windows', () => {
  it('initial: a pending interaction fails at once; a later callback is 10062', async () => {
    const invocation = body(makeCommand(server.world, gatewayApp));
    const waiting = invoke(invocation);
    const { id, token } = await created(invocation.nonce);
    const started = Date.now();
    const expired = await expire(gatewayApp.id, id, JSON.stringify({ window: 'initial' }));
    expect(expired).toMatchObject({ state: 'failed', windows: { initial: 'closed', token: 'valid' } });
    await expect(waiting).resolves.toMatchObject({ outcome: 'failure', reason_code: 2 });
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS);
    expect((await failure(callback(id, token, { type: 4, data: { content: 'late' } }))).code).toBe(10062);
  });

  it('initial after an answer: the next callback is 40060; token: follow-ups are 50027', async () => {
    const invocation = body(makeCommand(server.world, gatewayApp));
    const waiting = invoke(invocation);
    const { id, token } = await created(invocation.nonce);
    await callback(id, token, { type: 4, data: { content: 'hi' } });
    await waiting;
    await expire(gatewayApp.id, id, JSON.stringify({ window: 'initial' }));
    expect((await failure(callback(id, token, { type: 4, data: { content: 'again' } }))).code).toBe(40060);
    const expired = await expire(gatewayApp.id, id, JSON.stringify({ window: 'token' }));
    expect(expired.windows).toEqual({ initial: 'closed', token: 'expired' });
    const followup = server.call('CreateFollowup', {
      application_id: gatewayApp.id,
      token,
      body_json: JSON.stringify({ content: 'too late' }),
    });
    const refused = await failure(followup);
    expect([refused.httpStatus, refused.code]).toEqual([401, 50027]);
  });

  it("refuses another application's interaction (10062), a bad window (50035), ids past 2^63-1", async () => {
    const outcome = await invoke(body(makeCommand(server.world, gatewayApp)));
    const id = outcome.interaction.id as string;
    expect((await failure(entry(otherApp.id, id))).code).toBe(10062);
    expect((await failure(expire(otherApp.id, id, '{"window":"initial"}'))).code).toBe(10062);
    expect((await failure(entry(gatewayApp.id, '1999999999999999999'))).code).toBe(10062);
    for (const bad of ['{"window":"later"}', '{}', '[]', 'null', '{"window":1}']) {
      const refused = await failure(expire(gatewayApp.id, id, bad));
      expect([refused.httpStatus, refused.code]).toEqual([400, 50035]);
    }
    const notJson = await failure(expire(gatewayApp.id, id, 'not json'));
    expect([notJson.httpStatus, notJson.code]).toEqual([400, 50109]);
    // Nothing expired by the refusals: the interaction is as it was.
    expect((await entry(gatewayApp.id, id)).windows).toEqual({ initial: 'closed', token: 'valid' });
    for (const hostile of ['9223372036854775808', '-1', 'abc', '1'.repeat(30)]) {
      expect((await failure(entry(hostile, id))).httpStatus).toBe(400);
      expect((await failure(entry(gatewayApp.id, hostile))).httpStatus).toBe(400);
      expect((await failure(timeline(gatewayApp.id, hostile))).httpStatus).toBe(400);
    }
    expect((await failure(timeline(gatewayApp.id, '', 101))).code).toBe(50035);
    expect((await failure(timeline(gatewayApp.id, '', -1))).code).toBe(50035);
  });
});

describe('pagination', () => {
  it('newest first, `before` and `limit`, only the application’s own', async () => {
    const app = makeApp(server.world);
    const command = makeCommand(server.world, app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const invocation = body(command);
      const answer = server.call('CreateInteraction', {
        user_id: USER.id,
        body_json: JSON.stringify(invocation),
        locale: '',
        wait: false,
      });
      await answer;
      ids.push((await created(invocation.nonce)).id);
    }
    const all = await timeline(app.id);
    expect(all.map((e) => e.id)).toEqual([...ids].reverse());
    const first = await timeline(app.id, '', 2);
    expect(first.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const next = await timeline(app.id, first.at(-1).id, 2);
    expect(next.map((e) => e.id)).toEqual([ids[0]]);
    expect(await timeline(otherApp.id)).toEqual([]);
  });
});
