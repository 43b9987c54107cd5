import type { Server } from 'node:http';
import { DiscordAPIError, REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import express from 'express';
import { verifyKeyMiddleware } from 'discord-interactions';
import { expectSchema } from './helpers/openapi-validator';
import {
  createApplication,
  createDemoWorld,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';

/**
 * PATCH /applications/@me (Discord's "Edit Current Application"): a bot edits its own
 * application with its token, through @discordjs/rest as discord.js's
 * `ClientApplication.edit` does, with the admin PATCH's validation and PING check.
 */
let stack: TestStack;
let world: DemoWorld;
const servers: Server[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack);
}, 120_000);

afterAll(async () => {
  for (const server of servers) server.close();
  await stack?.stop();
});

const restOf = (botToken: string) =>
  new REST({ api: `${stack.apiUrl}/api`, version: '10' }).setToken(botToken);

async function patchCurrent(botToken: string, body: unknown) {
  const answer = await fetch(`${stack.apiUrl}/api/v10/applications/@me`, {
    method: 'PATCH',
    headers: { Authorization: `Bot ${botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as any };
}

/** An interactions endpoint that verifies signatures with discord-interactions, as apps do. */
async function verifyingEndpoint(verifyKey: string): Promise<string> {
  const server = express();
  server.post('/interactions', verifyKeyMiddleware(verifyKey));
  const listening = server.listen(0, '127.0.0.1');
  servers.push(listening);
  await new Promise((resolve) => listening.once('listening', resolve));
  return `http://127.0.0.1:${(listening.address() as { port: number }).port}/interactions`;
}

describe('PATCH /applications/@me', () => {
  it('edits the bot’s own application as discord.js sends it, answering Discord’s application object', async () => {
    const rest = restOf(world.application.botToken);
    const edited = (await rest.patch(Routes.currentApplication(), {
      body: {
        description: 'Rolls dice',
        tags: ['dice', 'games'],
        install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
        flags: 1 << 19,
        custom_install_url: 'https://dice.example/install',
      },
    })) as Record<string, unknown>;
    expect(edited).toMatchObject({
      id: world.application.id,
      description: 'Rolls dice',
      tags: ['dice', 'games'],
      install_params: { scopes: ['bot', 'applications.commands'], permissions: '2048' },
      flags: 1 << 19,
      custom_install_url: 'https://dice.example/install',
    });
    expectSchema('PrivateApplicationResponse', edited);
    expect(await rest.get(Routes.currentApplication())).toEqual(edited);
  });

  it('saves an interactions endpoint only after it verified the PING, as the admin PATCH does', async () => {
    const app = await createApplication(stack, { name: 'Endpoint App', owner_id: world.user.id });
    const url = await verifyingEndpoint(app.verify_key);
    const saved = await patchCurrent(app.bot_token, { interactions_endpoint_url: url });
    expect(saved.status).toBe(200);
    expect(saved.body.interactions_endpoint_url).toBe(url);

    // An endpoint that answers a forged PING too is refused with the admin PATCH's error.
    const careless = express();
    careless.post('/interactions', (_req, res) => {
      res.json({ type: 1 });
    });
    const listening = careless.listen(0, '127.0.0.1');
    servers.push(listening);
    await new Promise((resolve) => listening.once('listening', resolve));
    const carelessUrl = `http://127.0.0.1:${(listening.address() as { port: number }).port}/interactions`;
    const refused = await patchCurrent(app.bot_token, { interactions_endpoint_url: carelessUrl });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 50035,
      errors: {
        interactions_endpoint_url: {
          _errors: [{ code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID', message: expect.any(String) }],
        },
      },
    });
    const viaAdmin = await stack.admin('PATCH', `/admin/applications/${app.id}`, {
      interactions_endpoint_url: carelessUrl,
    });
    expect(viaAdmin.body).toEqual(refused.body);
    expect((await patchCurrent(app.bot_token, {})).body.interactions_endpoint_url).toBe(url);
  });

  it('refuses bad fields with 50035 and edits only the caller’s own application', async () => {
    const other = await createApplication(stack, { name: 'Other App' });
    const refused = await patchCurrent(other.bot_token, { tags: 'dice', icon: 'not an image' });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors).sort()).toEqual(['icon', 'tags']);
    const named = await patchCurrent(other.bot_token, { description: 'Mine', id: world.application.id });
    expect(named.body).toMatchObject({ id: other.id, description: 'Mine' });
    const demo = await restOf(world.application.botToken).get(Routes.currentApplication());
    expect((demo as { description: string }).description).toBe('Rolls dice');
  });

  it('is for bots: 401 without a valid token, and discord.js sees the error as Discord’s', async () => {
    expect((await patchCurrent('not-a-token', { description: 'x' })).status).toBe(401);
    const error = await restOf(world.application.botToken)
      .patch(Routes.currentApplication(), { body: { description: 'x'.repeat(401) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).status).toBe(400);
    expect((error as DiscordAPIError).code).toBe(50035);
  });
});
