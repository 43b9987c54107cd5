import type { oauth } from '@acs/protos';
import { createApp, createOAuthTestEnv, createUser, type OAuthTestEnv } from '../support/oauth-test-env';
import { serveOverGrpc, type OAuthOverGrpc } from '../support/oauth-grpc-client';

/**
 * DescribeInvocation's application against GetApplication's for an application with every
 * field set, which describe-invocation.grpc.test.ts's plain applications leave empty: the
 * two read the application through different queries.
 */
let env: OAuthTestEnv;
let grpc: OAuthOverGrpc;
let ownerId: string;
let invokerId: string;

const GUILD = '1111111111111111111';

beforeAll(async () => {
  env = await createOAuthTestEnv();
  grpc = await serveOverGrpc(env);
  ownerId = (await createUser(env.handlers, { username: 'owner', global_name: 'The Owner' })).id as string;
  invokerId = (await createUser(env.handlers, { username: 'invoker' })).id as string;
  env.permissions.guilds.add(GUILD);
  env.permissions.managers.add(`${GUILD}:${ownerId}`);
});
afterAll(async () => {
  await grpc.close();
  await env.close();
});

const authorize = (body: object) =>
  grpc.call<oauth.AuthorizeRequest, oauth.AuthorizeResponse__Output>('Authorize', {
    body_json: JSON.stringify(body),
  });

it('answers every field GetApplication shows: owner, profile, install params, webhook status, install counts', async () => {
  const app = await createApp(env.handlers, {
    name: 'Full Profile',
    integration_types: [0, 1],
    owner_id: ownerId,
    redirect_uris: ['https://bot.example/callback'],
    event_webhooks_url: 'https://bot.example/events',
    event_webhooks_types: ['APPLICATION_AUTHORIZED'],
    description: 'Has everything',
    icon: `data:image/png;base64,${Buffer.from('icon').toString('base64')}`,
    cover_image: `data:image/webp;base64,${Buffer.from('cover').toString('base64')}`,
    role_connections_verification_url: 'https://bot.example/verify',
    custom_install_url: 'https://bot.example/install',
    install_params: { scopes: ['bot', 'applications.commands'], permissions: 2048 },
    integration_types_config: {
      '0': {},
      '1': { oauth2_install_params: { scopes: ['applications.commands'] } },
    },
    tags: ['music', 'fun'],
  });
  const id = app.id as string;
  await authorize({ client_id: id, user_id: ownerId, scope: 'bot applications.commands', guild_id: GUILD });
  await authorize({ client_id: id, user_id: invokerId, scope: 'applications.commands', integration_type: 1 });
  // The dispatcher turned the event webhooks off for failing: status 3.
  await grpc.call('DisableEventWebhooks', { application_id: id });

  const answer = await grpc.call<oauth.DescribeInvocationRequest, oauth.DescribeInvocationResponse__Output>(
    'DescribeInvocation',
    { application_id: id, user_id: invokerId, guild_id: GUILD },
  );
  const described = JSON.parse(answer.application_json) as Record<string, unknown>;
  const got = await env.handlers.GetApplication({ application_id: id });

  expect(described).toEqual(JSON.parse(got.application_json as string));
  // What the comparison covers, so that it cannot pass on two empty answers.
  expect(described).toMatchObject({
    owner: { id: ownerId, username: 'owner', global_name: 'The Owner', discriminator: '0' },
    description: 'Has everything',
    icon: expect.stringMatching(/^[0-9a-f]{32}$/),
    cover_image: expect.stringMatching(/^[0-9a-f]{32}$/),
    role_connections_verification_url: 'https://bot.example/verify',
    custom_install_url: 'https://bot.example/install',
    install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
    integration_types_config: {
      '0': {},
      '1': { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
    },
    tags: ['music', 'fun'],
    redirect_uris: ['https://bot.example/callback'],
    event_webhooks_url: 'https://bot.example/events',
    event_webhooks_status: 3,
    event_webhooks_types: ['APPLICATION_AUTHORIZED'],
    approximate_guild_count: 1,
    approximate_user_install_count: 1,
  });
  expect(answer).toMatchObject({ guild_installed: true, user_installed: true });
});
