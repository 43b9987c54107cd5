import type { interactions } from '@acs/protos';
import {
  APP,
  BOT,
  CHANNEL,
  GUILD,
  OTHER_APP,
  openResponseStores,
  recordInteraction,
  type InteractionFixture,
  type ResponseContext,
} from '../store/response-fixtures';
import { serveResponses, type ResponsesOverGrpc } from './serve-responses';

let ctx: ResponseContext;
let server: ResponsesOverGrpc;

beforeAll(async () => {
  ctx = await openResponseStores();
  server = await serveResponses(ctx, BOT);
});
afterAll(async () => {
  await server?.close();
  await ctx?.close();
});
beforeEach(() => {
  server.applications.flags = 0;
  server.applications.asked.length = 0;
});

const callback = (interactionId: string, token: string, body: unknown, withResponse = false) =>
  server.call<interactions.CreateCallbackRequest, interactions.CreateCallbackResponse__Output>(
    'CreateCallback',
    {
      interaction_id: interactionId,
      token,
      body_json: typeof body === 'string' ? body : JSON.stringify(body),
      with_response: withResponse,
    },
  );
const followup = (token: string, body: unknown, applicationId = APP) =>
  server.call<interactions.CreateFollowupRequest, interactions.MessageResponse__Output>('CreateFollowup', {
    application_id: applicationId,
    token,
    body_json: JSON.stringify(body),
  });
const messageCall = (
  method: 'GetWebhookMessage' | 'EditWebhookMessage' | 'DeleteWebhookMessage',
  token: string,
  messageId: string,
  body?: unknown,
  applicationId = APP,
) =>
  server.call<interactions.WebhookMessageRequest, interactions.MessageResponse__Output>(method, {
    application_id: applicationId,
    token,
    message_id: messageId,
    body_json: body === undefined ? '' : JSON.stringify(body),
  });
const parsed = (answer: { message_json: string }) =>
  JSON.parse(answer.message_json) as Record<string, unknown>;

/** An interaction whose app already answered with `body`. */
async function answered(
  body: unknown = { type: 4, data: { content: 'pong' } },
  fixture: InteractionFixture = {},
) {
  const interaction = await recordInteraction(ctx, fixture);
  await callback(interaction.id, interaction.token, body);
  return interaction;
}

describe('CreateCallback', () => {
  it('answers empty (204) and records the response', async () => {
    const interaction = await recordInteraction(ctx);
    await expect(
      callback(interaction.id, interaction.token, { type: 4, data: { content: 'pong' } }),
    ).resolves.toEqual({
      response_json: '',
      application_id: APP, // whose callback it was: the edge's request log
    });
    expect(parsed(await messageCall('GetWebhookMessage', interaction.token, '@original'))).toMatchObject({
      content: 'pong',
      author: BOT,
      channel_id: CHANNEL,
    });
  });

  it('answers the callback response object with with_response', async () => {
    const interaction = await recordInteraction(ctx);
    const answer = await callback(
      interaction.id,
      interaction.token,
      { type: 4, data: { content: 'hi', flags: 64 } },
      true,
    );
    const response = JSON.parse(answer.response_json) as {
      interaction: Record<string, unknown>;
      resource: { type: number; message: Record<string, unknown> };
    };
    expect(response.interaction).toEqual({
      id: interaction.id,
      type: 2,
      response_message_id: response.resource.message.id,
      response_message_loading: false,
      response_message_ephemeral: true,
    });
    expect(response.resource).toMatchObject({ type: 4, message: { content: 'hi', flags: 64, type: 20 } });

    const deferred = await recordInteraction(ctx);
    const deferAnswer = JSON.parse(
      (await callback(deferred.id, deferred.token, { type: 5 }, true)).response_json,
    );
    expect(deferAnswer).toMatchObject({
      interaction: { response_message_loading: true, response_message_ephemeral: false },
    });
    expect(deferAnswer.resource).toBeUndefined();
  });

  it('takes LAUNCH_ACTIVITY from EMBEDDED apps only (asking oauth for the flags)', async () => {
    const plain = await recordInteraction(ctx);
    expect((await server.errorOf(callback(plain.id, plain.token, { type: 12 }))).toBody()).toMatchObject({
      code: 50035,
      errors: { type: { _errors: [{ code: 'INTERACTION_CALLBACK_TYPE_INVALID' }] } },
    });
    server.applications.flags = 1 << 17;
    const embedded = await recordInteraction(ctx);
    const answer = JSON.parse(
      (await callback(embedded.id, embedded.token, { type: 12 }, true)).response_json,
    );
    expect(answer).toEqual({
      interaction: {
        id: embedded.id,
        type: 2,
        activity_instance_id: `i-${embedded.id}-gc-${GUILD}-${CHANNEL}`,
      },
      resource: { type: 12, activity_instance: { id: `i-${embedded.id}-gc-${GUILD}-${CHANNEL}` } },
    });
  });

  it('answers an autocomplete with choices of the focused option type, without asking oauth', async () => {
    const interaction = await recordInteraction(ctx, {
      type: 4,
      data: { id: '1', name: 'pick', type: 1, options: [{ name: 'n', type: 4, value: '1', focused: true }] },
    });
    const error = await server.errorOf(
      callback(interaction.id, interaction.token, {
        type: 8,
        data: { choices: [{ name: 'One', value: 'one' }] },
      }),
    );
    expect(error.toBody()).toMatchObject({
      errors: { data: { choices: { '0': { value: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } } } } },
    });
    await expect(
      callback(interaction.id, interaction.token, {
        type: 8,
        data: { choices: [{ name: 'One', value: 1 }] },
      }),
    ).resolves.toEqual({ response_json: '', application_id: APP });
    expect(server.applications.asked).toEqual([]);
  });

  it('answers 404 / 10062 for an unknown interaction or a wrong token, 40060 for a second answer', async () => {
    const interaction = await recordInteraction(ctx);
    const other = await recordInteraction(ctx);
    const reply = { type: 4, data: { content: 'x' } };
    for (const attempt of [
      () => callback('1500000000000009999', interaction.token, reply),
      () => callback(interaction.id, other.token, reply),
      () => callback(interaction.id, 'not-a-token', reply),
      () => callback(interaction.id, '', reply),
    ]) {
      const error = await server.errorOf(attempt());
      expect({ status: error.httpStatus, body: error.toBody() }).toEqual({
        status: 404,
        body: { code: 10062, message: 'Unknown interaction' },
      });
    }
    await callback(interaction.id, interaction.token, reply);
    const again = await server.errorOf(callback(interaction.id, interaction.token, reply));
    expect({ status: again.httpStatus, body: again.toBody() }).toEqual({
      status: 400,
      body: { code: 40060, message: 'Interaction has already been acknowledged' },
    });
  });

  it('answers 10062 once the deadline passed', async () => {
    const interaction = await recordInteraction(ctx, { deadlineMs: 50 });
    await new Promise((r) => setTimeout(r, 80));
    expect((await server.errorOf(callback(interaction.id, interaction.token, { type: 5 }))).code).toBe(10062);
  });

  it('answers bad input with Discord errors, never a 500', async () => {
    const interaction = await recordInteraction(ctx);
    expect((await server.errorOf(callback('abc', interaction.token, { type: 4 }))).toBody()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        interaction_id: {
          _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "abc" is not snowflake.' }],
        },
      },
    });
    expect((await server.errorOf(callback(interaction.id, interaction.token, '{"type":'))).toBody()).toEqual({
      code: 50109,
      message: 'The request body contains invalid JSON.',
    });
    expect(
      (await server.errorOf(callback(interaction.id, interaction.token, { type: 7 }))).toBody(),
    ).toMatchObject({
      code: 50035,
      errors: { type: { _errors: [{ code: 'INTERACTION_CALLBACK_TYPE_INVALID' }] } },
    });
    const empty = await server.errorOf(
      callback(interaction.id, interaction.token, { type: 4, data: { content: ' ' } }),
    );
    expect({ status: empty.httpStatus, body: empty.toBody() }).toEqual({
      status: 400,
      body: { code: 50006, message: 'Cannot send an empty message' },
    });
    // None of it counted as the response.
    await expect(callback(interaction.id, interaction.token, { type: 5 })).resolves.toEqual({
      response_json: '',
      application_id: APP, // whose callback it was: the edge's request log
    });
  });
});

describe('webhook routes', () => {
  it('post follow-ups after the response, taking the author from it (no oauth call)', async () => {
    const interaction = await answered();
    server.applications.asked.length = 0;
    const message = parsed(await followup(interaction.token, { content: 'later' }));
    expect(message).toMatchObject({ content: 'later', author: BOT, webhook_id: APP });
    expect(parsed(await messageCall('GetWebhookMessage', interaction.token, String(message.id)))).toEqual(
      message,
    );
    expect(server.applications.asked).toEqual([]);
  });

  it('fill the loading message with the first follow-up after a defer', async () => {
    const interaction = await answered({ type: 5 });
    const original = parsed(await messageCall('GetWebhookMessage', interaction.token, '@original'));
    expect(original.flags).toBe(128);
    const filled = parsed(await followup(interaction.token, { content: 'done' }));
    expect(filled).toMatchObject({ id: original.id, content: 'done', flags: 0 });
  });

  it('edit and delete @original and follow-ups', async () => {
    const interaction = await answered();
    const edited = parsed(
      await messageCall('EditWebhookMessage', interaction.token, '@original', { content: 'edited' }),
    );
    expect(edited).toMatchObject({ content: 'edited' });
    expect(edited.edited_timestamp).not.toBeNull();
    const extra = parsed(await followup(interaction.token, { embeds: [{ title: 'Embed' }] }));
    await expect(messageCall('DeleteWebhookMessage', interaction.token, String(extra.id))).resolves.toEqual(
      {},
    );
    const gone = await server.errorOf(messageCall('GetWebhookMessage', interaction.token, String(extra.id)));
    expect({ status: gone.httpStatus, body: gone.toBody() }).toEqual({
      status: 404,
      body: { code: 10008, message: 'Unknown Message' },
    });
  });

  it('answer 401 / 50027 for a malformed, unknown or foreign token', async () => {
    const interaction = await answered();
    const other = await answered(undefined, { applicationId: OTHER_APP });
    const tokens: Array<[string, string]> = [
      ['garbage', APP],
      ['', APP],
      [Buffer.from('interaction:1500000000000009999:' + 'a'.repeat(64)).toString('base64url'), APP],
      [Buffer.from(`interaction:${interaction.id}:${'b'.repeat(64)}`).toString('base64url'), APP],
      [other.token, APP],
      [interaction.token, OTHER_APP],
    ];
    for (const [token, applicationId] of tokens) {
      for (const attempt of [
        () => followup(token, { content: 'x' }, applicationId),
        () => messageCall('GetWebhookMessage', token, '@original', undefined, applicationId),
        () => messageCall('EditWebhookMessage', token, '@original', { content: 'x' }, applicationId),
        () => messageCall('DeleteWebhookMessage', token, '@original', undefined, applicationId),
      ]) {
        const error = await server.errorOf(attempt());
        expect({ status: error.httpStatus, body: error.toBody() }).toEqual({
          status: 401,
          body: { code: 50027, message: 'Invalid Webhook Token' },
        });
      }
    }
  });

  it('answer 50027 once the token lived its TTL', async () => {
    const interaction = await answered(undefined, { ttlMs: 400 });
    await expect(followup(interaction.token, { content: 'in time' })).resolves.toBeDefined();
    await new Promise((r) => setTimeout(r, 450));
    for (const attempt of [
      () => followup(interaction.token, { content: 'too late' }),
      () => messageCall('GetWebhookMessage', interaction.token, '@original'),
    ]) {
      expect((await server.errorOf(attempt())).code).toBe(50027);
    }
  });

  it('have no webhook before the response (10015) and no @original (10008)', async () => {
    const pending = await recordInteraction(ctx);
    const error = await server.errorOf(followup(pending.token, { content: 'too soon' }));
    expect({ status: error.httpStatus, body: error.toBody() }).toEqual({
      status: 404,
      body: { code: 10015, message: 'Unknown Webhook' },
    });
    expect((await server.errorOf(messageCall('GetWebhookMessage', pending.token, '@original'))).code).toBe(
      10008,
    );
  });

  it('answer 40094 past five follow-ups of a user-install-only interaction', async () => {
    const interaction = await answered(undefined, { userInstallOnly: true });
    for (let i = 0; i < 5; i++) await followup(interaction.token, { content: `#${i}` });
    const error = await server.errorOf(followup(interaction.token, { content: 'sixth' }));
    expect({ status: error.httpStatus, code: error.code }).toEqual({ status: 400, code: 40094 });
  });

  it('validate bodies and ids', async () => {
    const interaction = await answered();
    expect(
      (await server.errorOf(followup(interaction.token, { content: 'x'.repeat(2001) }))).toBody(),
    ).toMatchObject({
      code: 50035,
      errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } },
    });
    expect((await server.errorOf(followup(interaction.token, {}))).code).toBe(50006);
    expect(
      (await server.errorOf(messageCall('GetWebhookMessage', interaction.token, 'latest'))).toBody(),
    ).toMatchObject({
      code: 50035,
      errors: { message_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } },
    });
    expect(
      (
        await server.errorOf(
          messageCall('EditWebhookMessage', interaction.token, '@original', { embeds: 'x' }),
        )
      ).toBody(),
    ).toMatchObject({ code: 50035, errors: { embeds: { _errors: [{ code: 'LIST_TYPE_CONVERT' }] } } });
    expect(
      (await server.errorOf(followup(interaction.token, { content: 'x' }, 'app'))).toBody(),
    ).toMatchObject({
      code: 50035,
      errors: { webhook_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } },
    });
  });
});
