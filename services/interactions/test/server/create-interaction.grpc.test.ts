import { DiscordError } from '@acs/discord-errors';
import { PUBLIC_ONLY } from '@acs/outbound';
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
let nonces = 0;

beforeAll(async () => {
  server = await startInvocationServer({ deadlineMs: 1500, sweepIntervalMs: 200 });
  endpoint = new Endpoint(() => httpApp.publicKey);
  httpApp = makeApp(server.world, await endpoint.start());
  gatewayApp = makeApp(server.world);
});
afterAll(async () => {
  await server?.close();
  await endpoint?.stop();
});

/** The invocation body of `command` in the guild channel. */
function body(
  command: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  data: Record<string, unknown> = {},
) {
  return {
    type: 2,
    application_id: command.application_id,
    guild_id: GUILD,
    channel_id: CHANNEL,
    nonce: `n${++nonces}`,
    ...extra,
    data: { id: command.id, name: command.name, type: command.type, version: command.version, ...data },
  };
}

/** CreateInteraction; with `wait`, the parsed outcome. */
async function invoke(invocation: object | string, wait = true): Promise<Record<string, Json> | null> {
  const answer = await server.call<interactions.CreateInteractionResponse__Output>('CreateInteraction', {
    user_id: USER.id,
    body_json: typeof invocation === 'string' ? invocation : JSON.stringify(invocation),
    locale: 'en-GB',
    wait,
  });
  return answer.outcome_json === '' ? null : (JSON.parse(answer.outcome_json) as Record<string, Json>);
}

async function refusal(invocation: object | string): Promise<DiscordError> {
  const error = await invoke(invocation).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DiscordError);
  return error as DiscordError;
}

const outboxEvents = async () =>
  (
    await server.pool.query<{ subject: string; payload: { data: Record<string, Json> } }>(
      'SELECT subject, payload FROM outbox ORDER BY seq',
    )
  ).rows.map((r) => ({ subject: r.subject.replace('acs.interactions.', ''), data: r.payload.data }));

describe('HTTP delivery', () => {
  it('POSTs the signed interaction; an inline 200 answer is the response and the wait outcome', async () => {
    const command = makeCommand(server.world, httpApp);
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Pong!' } } });
    const from = endpoint.received.length;
    const asked = { ...server.world.calls };
    const outcome = await invoke(body(command));

    // Each peer asked once: the inline answer reuses what the invocation learned of the app.
    expect(server.world.calls).toEqual({
      oauth: asked.oauth + 1,
      registry: asked.registry + 1,
      permissions: asked.permissions + 1,
    });
    expect(endpoint.received).toHaveLength(from + 1);
    const received = endpoint.received[from]!;
    expect(received.verified).toBe(true);
    expect(received.headers['user-agent']).toBe('Discord-Interactions/1.0 (+https://discord.com)');
    expect(received.headers['x-signature-timestamp']).toMatch(/^\d{10}$/);
    expect(received.body).toMatchObject({
      application_id: httpApp.id,
      type: 2,
      data: { id: command.id, name: 'ping', type: 1 },
      guild_id: GUILD,
      channel_id: CHANNEL,
      member: { user: USER, permissions: expect.any(String) },
      version: 1,
      locale: 'en-GB',
      entitlements: [],
      authorizing_integration_owners: { '0': GUILD },
      context: 0,
      attachment_size_limit: 20971520,
    });
    expect(typeof received.body.token).toBe('string');

    expect(outcome).toMatchObject({
      interaction: { id: received.body.id, type: 2 },
      outcome: 'success',
      response: { type: 4, data: { content: 'Pong!' } },
      messages: [
        {
          type: 20,
          content: 'Pong!',
          author: httpApp.botUser,
          interaction_metadata: { id: received.body.id },
        },
      ],
    });
    expect(outcome!.interaction).not.toHaveProperty('token');
    expect(outcome).not.toHaveProperty('reason_code');
    const events = (await outboxEvents()).filter(
      (e) =>
        e.data.interaction_id === received.body.id ||
        e.data.message?.interaction_metadata?.id === received.body.id,
    );
    expect(events.map((e) => e.subject)).toEqual([
      'interaction.created',
      'interaction.succeeded',
      'message.created',
    ]);
    // Delivered over HTTP: the bot's gateway session gets nothing.
    expect(events[0]!.data.bot_payload).toBeNull();
  });

  it('fails at once with reason 1 when the endpoint answers anything but 200 or 202', async () => {
    const command = makeCommand(server.world, httpApp);
    for (const answer of [{ status: 500 }, { status: 200, body: undefined }, { status: 401 }]) {
      endpoint.answer = () => answer;
      const started = Date.now();
      const outcome = await invoke(body(command));
      expect(outcome).toMatchObject({ outcome: 'failure', reason_code: 1, response: null, messages: [] });
      expect(Date.now() - started).toBeLessThan(1200);
    }
  });

  it('fails with reason 1 when the inline answer is not a valid response', async () => {
    const command = makeCommand(server.world, httpApp);
    endpoint.answer = () => ({ status: 200, body: { type: 7, data: { content: 'components only' } } });
    await expect(invoke(body(command))).resolves.toMatchObject({ outcome: 'failure', reason_code: 1 });
  });

  it('waits for the callback after a 202, and fails with reason 2 at the deadline without one', async () => {
    const command = makeCommand(server.world, httpApp);
    endpoint.answer = () => ({ status: 202 });
    const from = endpoint.received.length;
    const waiting = invoke(body(command));
    while (endpoint.received.length === from) await new Promise((r) => setTimeout(r, 20));
    const interaction = endpoint.received[from]!.body;
    await server.call('CreateCallback', {
      interaction_id: interaction.id,
      token: interaction.token,
      body_json: JSON.stringify({ type: 5 }),
      with_response: false,
    });
    await expect(waiting).resolves.toMatchObject({ outcome: 'success', response: { type: 5 } });

    const started = Date.now();
    const late = await invoke(body(command));
    expect(late).toMatchObject({ outcome: 'failure', reason_code: 2, response: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('fails with reason 1 when the address policy refuses the endpoint', async () => {
    const strict = await startInvocationServer({ policy: PUBLIC_ONLY });
    try {
      const app = makeApp(strict.world, endpoint.url);
      const command = makeCommand(strict.world, app);
      const from = endpoint.received.length;
      const answer = await strict.call<interactions.CreateInteractionResponse__Output>('CreateInteraction', {
        user_id: USER.id,
        body_json: JSON.stringify(body(command)),
        locale: '',
        wait: true,
      });
      expect(JSON.parse(answer.outcome_json)).toMatchObject({ outcome: 'failure', reason_code: 1 });
      expect(endpoint.received).toHaveLength(from);
    } finally {
      await strict.close();
    }
  });
});

describe('gateway delivery', () => {
  it("records the full object, token included, as the bot's INTERACTION_CREATE, and answers 204 at once", async () => {
    const command = makeCommand(server.world, gatewayApp);
    const invocation = body(command, { session_id: 's'.repeat(32) });
    await expect(invoke(invocation, false)).resolves.toBeNull();
    const created = (await outboxEvents()).filter((e) => e.subject === 'interaction.created').at(-1)!;
    expect(created.data).toMatchObject({
      application_id: gatewayApp.id,
      user_id: USER.id,
      session_id: 's'.repeat(32),
      nonce: invocation.nonce,
      guild_id: GUILD,
      channel_id: CHANNEL,
      type: 2,
      bot_payload: {
        id: created.data.interaction_id,
        token: expect.any(String),
        data: { name: 'ping' },
        version: 1,
      },
    });
    const row = await server.pool.query(
      'SELECT delivery, state, token_hash, payload FROM interaction WHERE id = $1',
      [created.data.interaction_id],
    );
    expect(row.rows[0]).toMatchObject({ delivery: 'gateway', state: 'pending' });
    expect(JSON.stringify(row.rows[0].payload)).not.toContain(created.data.bot_payload.token);
  });

  it('answers the wait when the bot calls back, with the messages it made', async () => {
    const command = makeCommand(server.world, gatewayApp);
    const invocation = body(command);
    const askedBefore = server.world.calls.oauth;
    const waiting = invoke(invocation);
    let created: Record<string, Json> | undefined;
    while (!created) {
      created = (await outboxEvents()).find(
        (e) => e.subject === 'interaction.created' && e.data.nonce === invocation.nonce,
      )?.data;
      if (!created) await new Promise((r) => setTimeout(r, 20));
    }
    await server.call('CreateCallback', {
      interaction_id: created.interaction_id,
      token: created.bot_payload.token,
      body_json: JSON.stringify({ type: 4, data: { content: 'Hello!', flags: 64 } }),
      with_response: false,
    });
    const outcome = await waiting;
    expect(outcome).toMatchObject({
      outcome: 'success',
      response: { type: 4 },
      messages: [{ content: 'Hello!', flags: 64, author: gatewayApp.botUser }],
    });
    // The message's author came with the invocation: the callback asked oauth nothing more.
    expect(server.world.calls.oauth - askedBefore).toBe(1);
  });

  it('fails a gateway interaction nobody answers with reason 2, sending interaction.failed', async () => {
    const command = makeCommand(server.world, gatewayApp);
    const outcome = await invoke(body(command));
    expect(outcome).toMatchObject({ outcome: 'failure', reason_code: 2 });
    const failed = (await outboxEvents()).filter((e) => e.subject === 'interaction.failed').at(-1)!;
    expect(failed.data).toMatchObject({
      interaction_id: outcome!.interaction.id,
      reason_code: 2,
      user_id: USER.id,
    });
  });
});

describe('replayed nonces', () => {
  it('invokes once: a replay answers 204, or with wait the first outcome', async () => {
    const command = makeCommand(server.world, httpApp);
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'once' } } });
    const invocation = body(command);
    const from = endpoint.received.length;
    const first = await invoke(invocation);
    await expect(invoke(invocation, false)).resolves.toBeNull();
    const again = await invoke(invocation);
    expect(again).toEqual(first);
    expect(endpoint.received).toHaveLength(from + 1);
  });
});

describe('entry points', () => {
  it('launches an Activity with handler 2 without the app: the launch message, success at once', async () => {
    const app = makeApp(server.world, null, 1 << 17);
    const command = makeCommand(server.world, app, { type: 4, name: 'launch', description: '', handler: 2 });
    const outcome = await invoke(body(command));
    expect(outcome).toMatchObject({
      outcome: 'success',
      response: { type: 12 },
      messages: [
        {
          type: 20,
          content: '',
          author: app.botUser,
          interaction_metadata: { id: outcome!.interaction.id, name: 'launch', command_type: 4, user: USER },
        },
      ],
    });
    const row = await server.pool.query(
      'SELECT delivery, activity_instance_id FROM interaction WHERE id = $1',
      [outcome!.interaction.id],
    );
    expect(row.rows[0]).toEqual({
      delivery: 'activity',
      activity_instance_id: `i-${outcome!.interaction.id}-gc-${GUILD}-${CHANNEL}`,
    });
    const events = (await outboxEvents()).filter(
      (e) =>
        e.data.interaction_id === outcome!.interaction.id || e.data.message?.id === outcome!.messages[0].id,
    );
    expect(events.map((e) => e.subject)).toEqual([
      'interaction.created',
      'interaction.succeeded',
      'message.created',
    ]);
    expect(events[0]!.data.bot_payload).toBeNull();
  });

  it('sends handler 1 to the app, which may launch the Activity itself', async () => {
    const app = makeApp(server.world, null, 1 << 17);
    app.endpoint = endpoint.url;
    const from = endpoint.received.length;
    const command = makeCommand(server.world, app, { type: 4, name: 'launch', description: '', handler: 1 });
    endpoint.answer = () => ({ status: 200, body: { type: 12 } });
    const saved = httpApp;
    httpApp = app;
    try {
      const outcome = await invoke(body(command));
      expect(endpoint.received).toHaveLength(from + 1);
      expect(endpoint.received[from]!.verified).toBe(true);
      expect(outcome).toMatchObject({ outcome: 'success', response: { type: 12 } });
    } finally {
      httpApp = saved;
    }
  });
});

describe('invalid invocations', () => {
  it('never reach the app, each with its own answer', async () => {
    const command = makeCommand(server.world, httpApp, {
      options: [{ type: 4, name: 'times', description: 'd', min_value: 1, max_value: 3 }],
    });
    const from = endpoint.received.length;
    const before = (await outboxEvents()).length;

    expect((await refusal('{"type": 2,')).toBody()).toEqual({
      code: 50109,
      message: 'The request body contains invalid JSON.',
    });
    expect((await refusal(body(command, {}, { id: '1' }))).errors).toEqual({
      data: {
        id: {
          _errors: [
            { code: 'INTERACTION_APPLICATION_COMMAND_INVALID', message: 'Unknown application command' },
          ],
        },
      },
    });
    expect((await refusal(body(command, {}, { version: '2' }))).errors).toEqual({
      data: {
        _errors: [{ code: 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION', message: expect.any(String) }],
      },
    });
    expect(
      (await refusal(body(command, {}, { options: [{ name: 'times', value: 9 }] }))).errors,
    ).toMatchObject({
      data: {
        options: { 0: { value: { _errors: [{ code: 'INTERACTION_APPLICATION_COMMAND_OPTION_INVALID' }] } } },
      },
    });
    expect((await refusal({ ...body(command), application_id: '1500000000000009999' })).toBody()).toEqual({
      code: 10002,
      message: 'Unknown Application',
    });
    expect((await refusal(body(command, { channel_id: '1500000000000009998' }))).toBody()).toEqual({
      code: 10003,
      message: 'Unknown Channel',
    });
    expect((await refusal(body(command, {}, { name: 'a\u0000' }))).errors).toEqual({
      data: { name: { _errors: [{ code: 'STRING_TYPE_NUL_CHARACTER', message: expect.any(String) }] } },
    });
    const badUser = await server
      .call('CreateInteraction', {
        user_id: 'me',
        body_json: JSON.stringify(body(command)),
        locale: '',
        wait: false,
      })
      .catch((e: unknown) => e);
    expect(badUser).toMatchObject({ httpStatus: 400, code: 50035 });

    expect(endpoint.received).toHaveLength(from);
    expect(await outboxEvents()).toHaveLength(before);
  });

  it('answers hostile bodies with 400s, never a 500', async () => {
    const command = makeCommand(server.world, httpApp);
    const hostile: unknown[] = [
      null,
      [],
      'text',
      42,
      { ...body(command), type: { $gt: 1 } },
      { ...body(command), data: [] },
      body(command, {}, { options: 'x'.repeat(10_000) }),
      body(command, {}, { options: [{ name: { nested: true }, value: [1, 2] }] }),
      body(command, { nonce: { a: 1 } }),
      '{"type":2,"application_id":"1","channel_id":"1","data":{"id":"1","name":"x","version":1e400}}',
      body(command, {}, { target_id: '99999999999999999999999' }),
    ];
    for (const item of hostile) {
      const error = await refusal(
        item === null ? 'null' : typeof item === 'string' ? JSON.stringify(item) : (item as object),
      );
      expect(error.httpStatus).toBe(400);
    }
  });
});

describe('a modal submit with files', () => {
  const MODAL = {
    custom_id: 'upload',
    title: 'Upload',
    components: [{ type: 18, label: 'Files', component: { type: 19, custom_id: 'docs', max_values: 2 } }],
  };
  const file = (index: number, filename: string) => ({
    index,
    blob_key: `uploads/server-${index}-${nonces}`,
    filename,
    content_type: 'text/plain',
    size: 3,
  });

  it('describes the open modal’s upload limit to its user only, and delivers the files as attachments', async () => {
    const command = makeCommand(server.world, httpApp);
    endpoint.answer = () => ({ status: 200, body: { type: 9, data: MODAL } });
    const from = endpoint.received.length;
    await invoke(body(command));
    const openerId = endpoint.received[from]!.body.id as string;
    const describe = (userId: string) =>
      server.call<interactions.DescribeUploadResponse__Output>('DescribeUpload', {
        interaction_id: openerId,
        user_id: userId,
        token: '',
      });
    expect(Number((await describe(USER.id)).attachment_size_limit)).toBe(20971520);
    await expect(describe('1500000000000000999')).rejects.toMatchObject({ httpStatus: 404, code: 10062 });

    const submit = (values: string[]) => ({
      type: 5,
      application_id: httpApp.id,
      guild_id: GUILD,
      channel_id: CHANNEL,
      nonce: `n${++nonces}`,
      data: {
        id: openerId,
        custom_id: 'upload',
        components: [{ type: 18, component: { type: 19, custom_id: 'docs', values } }],
      },
    });
    const withFiles = (invocation: object, files: object[]) =>
      server.call('CreateInteraction', {
        user_id: USER.id,
        body_json: JSON.stringify(invocation),
        locale: 'en-GB',
        wait: true,
        files,
        attachment_base_url: 'http://acs.test',
      });
    // Files on a command, or a value naming no file: 50035, and nothing is recorded.
    await expect(withFiles(body(command), [file(0, 'a.txt')])).rejects.toMatchObject({
      httpStatus: 400,
      errors: { files: { _errors: [{ code: 'ATTACHMENTS_NOT_SUPPORTED' }] } },
    });
    await expect(withFiles(submit(['1']), [file(0, 'a.txt')])).rejects.toMatchObject({
      httpStatus: 400,
      errors: { data: { components: { '0': { component: { values: { '0': expect.anything() } } } } } },
    });

    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Thanks', flags: 64 } } });
    const submitFrom = endpoint.received.length;
    const files = [file(0, 'a.txt'), file(1, 'b c.txt')];
    await withFiles(submit(['1', '0']), files);
    const received = endpoint.received[submitFrom]!.body;
    const ids = received.data.components[0].component.values as string[];
    expect(ids).toHaveLength(2);
    expect(received.data.resolved.attachments[ids[0]!]).toEqual({
      id: ids[0],
      filename: 'b_c.txt',
      content_type: 'text/plain',
      size: 3,
      url: expect.stringMatching(
        new RegExp(`^http://acs\\.test/attachments/${CHANNEL}/${ids[0]}/b_c\\.txt\\?ex=`),
      ),
      proxy_url: received.data.resolved.attachments[ids[0]!].url,
      ephemeral: true,
    });
    const { rows } = await server.pool.query<{ id: string; message_id: string | null; blob_key: string }>(
      'SELECT id::text, message_id::text, blob_key FROM attachment WHERE interaction_id = $1 ORDER BY blob_key',
      [received.id],
    );
    expect(rows).toEqual([
      { id: ids[1], message_id: null, blob_key: files[0]!.blob_key },
      { id: ids[0], message_id: null, blob_key: files[1]!.blob_key },
    ]);
    // Submitted: the modal takes no more files.
    await expect(describe(USER.id)).rejects.toMatchObject({ httpStatus: 404, code: 10062 });
  });
});
