import { connect, type NatsConnection } from 'nats';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import {
  createApplication,
  createDemoWorld,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';
import { api, ChatUser } from './support/chat-user';

/**
 * The caches of the invocation path (issue 27) under replicas: every service runs twice,
 * so consecutive invocations reach both interactions replicas and warm both caches. A
 * change made through the public or admin API reaches every replica's cache by its event
 * (`command-registry.scope.changed`; oauth's `application.updated`, `user.updated`,
 * `application.deauthorized`); nothing expires by time, so a cache the event did not
 * reach would answer the old fact forever and these tests would time out. A client that
 * already holds the new version is served at once, before the event. The oauth tests
 * first wait for the change's event itself (a NATS subscription of the test), then for
 * the invocation that shows it: the event and the invocation travel on different
 * connections, so the first invocation after it may still race it on a loaded machine;
 * every one after must show the new fact.
 */
let stack: TestStack;
let world: DemoWorld;
let endpoint: InteractionsEndpoint;
let app: { id: string; bot_token: string; verify_key: string };
let user: ChatUser;
let nats: NatsConnection;

beforeAll(async () => {
  stack = await startTestStack({ replicas: 2 });
  nats = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  world = await createDemoWorld(stack);
  app = await createApplication(stack, { name: 'Cached App', owner_id: world.user.id });
  endpoint = await new InteractionsEndpoint(app.verify_key).start();
  expect(
    (
      await stack.admin('PATCH', `/admin/applications/${app.id}`, {
        interactions_endpoint_url: endpoint.url,
      })
    ).status,
  ).toBe(200);
  await installApplication(stack, { applicationId: app.id, userId: world.user.id, guildId: world.guild.id });
  user = await ChatUser.open(stack, world.user.id);
});

afterAll(async () => {
  await nats?.close();
  await endpoint?.stop();
  await stack?.stop();
});

const commandsPath = () => `/applications/${app.id}/guilds/${world.guild.id}/commands`;

function invoke(command: { id: string; name: string; version: string }) {
  return api(stack, 'POST', '/interactions', {
    token: user.token,
    body: {
      type: 2,
      application_id: app.id,
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      data: { id: command.id, name: command.name, type: 1, version: command.version },
    },
  });
}

/** The first error code of a 50035 answer at `data` (or at `data.id`). */
function errorCode(answer: { status: number; body: any }): string | undefined {
  const errors = answer.body?.errors?.data;
  return errors?._errors?.[0]?.code ?? errors?.id?._errors?.[0]?.code;
}

/** Invokes until `accept(answer)` holds, within a deadline; resolves with the answers seen. */
async function invokeUntil(
  command: { id: string; name: string; version: string },
  accept: (answer: { status: number; body: any }) => boolean,
  deadlineMs = 15_000,
) {
  const seen: Array<{ status: number; body: any }> = [];
  const end = Date.now() + deadlineMs;
  for (;;) {
    const answer = await invoke(command);
    seen.push(answer);
    if (accept(answer)) return seen;
    if (Date.now() > end) throw new Error(`never accepted: ${JSON.stringify(seen.slice(-3))}`);
  }
}

it('an edited command is invoked at its new version on every replica, the old one refused', async () => {
  const put = await api(stack, 'PUT', commandsPath(), {
    token: `Bot ${app.bot_token}`,
    body: [{ name: 'cached', description: 'First' }],
  });
  expect(put.status).toBe(200);
  const first = put.body[0];
  // Both interactions replicas remember the command (round robin over them).
  for (let i = 0; i < 4; i++) expect((await invoke(first)).status).toBe(204);

  const edited = await api(stack, 'PATCH', `${commandsPath()}/${first.id}`, {
    token: `Bot ${app.bot_token}`,
    body: { description: 'Second' },
  });
  expect(edited.status).toBe(200);
  expect(edited.body.version).not.toBe(first.version);

  // A client that knows the new version is served at once (a remembered other version
  // makes the cache ask command-registry; here the event is usually first anyway); the
  // event makes every replica refuse the old one.
  for (let i = 0; i < 4; i++) expect((await invoke(edited.body)).status).toBe(204);
  await invokeUntil(first, (a) => errorCode(a) === 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION');
  for (let i = 0; i < 4; i++) {
    expect((await invoke(edited.body)).status).toBe(204);
    expect(errorCode(await invoke(first))).toBe('INTERACTION_APPLICATION_COMMAND_INVALID_VERSION');
  }
  const delivered = endpoint.received.at(-1);
  expect(delivered.data.id).toBe(first.id);
});

it('a deleted command is unknown on every replica, a bulk overwrite replaces what they remember', async () => {
  const put = await api(stack, 'PUT', commandsPath(), {
    token: `Bot ${app.bot_token}`,
    body: [
      { name: 'doomed', description: 'Goes' },
      { name: 'kept', description: 'Stays' },
    ],
  });
  expect(put.status).toBe(200);
  const [doomed, kept] = put.body;
  for (let i = 0; i < 4; i++) {
    expect((await invoke(doomed)).status).toBe(204);
    expect((await invoke(kept)).status).toBe(204);
  }

  const removed = await api(stack, 'DELETE', `${commandsPath()}/${doomed.id}`, {
    token: `Bot ${app.bot_token}`,
  });
  expect(removed.status).toBe(204);
  await invokeUntil(doomed, (a) => a.status === 400 && errorCode(a) !== undefined);
  for (let i = 0; i < 4; i++) {
    const answer = await invoke(doomed);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(50035);
  }

  // A bulk overwrite that keeps the name gives `kept` a new version (its description changes).
  const overwritten = await api(stack, 'PUT', commandsPath(), {
    token: `Bot ${app.bot_token}`,
    body: [{ name: 'kept', description: 'Changed' }],
  });
  expect(overwritten.status).toBe(200);
  const next = overwritten.body[0];
  expect(next.id).toBe(kept.id);
  expect(next.version).not.toBe(kept.version);
  for (let i = 0; i < 4; i++) expect((await invoke(next)).status).toBe(204);
  await invokeUntil(kept, (a) => errorCode(a) === 'INTERACTION_APPLICATION_COMMAND_INVALID_VERSION');
  for (let i = 0; i < 4; i++) {
    expect(errorCode(await invoke(kept))).toBe('INTERACTION_APPLICATION_COMMAND_INVALID_VERSION');
  }
});

/** Resolves with the first event `name` whose data `match` accepts (subscribed at once). */
function nextEvent(name: string, match: (data: any) => boolean): Promise<any> {
  const subscription = nats.subscribe(`${stack.events.subjectPrefix}.${name}`);
  return (async () => {
    for await (const message of subscription) {
      const event = JSON.parse(Buffer.from(message.data).toString('utf8'));
      if (match(event.data)) {
        subscription.unsubscribe();
        return event;
      }
    }
    throw new Error(`subscription to ${name} ended`);
  })();
}

async function registered(name: string) {
  const put = await api(stack, 'PUT', commandsPath(), {
    token: `Bot ${app.bot_token}`,
    body: [{ name, description: 'Facts' }],
  });
  expect(put.status).toBe(200);
  return put.body[0] as { id: string; name: string; version: string };
}

describe("oauth's invocation facts", () => {
  it('a changed interactions endpoint gets the next invocations on every replica', async () => {
    const command = await registered('facts');
    const before = endpoint.received.length;
    // Both replicas remember the application's facts, the old endpoint among them.
    for (let i = 0; i < 4; i++) expect((await invoke(command)).status).toBe(204);
    expect(endpoint.received.length).toBe(before + 4);

    const moved = await new InteractionsEndpoint(app.verify_key).start();
    try {
      const announced = nextEvent('oauth.application.updated', (d) => d.application_id === app.id);
      const patched = await stack.admin('PATCH', `/admin/applications/${app.id}`, {
        interactions_endpoint_url: moved.url,
      });
      expect(patched.status).toBe(200);
      await announced;
      await invokeUntil(command, () => moved.received.length > 0);
      const reached = moved.received.length;
      const stayed = endpoint.received.length;
      for (let i = 0; i < 4; i++) expect((await invoke(command)).status).toBe(204);
      expect(moved.received.length).toBe(reached + 4);
      expect(endpoint.received.length).toBe(stayed);
    } finally {
      // Back to the first endpoint for the tests after this one.
      await stack.admin('PATCH', `/admin/applications/${app.id}`, {
        interactions_endpoint_url: endpoint.url,
      });
      await moved.stop();
    }
    await invokeUntil(
      command,
      () => endpoint.received.length > 0 && endpoint.received.at(-1)?.data?.id === command.id,
    );
  });

  it("the invoker's new name is in the next invocations on every replica", async () => {
    const command = await registered('whoami');
    for (let i = 0; i < 4; i++) expect((await invoke(command)).status).toBe(204);
    const name = `Renamed ${Date.now()}`;
    const announced = nextEvent('oauth.user.updated', (d) => d.user_id === world.user.id);
    expect((await stack.admin('PATCH', `/admin/users/${world.user.id}`, { global_name: name })).status).toBe(
      200,
    );
    await announced;
    const invokerName = () => {
      const last = endpoint.received.at(-1);
      return (last?.member?.user ?? last?.user)?.global_name;
    };
    await invokeUntil(command, () => invokerName() === name);
    for (let i = 0; i < 4; i++) {
      expect((await invoke(command)).status).toBe(204);
      expect(invokerName()).toBe(name);
    }
  });

  it('an uninstalled application is refused by the next invocations on every replica', async () => {
    const command = await registered('doomed-install');
    for (let i = 0; i < 4; i++) expect((await invoke(command)).status).toBe(204);
    const announced = nextEvent(
      'oauth.application.deauthorized',
      (d) => d.application_id === app.id && d.guild_id === world.guild.id,
    );
    // The bot leaves the guild: the guild install ends.
    expect((await stack.admin('DELETE', `/admin/guilds/${world.guild.id}/members/${app.id}`)).status).toBe(
      204,
    );
    await announced;
    const refused = (a: { status: number; body: any }) =>
      a.status === 400 && JSON.stringify(a.body).includes('not installed');
    await invokeUntil(command, refused);
    for (let i = 0; i < 4; i++) expect(refused(await invoke(command))).toBe(true);
  });
});
