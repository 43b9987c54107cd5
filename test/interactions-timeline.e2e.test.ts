import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import {
  createApplication,
  createDemoWorld,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser, type Answer } from './support/chat-user';

/**
 * The test-control surface of interactions (issue 22), end to end: the admin timeline says
 * exactly why an interaction failed (and the user's INTERACTION_FAILURE and `?wait=true`
 * say the same), `?wait=final` follows a deferred reply, and an interaction's windows can be
 * made to pass at once. Against a whole stack, with a real signed HTTP endpoint.
 */
let stack: TestStack;
let world: DemoWorld;
let endpoint: InteractionsEndpoint;
let httpApp: { id: string; bot_token: string; verify_key: string };
let gatewayApp: { id: string; bot_token: string };
let user: ChatUser;
let commands: Record<string, any>;
let gatewayCommand: any;

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
  httpApp = await createApplication(stack, { name: 'Timeline App', owner_id: world.user.id });
  endpoint = await new InteractionsEndpoint(httpApp.verify_key).start();
  const saved = await stack.admin('PATCH', `/admin/applications/${httpApp.id}`, {
    interactions_endpoint_url: endpoint.url,
  });
  expect(saved.status).toBe(200);
  gatewayApp = await createApplication(stack, { name: 'Sessionless', owner_id: world.user.id });
  for (const app of [httpApp, gatewayApp]) {
    await installApplication(stack, {
      applicationId: app.id,
      userId: world.user.id,
      guildId: world.guild.id,
    });
  }
  commands = await register(httpApp, [{ name: 'roll', description: 'Rolls a die' }]);
  gatewayCommand = (await register(gatewayApp, [{ name: 'hello', description: 'Says hello' }])).hello;
  user = await (await ChatUser.open(stack, world.user.id)).connect();
});

afterAll(async () => {
  user?.close();
  await endpoint?.stop();
  await stack?.stop();
});

async function register(app: { id: string; bot_token: string }, list: unknown[]) {
  const put = await api(stack, 'PUT', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
    token: `Bot ${app.bot_token}`,
    body: list,
  });
  expect(put.status).toBe(200);
  return Object.fromEntries((put.body as any[]).map((c) => [c.name, c]));
}

function invocation(app: { id: string }, command: any) {
  return {
    type: 2,
    application_id: app.id,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    data: { id: command.id, name: command.name, type: command.type, version: command.version },
  };
}

/** `POST /interactions?wait=…` as the user. */
function invoke(body: Record<string, unknown>, query: string): Promise<Answer> {
  return api(stack, 'POST', `/interactions?${query}`, {
    token: user.token,
    body: { nonce: user.nonce(), session_id: user.sessionId, ...body },
  });
}

/** Invokes the HTTP app's command with the endpoint deferring to the callback route: the interaction as it arrived. */
async function deferredInvocation(
  query = 'wait=true',
): Promise<{ answer: Promise<Answer>; interaction: any }> {
  endpoint.answer = () => ({ status: 202 });
  const from = endpoint.received.length;
  const answer = invoke(invocation(httpApp, commands.roll), query);
  return { answer, interaction: await endpoint.next(from) };
}

const callback = (interaction: any, body: unknown) =>
  api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, { body });

const admin = (method: string, path: string, body?: unknown) => stack.admin(method, `/admin${path}`, body);

async function userFailure(interactionId: string): Promise<any> {
  const failure = await user.gateway!.next(
    (p) => p.t === 'INTERACTION_FAILURE' && p.d.id === interactionId,
    5000,
  );
  return failure.d;
}

describe('why an interaction failed, the same everywhere', () => {
  it('an endpoint that answers 500', async () => {
    endpoint.answer = () => ({ status: 500 });
    const invoked = await invoke(invocation(httpApp, commands.roll), 'wait=true');
    expect(invoked.status).toBe(200);
    const id = invoked.body.interaction.id;
    expect(invoked.body).toMatchObject({
      outcome: 'failure',
      reason_code: 1,
      reason: 'the interactions endpoint answered 500',
    });
    expect(await userFailure(id)).toMatchObject({ reason_code: 1, reason: invoked.body.reason });
    const entry = await admin('GET', `/applications/${httpApp.id}/interactions/${id}`);
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({
      id,
      type: 2,
      data: { name: 'roll' },
      user_id: world.user.id,
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      state: 'failed',
      reason: invoked.body.reason,
      delivery: {
        kind: 'endpoint',
        signature_headers: ['X-Signature-Ed25519', 'X-Signature-Timestamp'],
        status: 500,
      },
      payload: { id, data: { name: 'roll' } },
      timings: { delivered_ms: expect.any(Number), answered_ms: expect.any(Number) },
    });
  });

  it('a callback refused with a 50035 tree, then no answer in time', async () => {
    const { answer, interaction } = await deferredInvocation();
    const refused = await callback(interaction, { type: 4, data: { embeds: [{ title: 'x'.repeat(300) }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.data.embeds['0'].title._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    // The 3 seconds pass at once.
    const expired = await admin('POST', `/applications/${httpApp.id}/interactions/${interaction.id}/expire`, {
      window: 'initial',
    });
    expect(expired.status).toBe(200);
    const invoked = await answer;
    expect(invoked.body).toMatchObject({ outcome: 'failure', reason_code: 2 });
    expect(invoked.body.reason).toMatch(
      /^the app did not answer within 3 s; its callback was refused: 400 50035 Invalid Form Body: data\.embeds\.0\.title: BASE_TYPE_MAX_LENGTH/,
    );
    expect(await userFailure(interaction.id)).toMatchObject({ reason_code: 2, reason: invoked.body.reason });
    expect(expired.body).toMatchObject({
      state: 'failed',
      reason: invoked.body.reason,
      refusals: [{ status: 400, body: { code: 50035 } }],
      windows: { initial: 'closed', token: 'valid' },
    });
  });

  it('a gateway app with no bot session: the timeout', async () => {
    const invoked = await invoke(invocation(gatewayApp, gatewayCommand), 'wait=true');
    expect(invoked.body).toMatchObject({
      outcome: 'failure',
      reason_code: 2,
      reason: expect.stringMatching(
        /^the app did not answer within 3 s: no bot session was connected to receive INTERACTION_CREATE /,
      ),
    });
    const page = await admin('GET', `/applications/${gatewayApp.id}/interactions?limit=1`);
    expect(page.body).toEqual([
      expect.objectContaining({
        id: invoked.body.interaction.id,
        delivery: { kind: 'gateway' },
        state: 'failed',
      }),
    ]);
    // The timeline says it in the same words.
    expect(JSON.stringify(page.body)).toContain(JSON.stringify(invoked.body.reason));
  });
});

describe('?wait=final', () => {
  it('waits past the deferral until a follow-up fills it', async () => {
    const { answer, interaction } = await deferredInvocation('wait=final&timeout_ms=20000');
    expect((await callback(interaction, { type: 5 })).status).toBe(204);
    const followup = await api(stack, 'POST', `/webhooks/${httpApp.id}/${interaction.token}`, {
      body: { content: 'Rolled a 6' },
    });
    expect(followup.status).toBe(200);
    const invoked = await answer;
    expect(invoked.status).toBe(200);
    expect(invoked.body).toMatchObject({
      outcome: 'success',
      final: true,
      response: { type: 5 },
      original: { id: followup.body.id, content: 'Rolled a 6' },
    });
    const extra = await api(stack, 'POST', `/webhooks/${httpApp.id}/${interaction.token}`, {
      body: { content: 'and a 2' },
    });
    expect(extra.status).toBe(200);
    const entry = await admin('GET', `/applications/${httpApp.id}/interactions/${interaction.id}`);
    expect(entry.body).toMatchObject({
      state: 'answered',
      outcome: { kind: 'answered', callback_type: 5 },
      followups: [
        { original: true, body: { content: 'Rolled a 6' } },
        { original: false, body: { content: 'and a 2' } },
      ],
    });
  });

  it('refuses a timeout_ms past 60 s', async () => {
    const refused = await invoke(invocation(httpApp, commands.roll), 'wait=final&timeout_ms=60001');
    expect([refused.status, refused.body.code]).toEqual([400, 50035]);
  });
});

describe('expiring the token', () => {
  it('makes follow-ups 401 / 50027 and callbacks 40060 at once', async () => {
    const { answer, interaction } = await deferredInvocation();
    expect((await callback(interaction, { type: 4, data: { content: 'hi' } })).status).toBe(204);
    await answer;
    const expired = await admin('POST', `/applications/${httpApp.id}/interactions/${interaction.id}/expire`, {
      window: 'token',
    });
    expect(expired.body.windows).toEqual({ initial: 'closed', token: 'expired' });
    const late = await api(stack, 'POST', `/webhooks/${httpApp.id}/${interaction.token}`, {
      body: { content: 'late' },
    });
    expect([late.status, late.body.code]).toEqual([401, 50027]);
    const again = await callback(interaction, { type: 4, data: { content: 'again' } });
    expect([again.status, again.body.code]).toEqual([400, 40060]);
  });
});

describe('the timeline routes', () => {
  it('pages newest first, and refuses another application’s interaction and hostile input', async () => {
    const all = await admin('GET', `/applications/${httpApp.id}/interactions`);
    expect(all.status).toBe(200);
    const ids = (all.body as any[]).map((e) => e.id);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect([...ids].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1))).toEqual(ids);
    const first = await admin('GET', `/applications/${httpApp.id}/interactions?limit=2`);
    expect(first.body.map((e: any) => e.id)).toEqual(ids.slice(0, 2));
    const next = await admin('GET', `/applications/${httpApp.id}/interactions?limit=2&before=${ids[1]}`);
    expect(next.body.map((e: any) => e.id)).toEqual(ids.slice(2, 4));

    const foreign = await admin('GET', `/applications/${gatewayApp.id}/interactions/${ids[0]}`);
    expect([foreign.status, foreign.body.code]).toEqual([404, 10062]);
    const foreignExpiry = await admin(
      'POST',
      `/applications/${gatewayApp.id}/interactions/${ids[0]}/expire`,
      {
        window: 'token',
      },
    );
    expect([foreignExpiry.status, foreignExpiry.body.code]).toEqual([404, 10062]);

    const hostile: Array<[string, string, unknown, number, number]> = [
      ['GET', `/applications/9223372036854775808/interactions`, undefined, 400, 50035],
      ['GET', `/applications/${httpApp.id}/interactions/9223372036854775808`, undefined, 400, 50035],
      ['GET', `/applications/${httpApp.id}/interactions?limit=0`, undefined, 400, 50035],
      ['GET', `/applications/${httpApp.id}/interactions?limit=101`, undefined, 400, 50035],
      ['GET', `/applications/${httpApp.id}/interactions?before=abc`, undefined, 400, 50035],
      ['POST', `/applications/${httpApp.id}/interactions/${ids[0]}/expire`, { window: 'later' }, 400, 50035],
      ['POST', `/applications/${httpApp.id}/interactions/${ids[0]}/expire`, {}, 400, 50035],
      ['POST', `/applications/${httpApp.id}/interactions/1/expire`, { window: 'token' }, 404, 10062],
    ];
    for (const [method, path, body, status, code] of hostile) {
      const answer = await admin(method, path, body);
      expect({ path, status: answer.status, code: answer.body?.code }).toEqual({ path, status, code });
    }
  });
});
