import { createApp, createOAuthTestEnv, discordErrorOf, type OAuthTestEnv } from '../support/oauth-test-env';

/** UpdateCurrentApplication (PATCH /applications/@me) against a real database. */
let env: OAuthTestEnv;
beforeAll(async () => {
  env = await createOAuthTestEnv();
});
afterAll(() => env.close());

const EMBEDDED = 1 << 17;
const MESSAGE_CONTENT_LIMITED = 1 << 19;
const PRESENCE_LIMITED = 1 << 13;

async function editAsBot(id: string, body: object): Promise<Record<string, unknown>> {
  const answer = await env.handlers.UpdateCurrentApplication({
    application_id: id,
    body_json: JSON.stringify(body),
  });
  const app = JSON.parse(answer.application_json as string) as Record<string, unknown>;
  expect(answer.flags).toBe(app.flags);
  return app;
}

const getApp = async (id: string) =>
  JSON.parse(
    (await env.handlers.GetApplication({ application_id: id })).application_json as string,
  ) as Record<string, unknown>;

describe('UpdateCurrentApplication', () => {
  it('saves what a bot edits, and GetApplication shows it as Discord does', async () => {
    const app = await createApp(env.handlers, { name: 'Music Bot', integration_types: [0] });
    const edited = await editAsBot(app.id as string, {
      description: 'Plays music',
      icon: `data:image/png;base64,${Buffer.from('icon').toString('base64')}`,
      cover_image: `data:image/webp;base64,${Buffer.from('cover').toString('base64')}`,
      role_connections_verification_url: 'https://bot.example/verify',
      install_params: { scopes: ['bot', 'applications.commands'], permissions: 2048 },
      integration_types_config: {
        '0': {},
        '1': { oauth2_install_params: { scopes: ['applications.commands'] } },
      },
      tags: ['music'],
      custom_install_url: 'https://bot.example/install',
    });
    expect(edited).toMatchObject({
      name: 'Music Bot',
      description: 'Plays music',
      icon: expect.stringMatching(/^[0-9a-f]{32}$/),
      cover_image: expect.stringMatching(/^[0-9a-f]{32}$/),
      role_connections_verification_url: 'https://bot.example/verify',
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      integration_types_config: {
        '0': {},
        '1': { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
      },
      tags: ['music'],
      custom_install_url: 'https://bot.example/install',
    });
    expect(await getApp(app.id as string)).toEqual(edited);

    // null clears; fields left out stay.
    const cleared = await editAsBot(app.id as string, { icon: null, install_params: null, tags: null });
    expect(cleared).toMatchObject({ icon: null, description: 'Plays music' });
    expect(cleared).not.toHaveProperty('install_params');
    expect(cleared).not.toHaveProperty('tags');
  });

  it('changes only the limited gateway intent flags, keeping every other flag', async () => {
    const app = await createApp(env.handlers, { name: 'Flagged', flags: EMBEDDED });
    const id = app.id as string;
    expect((await editAsBot(id, { flags: MESSAGE_CONTENT_LIMITED | PRESENCE_LIMITED | 1 })).flags).toBe(
      EMBEDDED | MESSAGE_CONTENT_LIMITED | PRESENCE_LIMITED,
    );
    expect((await editAsBot(id, { flags: PRESENCE_LIMITED })).flags).toBe(EMBEDDED | PRESENCE_LIMITED);
    expect((await editAsBot(id, { flags: 0 })).flags).toBe(EMBEDDED);
    // A change of flags is announced, so that resolved tokens are dropped everywhere.
    const events = await env.prisma.outboxEvent.findMany({
      where: { subject: 'acs.oauth.application.credentials_changed' },
    });
    expect(
      events.filter((e) => (e.payload as { data: { application_id: string } }).data.application_id === id),
    ).toHaveLength(3);
  });

  it('ignores what only the admin API sets', async () => {
    const app = await createApp(env.handlers, { name: 'Steady', redirect_uris: ['https://a.example/cb'] });
    const edited = await editAsBot(app.id as string, {
      name: 'Hijacked',
      redirect_uris: [],
      public_client: true,
    });
    expect(edited).toMatchObject({ name: 'Steady', redirect_uris: ['https://a.example/cb'] });
  });

  it('turns event webhooks off and on (status 1 and 2): the dispatcher gets no URL while off', async () => {
    const app = await createApp(env.handlers, { name: 'Webhooked' });
    const id = app.id as string;
    // Saved through the admin API, as the gateway saves a verified URL.
    await env.handlers.UpdateApplication({
      application_id: id,
      body_json: JSON.stringify({ event_webhooks_url: 'https://bot.example/events' }),
    });
    const dispatcher = env.handlers;
    const delivered = async () =>
      (await dispatcher.GetEventWebhookSettings({ application_id: id })).event_webhooks_url;

    expect(await editAsBot(id, { event_webhooks_status: 1 })).toMatchObject({
      event_webhooks_url: 'https://bot.example/events',
      event_webhooks_status: 1,
    });
    expect(await delivered()).toBe('');
    expect((await editAsBot(id, { event_webhooks_status: 2 })).event_webhooks_status).toBe(2);
    expect(await delivered()).toBe('https://bot.example/events');
  });

  it('answers 50035 with every error, and writes nothing', async () => {
    const app = await createApp(env.handlers, { name: 'Careful' });
    const error = await discordErrorOf(
      env.handlers.UpdateCurrentApplication({
        application_id: app.id as string,
        body_json: JSON.stringify({ description: 'Fine', tags: 'music', icon: 'not an image' }),
      }),
    );
    expect(error.code).toBe(50035);
    expect(Object.keys(error.errors ?? {}).sort()).toEqual(['icon', 'tags']);
    expect((await getApp(app.id as string)).description).toBe('');
  });

  it('answers 10002 for an application that does not exist', async () => {
    const error = await discordErrorOf(
      env.handlers.UpdateCurrentApplication({ application_id: '1300000000000000999', body_json: '{}' }),
    );
    expect([error.httpStatus, error.code]).toEqual([404, 10002]);
  });
});
