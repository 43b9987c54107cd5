import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import {
  createApplication,
  createDemoWorld,
  installApplication,
  startTestStack,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';

/**
 * The two windows of an interaction, shortened by the test settings
 * INTERACTION_RESPONSE_DEADLINE_MS (Discord: 3 s) and INTERACTION_TOKEN_TTL_SECONDS
 * (Discord: 15 min): no initial response in time fails the interaction for the user
 * (INTERACTION_FAILURE reason 2) and the callback then gets 10062; once the token has
 * expired, follow-ups and edits get 401 / 50027.
 */
const DEADLINE_MS = 800;
const TTL_SECONDS = 3;

let stack: TestStack;
let endpoint: InteractionsEndpoint;
let app: { id: string; bot_token: string; verify_key: string };
let user: ChatUser;
let command: any;
let body: () => Record<string, unknown>;

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      INTERACTION_RESPONSE_DEADLINE_MS: String(DEADLINE_MS),
      INTERACTION_TOKEN_TTL_SECONDS: String(TTL_SECONDS),
    },
  });
  const world = await createDemoWorld(stack);
  app = await createApplication(stack, { name: 'Slow App', owner_id: world.user.id });
  endpoint = await new InteractionsEndpoint(app.verify_key).start();
  expect(
    (await stack.admin('PATCH', `/admin/applications/${app.id}`, { interactions_endpoint_url: endpoint.url }))
      .status,
  ).toBe(200);
  await installApplication(stack, { applicationId: app.id, userId: world.user.id, guildId: world.guild.id });
  const put = await api(stack, 'PUT', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
    token: `Bot ${app.bot_token}`,
    body: [{ name: 'slow', description: 'Takes its time' }],
  });
  command = put.body[0];
  body = () => ({
    type: 2,
    application_id: app.id,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    data: { id: command.id, name: 'slow', type: 1, version: command.version },
  });
  user = await (await ChatUser.open(stack, world.user.id)).connect();
});

afterAll(async () => {
  user?.close();
  await endpoint?.stop();
  await stack?.stop();
});

it('fails an interaction nobody answered in time; a late callback gets 10062', async () => {
  endpoint.answer = () => ({ status: 202 });
  const seen = user.gateway!.received.length;
  const started = Date.now();
  const outcome = await user.invoke(body());
  expect(outcome.status).toBe(200);
  expect(outcome.body).toMatchObject({ outcome: 'failure', reason_code: 2, response: null, messages: [] });
  expect(Date.now() - started).toBeGreaterThanOrEqual(DEADLINE_MS - 50);

  const interaction = endpoint.received.at(-1);
  const failure = await user.gateway!.next(
    (p) => p.t === 'INTERACTION_FAILURE' && p.d.id === interaction.id,
    5000,
    seen,
  );
  expect(failure.d.reason_code).toBe(2);
  const late = await api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
    body: { type: 4, data: { content: 'too late' } },
  });
  expect(late.status).toBe(404);
  expect(late.body.code).toBe(10062);
});

it('fails at once when the endpoint answers with an error', async () => {
  endpoint.answer = () => ({ status: 500 });
  const outcome = await user.invoke(body());
  // Reason 1 (UNKNOWN), not 2: the failure came from the answer, not from the deadline.
  expect(outcome.body).toMatchObject({ outcome: 'failure', reason_code: 1 });
});

it('accepts follow-ups while the token lives, and 401 / 50027 after', async () => {
  endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'first' } } });
  const outcome = await user.invoke(body());
  expect(outcome.body.outcome).toBe('success');
  const interaction = endpoint.received.at(-1);
  const hook = `/webhooks/${app.id}/${interaction.token}`;
  expect((await api(stack, 'POST', hook, { body: { content: 'still here' } })).status).toBe(200);
  await new Promise((r) => setTimeout(r, TTL_SECONDS * 1000 + 300));
  for (const [method, path, payload] of [
    ['POST', hook, { content: 'gone' }],
    ['PATCH', `${hook}/messages/@original`, { content: 'gone' }],
    ['GET', `${hook}/messages/@original`, undefined],
  ] as const) {
    const answer = await api(stack, method, path, { body: payload });
    expect([method, answer.status, answer.body.code]).toEqual([method, 401, 50027]);
  }
});
