import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client,
  Events,
  Routes,
  GatewayIntentBits,
  MessageFlags,
  type Interaction,
  type TextChannel,
} from 'discord.js';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import {
  createApplication,
  createDemoWorld,
  createUser,
  installApplication,
  startTestStack,
  type DemoWorld,
  type TestStack,
} from './support';

/**
 * The web console in a real browser (Debian's Chromium driven by playwright-core) against
 * a whole stack and a discord.js bot: the login without the capability; with it, the
 * world from one viewer's side — a slash command invoked from the composer with an
 * autocompleted option, a button that edits its message, a modal whose ephemeral answer
 * only its viewer sees, a Components V2 layout, and hostile bot content that runs nothing.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '..', '.data', 'artifacts', 'console');
const HOSTILE_HTML = '<img src=x onerror="window.__pwned=1;alert(1)"><script>alert(2)</script>';
const HOSTILE_ROLE = '<img src=x onerror=alert(10)>';

let stack: TestStack;
let world: DemoWorld;
let bob: { id: string; username: string };
/** A channel only demo-owner may view (@everyone denied VIEW_CHANNEL, the owner allowed). */
let secret: { id: string; name: string };
/** Lets the bot fill in its deferred /slow reply, once the test has seen it thinking. */
let releaseSlow: () => void = () => undefined;
let bot: Client;
let context: BrowserContext;
let profile: string;
let page: Page;
const dialogs: string[] = [];
const scriptErrors: string[] = [];
/** The page's console errors (a refused request…), shown when a test fails. */
const consoleErrors: string[] = [];
/** The page's requests answered 4xx/5xx, `status METHOD path`: each must be one a test provoked. */
const failedRequests: string[] = [];
/** What the bot failed to answer (shown when a step waits in vain). */
const botErrors: string[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  world = await createDemoWorld(stack.admin);
  bob = await createUser(stack.admin, { username: 'bob' });
  const joined = await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${bob.id}`, {});
  expect(joined.status).toBe(201);
  const created = await stack.admin('POST', `/admin/guilds/${world.guild.id}/channels`, {
    name: 'owners-only',
    type: 0,
    permission_overwrites: [
      { id: world.guild.id, type: 0, allow: '0', deny: String(1 << 10) },
      { id: world.user.id, type: 1, allow: String(1 << 10), deny: '0' },
    ],
  });
  expect(created.status).toBe(201);
  secret = created.body;
  bot = await startBot(stack, world);
  mkdirSync(ARTIFACTS, { recursive: true });
  profile = mkdtempSync(join(tmpdir(), 'acs-console-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
    ],
    viewport: { width: 1400, height: 900 },
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => scriptErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const line = `${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`;
    failedRequests.push(line);
    void response.text().then(
      (body) => consoleErrors.push(`${line}: ${body.slice(0, 300)}`),
      () => consoleErrors.push(line),
    );
  });
});

afterAll(async () => {
  await page?.screenshot({ path: join(ARTIFACTS, 'last.png'), fullPage: true }).catch(() => undefined);
  if (consoleErrors.length > 0) console.log(`the page's console errors:\n${consoleErrors.join('\n')}`);
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await bot?.destroy();
  await stack?.stop();
});

/** A bot with the commands the console drives: /roll (autocomplete, a button), /feedback (a modal), /layout (V2). */
async function startBot(stack: TestStack, world: DemoWorld): Promise<Client> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
  client.on(Events.InteractionCreate, (interaction) => {
    answer(interaction).catch((error: unknown) => botErrors.push(String(error)));
  });
  async function answer(interaction: Interaction): Promise<void> {
    if (interaction.isAutocomplete()) {
      const typed = String(interaction.options.getFocused());
      await interaction.respond(
        [6, 12, 20, 100].filter((n) => String(n).startsWith(typed)).map((n) => ({ name: `d${n}`, value: n })),
      );
    } else if (interaction.isChatInputCommand() && interaction.commandName === 'roll') {
      const sides = interaction.options.getInteger('sides', true);
      await interaction.reply({
        content: `**Rolled** a d${sides}: 1`,
        components: [
          {
            type: 1,
            components: [
              { type: 2, style: 1, custom_id: `reroll:${sides}`, label: 'Reroll' },
              { type: 2, style: 5, url: 'https://example.com/dice', label: 'Rules' },
            ],
          },
          {
            type: 1,
            components: [
              {
                type: 3,
                custom_id: 'colour',
                placeholder: 'Pick a colour',
                options: [
                  { label: 'Red', value: 'red' },
                  { label: 'Blue', value: 'blue' },
                ],
              },
            ],
          },
        ],
      });
    } else if (interaction.isMessageContextMenuCommand()) {
      await interaction.reply(`Quoted message ${interaction.targetMessage.id}`);
    } else if (interaction.isUserContextMenuCommand()) {
      await interaction.reply(`Waved at user ${interaction.targetUser.id}`);
    } else if (interaction.isStringSelectMenu() && interaction.customId === 'colour') {
      await interaction.reply({ content: `You picked ${interaction.values.join(', ')}` });
    } else if (interaction.isButton() && interaction.customId.startsWith('reroll:')) {
      await interaction.update({
        content: `Rerolled a d${interaction.customId.slice(7)}: 2`,
        components: [],
      });
    } else if (interaction.isChatInputCommand() && interaction.commandName === 'feedback') {
      await interaction.showModal({
        custom_id: 'feedback',
        title: 'Feedback',
        components: [
          {
            type: 1,
            components: [{ type: 4, custom_id: 'thoughts', label: 'Your thoughts', style: 1, min_length: 5 }],
          },
        ],
      });
    } else if (interaction.isModalSubmit() && interaction.customId === 'feedback') {
      await interaction.reply({
        content: `Thanks for: ${interaction.fields.getTextInputValue('thoughts')}`,
        flags: MessageFlags.Ephemeral,
      });
    } else if (interaction.isChatInputCommand() && interaction.commandName === 'broken') {
      // A callback ACS refuses (an embed title over 256 characters), then no answer at all.
      await client.rest
        .post(Routes.interactionCallback(interaction.id, interaction.token), {
          body: { type: 4, data: { embeds: [{ title: 'x'.repeat(300) }] } },
        })
        .then(
          () => botErrors.push('the over-long embed title was accepted'),
          () => undefined,
        );
    } else if (interaction.isChatInputCommand() && interaction.commandName === 'slow') {
      await interaction.deferReply();
      await new Promise<void>((resolve) => (releaseSlow = resolve));
      await interaction.editReply('Done thinking');
    } else if (interaction.isChatInputCommand() && interaction.commandName === 'layout') {
      await interaction.reply({
        flags: MessageFlags.IsComponentsV2,
        components: [
          {
            type: 17,
            accent_color: 0x5865f2,
            components: [
              { type: 10, content: '## Server status' },
              {
                type: 9,
                components: [{ type: 10, content: 'All systems **green**' }],
                accessory: { type: 2, style: 2, custom_id: 'refresh', label: 'Refresh' },
              },
              { type: 14, divider: true, spacing: 1 },
              { type: 10, content: '-# checked <t:1700000000:R>' },
            ],
          },
        ],
      });
    }
  }
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(world.application.botToken);
  await ready;
  const guild = await client.guilds.fetch(world.guild.id);
  await guild.commands.set([
    {
      name: 'roll',
      description: 'Roll a die',
      options: [
        { type: 4, name: 'sides', description: 'How many sides', required: true, autocomplete: true },
      ],
    },
    { name: 'feedback', description: 'Tell us' },
    { name: 'layout', description: 'A Components V2 layout' },
    { name: 'slow', description: 'Defers, then answers' },
    { name: 'broken', description: 'Answers what ACS refuses' },
    { type: 3, name: 'Quote' },
    { type: 2, name: 'Wave' },
  ]);
  return client;
}

/**
 * axe-core's serious and critical violations on the page as it is now (run through the
 * DevTools protocol, which the page's CSP does not govern), as `rule: target` lines.
 */
async function accessibilityProblems(): Promise<string[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const results = await page.evaluate(() => (globalThis as any).axe.run((globalThis as any).document));
  return (results.violations as any[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => (v.nodes as any[]).map((n) => `${v.id}: ${JSON.stringify(n.target)} ${v.help}`));
}

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

/** Types `/name` in the composer and chooses the command in the picker. */
async function pickCommand(name: string): Promise<void> {
  const composer = page.getByRole('textbox', { name: `Message #${world.channel.name}` });
  await composer.fill(`/${name.slice(0, 2)}`);
  const picker = page.getByRole('listbox', { name: 'Commands' });
  await picker.getByRole('option', { name: `/${name}` }).click();
}

it('shows the login, not data, without the capability', async () => {
  await page.goto(`${stack.apiUrl}/console/`);
  await page.getByLabel('Admin token').waitFor();
  expect(await page.getByRole('combobox', { name: 'Acting as' }).count()).toBe(0);
  await shot('login');
  expect(await accessibilityProblems()).toEqual([]);
});

it('answers the console under a strict Content-Security-Policy', async () => {
  const response = await fetch(`${stack.apiUrl}/console/`);
  expect(response.status).toBe(200);
  const policy = response.headers.get('content-security-policy') ?? '';
  expect(policy).toContain("default-src 'self'");
  expect(policy).toContain("script-src 'self'");
  expect(policy).toMatch(/connect-src 'self' ws:\/\/127\.0\.0\.1:\d+/);
  expect(policy).not.toContain('unsafe-inline');
  // The first load: every script the page names, compressed, well under 400 KB.
  const page = await response.text();
  const scripts = [...page.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1] as string);
  expect(scripts.length).toBeGreaterThan(0);
  expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  let compressed = 0;
  for (const script of scripts) {
    const asset = await fetch(new URL(script, `${stack.apiUrl}/console/`));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-security-policy')).toBe(policy);
    compressed += gzipSync(Buffer.from(await asset.arrayBuffer())).length;
  }
  expect(compressed).toBeLessThan(400 * 1024);
});

it('lists every user to the admin only (GET /admin/users), page by page', async () => {
  const all = await stack.admin('GET', '/admin/users');
  expect(all.status).toBe(200);
  const ids = (all.body as { id: string }[]).map((u) => u.id);
  expect(ids).toEqual(expect.arrayContaining([world.user.id, bob.id, world.application.id]));
  expect(ids).toEqual([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
  expect(all.body[0]).not.toHaveProperty('email');
  const after = await stack.admin('GET', `/admin/users?after=${world.user.id}`);
  expect(after.body.map((u: { id: string }) => u.id)).toEqual(
    ids.filter((id) => BigInt(id) > BigInt(world.user.id)),
  );
  for (const bad of ['abc', '9223372036854775808', '1%00']) {
    const refused = await stack.admin('GET', `/admin/users?after=${bad}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);
    expect(refused.body.errors).toHaveProperty('after');
  }
  const anonymous = await fetch(`${stack.apiUrl}/admin/users`);
  expect(anonymous.status).toBe(401);
});

it('logs in from the fragment, acts as a viewer and drives the bot', async () => {
  await page.goto(`${stack.apiUrl}/console/#token=${encodeURIComponent(stack.adminToken)}`);
  const actingAs = page.getByRole('combobox', { name: 'Acting as' });
  await actingAs.waitFor();
  // The capability leaves the address bar (and history) at once.
  expect(new URL(page.url()).hash).toBe('');
  await actingAs.selectOption({ label: world.user.username });
  await page.getByRole('heading', { name: `# ${world.channel.name}` }).waitFor();

  // A slash command with an autocompleted option, from the composer.
  await pickCommand('roll');
  const sides = page.getByRole('textbox', { name: 'sides', exact: true });
  await sides.fill('2');
  await page.getByRole('listbox', { name: 'sides suggestions' }).getByRole('option', { name: 'd20' }).click();
  await page.getByRole('button', { name: 'Send' }).click();
  const reply = page.getByRole('article').filter({ hasText: 'a d20: 1' });
  await reply.waitFor();
  await expect(reply.getByText(/used \/roll/).count()).resolves.toBe(1);
  await expect(reply.locator('strong').filter({ hasText: 'Rolled' }).count()).resolves.toBe(1);
  expect(await reply.getByRole('link', { name: /Rules/ }).getAttribute('href')).toBe(
    'https://example.com/dice',
  );
  const id = await reply.getAttribute('data-message-id');
  await shot('slash-command');

  // A select menu is a real control named by its placeholder; choosing sends the values.
  await reply.getByRole('combobox', { name: 'Pick a colour' }).selectOption({ label: 'Blue' });
  await page.getByRole('article').filter({ hasText: 'You picked blue' }).waitFor();

  // Context menus: the message's Apps (MESSAGE commands) and its author's (USER commands).
  await reply.getByRole('button', { name: 'Apps for this message' }).click();
  await page
    .getByRole('menu', { name: 'Apps for this message' })
    .getByRole('menuitem', { name: 'Quote' })
    .click();
  await page
    .getByRole('article')
    .filter({ hasText: `Quoted message ${id}` })
    .waitFor();
  await reply.getByRole('button', { name: 'Demo App', exact: true }).click();
  await page
    .getByRole('menu', { name: 'Apps for this user' })
    .getByRole('menuitem', { name: 'Wave' })
    .click();
  await page
    .getByRole('article')
    .filter({ hasText: `Waved at user ${world.application.id}` })
    .waitFor();

  // The button's update edits that very message.
  await reply.getByRole('button', { name: 'Reroll' }).click();
  const edited = page.locator(`article[data-message-id="${id}"]`).filter({ hasText: 'Rerolled a d20: 2' });
  await edited.waitFor();
  expect(await edited.getByRole('button', { name: 'Reroll' }).count()).toBe(0);
  expect(await page.getByRole('article').filter({ hasText: 'a d20: 1' }).count()).toBe(0);
  await shot('button-edit');

  // A modal, submitted as a real modal submit: the ephemeral answer is this viewer's.
  await pickCommand('feedback');
  await page.getByRole('button', { name: 'Send' }).click();
  const modal = page.getByRole('dialog', { name: 'Feedback' });
  await modal.waitFor();
  await shot('modal');
  // Too short for the input's min_length: ACS refuses the submit, and says so on the field.
  const thoughts = modal.getByLabel('Your thoughts');
  await thoughts.fill('hi');
  await modal.getByRole('button', { name: 'Submit' }).click();
  await page
    .locator('#' + (await thoughts.getAttribute('aria-describedby')))
    .filter({ hasText: /\S/ })
    .waitFor();
  expect(await thoughts.getAttribute('aria-invalid')).toBe('true');
  await shot('modal-error');
  expect(await accessibilityProblems()).toEqual([]);
  await thoughts.fill('lovely dice');
  await modal.getByRole('button', { name: 'Submit' }).click();
  await modal.waitFor({ state: 'detached' });
  const ephemeral = page.getByRole('article').filter({ hasText: 'Thanks for: lovely dice' });
  await ephemeral.waitFor();
  await ephemeral.getByText('Only you can see this').waitFor();
  await shot('ephemeral');

  // Components V2.
  await pickCommand('layout');
  await page.getByRole('button', { name: 'Send' }).click();
  const layout = page.getByRole('article').filter({ hasText: 'Server status' });
  await layout.waitFor();
  const container = layout.getByRole('group', { name: 'Container' });
  expect(await container.locator('h4').textContent()).toBe('Server status');
  expect(await container.locator('strong').textContent()).toBe('green');
  expect(await container.locator('.section-accessory').getByRole('button', { name: 'Refresh' }).count()).toBe(
    1,
  );
  expect(await container.locator('hr').count()).toBe(1);
  // Read from the article as it is now (a MESSAGE_UPDATE may replace it in between).
  await page.waitForFunction(() => {
    const dom = globalThis as any;
    return [...dom.document.querySelectorAll('[role="group"][aria-label="Container"]')].some(
      (el: unknown) => dom.getComputedStyle(el).borderLeftColor === 'rgb(88, 101, 242)',
    );
  });
  await shot('components-v2');
  expect(await accessibilityProblems()).toEqual([]);

  // A deferred reply: "… is thinking" until the app fills it in.
  await pickCommand('slow');
  await page.getByRole('button', { name: 'Send' }).click();
  const slow = page.getByRole('article').filter({ hasText: 'is thinking' });
  await slow.waitFor();
  const slowId = await slow.getAttribute('data-message-id');
  await shot('thinking');
  releaseSlow();
  await page.locator(`article[data-message-id="${slowId}"]`).filter({ hasText: 'Done thinking' }).waitFor();
  expect(await page.getByRole('article').filter({ hasText: 'is thinking' }).count()).toBe(0);

  // The inspector: the interaction behind a message, as the server recorded it.
  await page
    .locator(`article[data-message-id="${id}"]`)
    .getByRole('button', { name: 'Inspect interaction' })
    .click();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  const detail = inspector.getByRole('region', { name: 'Interaction /roll' });
  await detail.waitFor();
  await detail.getByText('answered', { exact: true }).waitFor();
  await detail.getByText('gateway (INTERACTION_CREATE to the bot)').waitFor();
  await detail.getByText('Payload the app received').click();
  expect(await detail.locator('details.json pre').first().textContent()).toContain('"name": "roll"');
  await shot('inspector-interaction');

  // A refused callback, then silence: the console and the inspector give the server's reason.
  await pickCommand('broken');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('alert').filter({ hasText: 'its callback was refused' }).waitFor();
  await inspector.getByRole('button', { name: '← All interactions' }).click();
  // The timeline refreshes by itself: the failed /broken is listed, newest first.
  await inspector
    .getByRole('list', { name: 'Interactions' })
    .getByRole('button', { name: /^\/broken/ })
    .click();
  const failed = inspector.getByRole('region', { name: 'Interaction /broken' });
  await failed.waitFor();
  const reason = await failed.locator('.failure-reason').textContent();
  expect(reason).toMatch(/did not answer within 3 s; its callback was refused: 400 50035/);
  expect(reason).toContain('embeds.0.title');
  await failed.getByText('Refused callbacks').waitFor();
  await shot('inspector-failure');

  // The request log: the bot's REST calls, by route template.
  await inspector.getByRole('button', { name: 'Requests' }).click();
  await inspector
    .getByRole('list', { name: 'Requests' })
    .getByText('PUT /applications/{application_id}/guilds/{guild_id}/commands')
    .waitFor();
  await shot('inspector-requests');
  expect(await accessibilityProblems()).toEqual([]);
  await inspector.getByRole('button', { name: 'Members' }).click();

  // The channel list is the viewer's: demo-owner sees the owners' channel.
  await page
    .getByRole('navigation', { name: 'Channels' })
    .getByRole('button', { name: `# ${secret.name}` })
    .waitFor();

  // Another viewer reads the same channel without the ephemeral answer.
  await actingAs.selectOption({ label: 'bob' });
  await page.getByRole('article').filter({ hasText: 'Rerolled a d20: 2' }).waitFor();
  expect(await page.getByRole('article').filter({ hasText: 'Thanks for: lovely dice' }).count()).toBe(0);
  const channels = page.getByRole('navigation', { name: 'Channels' });
  await channels.getByRole('button', { name: `# ${world.channel.name}` }).waitFor();
  expect(await channels.getByRole('button', { name: `# ${secret.name}` }).count()).toBe(0);
  await shot('other-viewer');
  // The page's only refused request is the one this test provoked: the too-short modal
  // answer, which ACS refuses with 400 / 50035 (Chromium logs it as a failed resource).
  expect(failedRequests).toEqual(['400 POST /api/v10/interactions']);
});

it('renders hostile bot content as text: no dialog, no script error, no javascript: link', async () => {
  const channel = (await bot.channels.fetch(world.channel.id)) as TextChannel;
  await channel.send({
    content: `${HOSTILE_HTML} [click me](javascript:alert(3)) <javascript:alert(4)>`,
    embeds: [
      {
        title: 'Embed <b>bold</b>',
        url: 'https://example.com/"><img/src=x/onerror=alert(6)>',
        description: `${HOSTILE_HTML} [x](javascript:alert(5))`,
      },
    ],
    files: [
      {
        name: 'evil.svg',
        attachment: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(7)"><script>alert(8)</script></svg>',
        ),
      },
      { name: 'page.html', attachment: Buffer.from('<script>alert(9)</script>') },
    ],
    components: [
      {
        type: 1,
        components: [{ type: 2, style: 5, url: 'discord://-/channels/@me', label: 'Not a web link' }],
      },
    ],
  });
  const hostile = page.getByRole('article').filter({ hasText: 'click me' });
  await hostile.waitFor();
  expect(await hostile.textContent()).toContain('<img src=x onerror=');
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.locator('script:not([src])').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
  // The embed's title links where it says, percent-encoded; files are downloads, never inline.
  const title = hostile.locator('.embed-title a');
  expect(await title.getAttribute('href')).toBe('https://example.com/%22%3E%3Cimg/src=x/onerror=alert(6)%3E');
  expect(await hostile.getByRole('link', { name: 'evil.svg' }).getAttribute('download')).toBe('evil.svg');
  expect(await hostile.getByRole('link', { name: 'page.html' }).getAttribute('download')).toBe('page.html');
  expect(await hostile.locator('img, svg, iframe, object, embed').count()).toBe(0);
  // A discord:// link button is no link in a browser: a disabled button.
  expect(await hostile.getByRole('button', { name: 'Not a web link' }).isDisabled()).toBe(true);
  expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
  await shot('hostile');
  expect(dialogs).toEqual([]);
  expect(scriptErrors).toEqual([]);
  expect(botErrors).toEqual([]);
});

it('builds a world from the UI: a user, a server, a channel, a role given, an app installed', async () => {
  const actingAs = page.getByRole('combobox', { name: 'Acting as' });
  await actingAs.selectOption({ label: world.user.username });
  await page.getByRole('heading', { name: `# ${world.channel.name}` }).waitFor();

  // A user: the API's refusal shows in the dialog, then a good name joins "Acting as".
  await page.getByRole('button', { name: 'New user' }).click();
  const newUser = page.getByRole('dialog', { name: 'New user' });
  await newUser.getByLabel('Username').fill('x');
  await newUser.getByRole('button', { name: 'Create' }).click();
  await newUser.getByRole('alert').filter({ hasText: '50035' }).waitFor();
  await newUser.getByLabel('Username').fill('carol');
  await newUser.getByRole('button', { name: 'Create' }).click();
  await newUser.waitFor({ state: 'detached' });
  expect(await actingAs.locator('option').filter({ hasText: 'carol' }).count()).toBe(1);

  // A server owned by the viewer, and a channel in it.
  await page.getByRole('button', { name: 'New server' }).click();
  const newServer = page.getByRole('dialog', { name: 'New server' });
  await newServer.getByLabel('Server name').fill('Workshop');
  await newServer.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('navigation', { name: 'Servers' }).getByRole('button', { name: 'Workshop' }).waitFor();
  await page
    .getByRole('navigation', { name: 'Channels' })
    .getByRole('heading', { name: 'Workshop' })
    .waitFor();
  await page.getByRole('button', { name: 'New channel' }).click();
  const newChannel = page.getByRole('dialog', { name: 'New channel' });
  await newChannel.getByLabel('Channel name').fill('lab');
  await newChannel.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: '# lab' }).waitFor();
  const labComposer = page.getByRole('textbox', { name: 'Message #lab' });
  await labComposer.waitFor();

  // A message with files from the composer: an HTML file is a download, never rendered.
  await page.getByLabel('Attach files').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain notes') },
    { name: 'report.html', mimeType: 'text/html', buffer: Buffer.from('<script>alert(11)</script>') },
  ]);
  await labComposer.fill('see the files');
  await labComposer.press('Enter');
  const withFiles = page.getByRole('article').filter({ hasText: 'see the files' });
  await withFiles.waitFor();
  expect(await withFiles.getByRole('link', { name: 'notes.txt' }).getAttribute('download')).toBe('notes.txt');
  expect(await withFiles.getByRole('link', { name: 'report.html' }).getAttribute('download')).toBe(
    'report.html',
  );
  expect(await withFiles.locator('iframe, object, embed, script').count()).toBe(0);

  // A role whose name is markup: created, given, and shown as text.
  await page.getByRole('button', { name: 'New role' }).click();
  const newRole = page.getByRole('dialog', { name: 'New role' });
  await newRole.getByLabel('Role name').fill(HOSTILE_ROLE);
  await newRole.getByLabel('Send messages').check();
  await newRole.getByRole('button', { name: 'Create' }).click();
  await newRole.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Add member' }).click();
  const addMember = page.getByRole('dialog', { name: 'Add a member' });
  await addMember.getByLabel('User').selectOption({ label: 'carol' });
  await addMember.getByRole('button', { name: 'Add' }).click();
  await addMember.waitFor({ state: 'detached' });
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('button', { name: 'Give role to carol' }).click();
  const give = page.getByRole('dialog', { name: 'Give a role to carol' });
  await give.getByLabel('Role').selectOption({ label: HOSTILE_ROLE });
  await give.getByRole('button', { name: 'Give' }).click();
  await give.waitFor({ state: 'detached' });
  const carolRoles = members.getByRole('list', { name: 'Roles of carol' });
  await carolRoles.getByText(HOSTILE_ROLE, { exact: true }).waitFor();
  expect(await page.locator('img[src="x"]').count()).toBe(0);

  // The app, installed through its consent step: the scopes and permissions it asks for.
  await page.getByRole('button', { name: 'Install app' }).click();
  const install = page.getByRole('dialog', { name: 'Install an app' });
  await install.getByLabel('Application').selectOption({ label: world.application.name });
  await install.getByRole('button', { name: 'Continue' }).click();
  const consent = page.getByRole('dialog', { name: `Authorize ${world.application.name}` });
  await consent.waitFor();
  const scopes = consent.getByRole('list', { name: 'Scopes' });
  expect(await scopes.getByRole('listitem').allTextContents()).toEqual(['bot', 'applications.commands']);
  expect(await consent.getByLabel('Send messages').isChecked()).toBe(true);
  await consent.getByLabel('Manage messages').check();
  await shot('install-consent');
  expect(await accessibilityProblems()).toEqual([]);
  await consent.getByRole('button', { name: 'Authorize' }).click();
  await consent.waitFor({ state: 'detached' });
  // The bot is a member now, with its managed role (named after the app).
  await members
    .getByRole('list', { name: `Roles of ${world.application.name}` })
    .getByText(world.application.name, { exact: true })
    .waitFor();
  await shot('world-built');

  // What the admin API holds now: carol has the role, the bot is in the server with the permissions asked.
  const guilds = await stack.admin('GET', `/admin/users`);
  const carol = (guilds.body as { id: string; username: string }[]).find((u) => u.username === 'carol');
  expect(carol).toBeDefined();
  const serverId = await page
    .getByRole('navigation', { name: 'Servers' })
    .getByRole('button', { name: 'Workshop' })
    .getAttribute('data-guild-id');
  const listed = await stack.admin('GET', `/admin/guilds/${serverId}/members`);
  expect(listed.status).toBe(200);
  const roles = (await stack.admin('GET', `/admin/guilds/${serverId}`)).body.roles as {
    id: string;
    name: string;
  }[];
  const role = roles.find((r) => r.name === HOSTILE_ROLE);
  expect(role).toBeDefined();
  const carolMember = (listed.body as { user: { id: string }; roles: string[] }[]).find(
    (m) => m.user.id === carol?.id,
  );
  expect(carolMember?.roles).toContain(role?.id);
  expect(failedRequests.slice(1)).toEqual(['400 POST /admin/users']); // the one-letter username
  expect(dialogs).toEqual([]);
  expect(scriptErrors).toEqual([]);
});

it('drives an HTTP-endpoint bot from the browser; the inspector shows its signed delivery', async () => {
  const app = await createApplication(stack, { name: 'Endpoint App', owner_id: world.user.id });
  const endpoint = await new InteractionsEndpoint(app.verify_key).start();
  try {
    endpoint.answer = (interaction) =>
      interaction.type === 3
        ? { status: 200, body: { type: 7, data: { content: 'Echoed again', components: [] } } }
        : {
            status: 200,
            body: {
              type: 4,
              data: {
                content: `Echo: ${String(interaction.data?.options?.[0]?.value)}`,
                components: [
                  { type: 1, components: [{ type: 2, style: 1, custom_id: 'again', label: 'Again' }] },
                ],
              },
            },
          };
    const saved = await stack.admin('PATCH', `/admin/applications/${app.id}`, {
      interactions_endpoint_url: endpoint.url,
    });
    expect(saved.status).toBe(200);
    await installApplication(stack, {
      applicationId: app.id,
      userId: world.user.id,
      guildId: world.guild.id,
    });
    const put = await fetch(
      `${stack.apiUrl}/api/v10/applications/${app.id}/guilds/${world.guild.id}/commands`,
      {
        method: 'PUT',
        headers: { Authorization: `Bot ${app.bot_token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify([
          {
            name: 'echo',
            description: 'Says it back',
            options: [{ type: 3, name: 'text', description: 'What to say', required: true }],
          },
        ]),
      },
    );
    expect(put.status).toBe(200);

    await page
      .getByRole('navigation', { name: 'Servers' })
      .getByRole('button', { name: world.guild.name })
      .click();
    await page.getByRole('heading', { name: `# ${world.channel.name}` }).waitFor();
    await pickCommand('echo');
    await page.getByRole('textbox', { name: 'text', exact: true }).fill('hello over HTTP');
    await page.getByRole('button', { name: 'Send' }).click();
    const echo = page.getByRole('article').filter({ hasText: 'Echo: hello over HTTP' });
    await echo.waitFor();
    const echoId = await echo.getAttribute('data-message-id');
    await echo.getByRole('button', { name: 'Again' }).click();
    await page.locator(`article[data-message-id="${echoId}"]`).filter({ hasText: 'Echoed again' }).waitFor();
    expect(endpoint.received.map((i) => i.type)).toEqual([2, 3]);

    await page
      .locator(`article[data-message-id="${echoId}"]`)
      .getByRole('button', { name: 'Inspect interaction' })
      .click();
    const inspector = page.getByRole('complementary', { name: 'Inspector' });
    expect(await inspector.getByLabel('Application').locator('option:checked').textContent()).toBe(
      'Endpoint App',
    );
    const detail = inspector.getByRole('region', { name: 'Interaction /echo' });
    await detail.waitFor();
    await detail.getByText(`HTTP endpoint ${endpoint.url} → 200`).waitFor();
    await detail.getByText('X-Signature-Ed25519, X-Signature-Timestamp').waitFor();
    await shot('inspector-endpoint');
    await inspector.getByRole('button', { name: 'Members' }).click();
  } finally {
    await endpoint.stop();
  }
});

it('reads a guild and its members through the admin API (the members panel), refusing bad input', async () => {
  const guild = await stack.admin('GET', `/admin/guilds/${world.guild.id}`);
  expect(guild.status).toBe(200);
  expect(guild.body.roles.map((r: { id: string }) => r.id)).toContain(world.guild.id);
  const page1 = await stack.admin('GET', `/admin/guilds/${world.guild.id}/members?limit=1`);
  expect(page1.status).toBe(200);
  expect(page1.body).toHaveLength(1);
  const rest = await stack.admin(
    'GET',
    `/admin/guilds/${world.guild.id}/members?after=${page1.body[0].user.id}`,
  );
  expect(rest.body.map((m: { user: { id: string } }) => m.user.id)).toContain(bob.id);
  for (const query of ['limit=0', 'limit=1001', 'limit=x', 'after=abc', 'after=1%00']) {
    const refused = await stack.admin('GET', `/admin/guilds/${world.guild.id}/members?${query}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);
  }
  expect((await stack.admin('GET', '/admin/guilds/1')).body.code).toBe(10004);
  expect((await stack.admin('GET', '/admin/guilds/1/members')).body.code).toBe(10004);
  expect((await fetch(`${stack.apiUrl}/admin/guilds/${world.guild.id}/members`)).status).toBe(401);
});

it('pages a long channel back with "Load older messages"', async () => {
  const created = await stack.admin('POST', `/admin/guilds/${world.guild.id}/channels`, {
    name: 'busy',
    type: 0,
  });
  expect(created.status).toBe(201);
  const session = await stack.admin('POST', `/admin/users/${bob.id}/sessions`);
  for (let n = 1; n <= 120; n++) {
    for (;;) {
      const sent = await fetch(`${stack.apiUrl}/api/v10/channels/${created.body.id}/messages`, {
        method: 'POST',
        headers: { Authorization: session.body.token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: `busy message ${n}.` }),
      });
      if (sent.status !== 429) {
        expect(sent.status).toBe(200);
        break;
      }
      const { retry_after } = (await sent.json()) as { retry_after: number };
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(retry_after * 1000)));
    }
  }
  // bob, the viewer still, opens the channel (its list is the one READY gave: reload it).
  await page.reload();
  await page.getByRole('combobox', { name: 'Acting as' }).selectOption({ label: 'bob' });
  await page.getByRole('navigation', { name: 'Channels' }).getByRole('button', { name: '# busy' }).click();
  await page.getByRole('article').filter({ hasText: 'busy message 120.' }).waitFor();
  expect(await page.getByRole('article').count()).toBe(100);
  expect(await page.getByRole('article').filter({ hasText: 'busy message 20.' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Load older messages' }).click();
  await page.getByRole('article').filter({ hasText: 'busy message 1.' }).waitFor();
  expect(await page.getByRole('article').count()).toBe(120);
  expect(await page.getByRole('button', { name: 'Load older messages' }).count()).toBe(0);
});

it('launches an app\'s activity from its entry point ("Launch")', async () => {
  // An EMBEDDED app has its PRIMARY_ENTRY_POINT command (`Launch`, handler 2: Discord launches).
  const patched = await stack.admin('PATCH', `/admin/applications/${world.application.id}`, {
    flags: 1 << 17,
  });
  expect(patched.status).toBe(200);
  // The command index is read again when a channel is opened.
  await page
    .getByRole('navigation', { name: 'Channels' })
    .getByRole('button', { name: `# ${world.channel.name}` })
    .click();
  await page
    .getByRole('group', { name: 'Activities' })
    .getByRole('button', { name: `Launch ${world.application.name}` })
    .click();
  await page
    .getByRole('status')
    .filter({ hasText: `${world.application.name}'s activity was launched.` })
    .waitFor();
  const launched = page.getByRole('article').filter({ hasText: /used \/Launch/ });
  await launched.waitFor();
  await launched.getByRole('button', { name: 'Inspect interaction' }).click();
  const detail = page
    .getByRole('complementary', { name: 'Inspector' })
    .getByRole('region', { name: 'Interaction /Launch' });
  await detail.getByText('activity (launched by Discord, not sent to the app)').waitFor();
  await shot('launch');
  expect(await accessibilityProblems()).toEqual([]);
  expect(scriptErrors).toEqual([]);
});

it("injects, lists and clears faults in the app's REST calls from the inspector; the Requests tab shows the faulted call", async () => {
  const mark = failedRequests.length;
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByRole('button', { name: 'Faults' }).click();
  await inspector.getByLabel('Application').selectOption(world.application.id);
  const form = inspector.getByRole('form', { name: 'Inject a fault' });
  await inspector.getByText('No faults: every call is answered as usual.').waitFor();

  // The admin API's own validation, on the field: a fault's status is 400-599.
  await form.getByLabel('Route').fill('GET /users/@me');
  await form.getByLabel('Status').fill('200');
  await form.getByRole('button', { name: 'Inject fault' }).click();
  await form
    .getByRole('alert')
    .filter({ hasText: /50035[\s\S]*status/ })
    .waitFor();

  await form.getByLabel('Status').fill('503');
  await form.getByRole('button', { name: 'Inject fault' }).click();
  const faults = inspector.getByRole('list', { name: 'Faults' });
  const fault = faults.getByRole('listitem').filter({ hasText: 'GET /users/@me' });
  await fault.getByText(/1 of 1 left/).waitFor();
  expect(await form.getByRole('alert').textContent()).toBe('');
  const faultId = /fault (\S+):/.exec((await fault.textContent()) ?? '')?.[1];
  expect(faultId).toBeDefined();
  await shot('inspector-faults');
  expect(await accessibilityProblems()).toEqual([]);

  // The bot's next matching call gets the fault; the list refreshes by itself once it is used up.
  const faulted = await fetch(`${stack.apiUrl}/api/v10/users/@me`, {
    headers: { Authorization: `Bot ${world.application.botToken}` },
  });
  expect(faulted.status).toBe(503);
  await inspector.getByText('No faults: every call is answered as usual.').waitFor();
  await inspector.getByRole('button', { name: 'Requests' }).click();
  const call = inspector
    .getByRole('list', { name: 'Requests' })
    .getByRole('listitem')
    .filter({ hasText: `answered by fault ${faultId}` });
  await call.waitFor();
  expect(await call.textContent()).toContain('→ 503');
  await shot('inspector-requests-faulted');

  // Two faults: one removed by its button, then the rest cleared.
  await inspector.getByRole('button', { name: 'Faults' }).click();
  for (const [route, status] of [
    ['POST /channels/*/messages', '500'],
    ['GET /gateway/bot', '429'],
  ] as const) {
    await form.getByLabel('Route').fill(route);
    await form.getByLabel('Status').fill(status);
    await form.getByLabel('Times').fill('5');
    await form.getByRole('button', { name: 'Inject fault' }).click();
    await faults
      .getByRole('listitem')
      .filter({ hasText: route })
      .getByText(/5 of 5 left/)
      .waitFor();
  }
  await faults.getByRole('button', { name: 'Remove the fault on POST /channels/*/messages' }).click();
  await faults
    .getByRole('listitem')
    .filter({ hasText: 'POST /channels/*/messages' })
    .waitFor({ state: 'detached' });
  expect(await faults.getByRole('listitem').count()).toBe(1);
  await inspector.getByRole('button', { name: 'Clear all faults' }).click();
  await inspector.getByText('No faults: every call is answered as usual.').waitFor();
  const left = await stack.admin('GET', `/admin/applications/${world.application.id}/faults`);
  expect(left.body).toEqual([]);
  // The page's one refused request: the status 200 the admin API refused.
  expect(failedRequests.slice(mark)).toEqual([`400 POST /admin/applications/${world.application.id}/faults`]);
  expect(scriptErrors).toEqual([]);
});

it("lists the dispatches the viewer's gateway session received, live", async () => {
  await page.getByRole('combobox', { name: 'Acting as' }).selectOption({ label: world.user.username });
  await page.getByRole('heading', { name: `# ${world.channel.name}` }).waitFor();
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByRole('button', { name: 'Gateway' }).click();
  await inspector.getByRole('heading', { name: `Dispatches to ${world.user.username}'s session` }).waitFor();
  const dispatches = inspector.getByRole('list', { name: 'Gateway dispatches' });
  await dispatches
    .getByRole('listitem')
    .filter({ hasText: /^READY/ })
    .waitFor();

  // The bot posts: the viewer's session receives MESSAGE_CREATE, listed at once.
  const channel = (await bot.channels.fetch(world.channel.id)) as TextChannel;
  await channel.send('hello over the gateway');
  const created = dispatches
    .getByRole('listitem')
    .filter({ hasText: /^MESSAGE_CREATE/ })
    .filter({ hasText: 'hello over the gateway' });
  await created.waitFor();
  await created.getByText('Payload').click();
  expect(await created.locator('pre').textContent()).toContain('"content": "hello over the gateway"');
  // Newest first: the session's first dispatch, READY, is the last.
  expect(await dispatches.getByRole('listitem').last().textContent()).toMatch(/^READY/);
  await shot('inspector-gateway');
  expect(await accessibilityProblems()).toEqual([]);
  await inspector.getByRole('button', { name: 'Members' }).click();
  expect(scriptErrors).toEqual([]);
});

it('creates game players without chat accounts (POST /admin/applications/{id}/provisional-tokens), refusing bad input', async () => {
  const base = `/admin/applications/${world.application.id}/provisional-tokens`;
  const issued = await stack.admin('POST', base, {
    external_user_id: 'route-player',
    preferred_global_name: 'Route',
  });
  expect(issued.status).toBe(200);
  expect(issued.body).toMatchObject({
    token_type: 'Bearer',
    scope: expect.stringContaining('sdk.social_layer'),
  });
  expect(typeof issued.body.id_token).toBe('string');
  const me = async (token: string): Promise<any> =>
    (
      await fetch(`${stack.apiUrl}/api/v10/users/@me`, { headers: { Authorization: `Bearer ${token}` } })
    ).json();
  const first = await me(issued.body.access_token);
  expect(first).toMatchObject({ global_name: 'Route', flags: 1 << 23 });
  // The same external id is the same account.
  const again = await stack.admin('POST', base, { external_user_id: 'route-player' });
  expect((await me(again.body.access_token)).id).toBe(first.id);
  // Bad input: the Bot Token Endpoint's errors, an unknown application, no admin token.
  for (const body of [
    {},
    { external_user_id: 'x'.repeat(1025) },
    { external_user_id: 'a\u0000b' },
    { external_user_id: 7 },
  ]) {
    const refused = await stack.admin('POST', base, body);
    expect([body, refused.status, refused.body.code]).toEqual([body, 400, 50035]);
  }
  const unknown = await stack.admin('POST', '/admin/applications/1/provisional-tokens', {
    external_user_id: 'x',
  });
  expect([unknown.status, unknown.body.code]).toEqual([404, 10002]);
  const anonymous = await fetch(`${stack.apiUrl}${base}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ external_user_id: 'x' }),
  });
  expect(anonymous.status).toBe(401);
});

it('makes game players in the UI, who join a lobby and chat in it', async () => {
  const mark = failedRequests.length;
  const inspector = page.getByRole('complementary', { name: 'Inspector' });
  await inspector.getByRole('button', { name: 'Players' }).click();
  await inspector.getByLabel('Application').selectOption(world.application.id);
  const players = inspector.getByRole('region', { name: 'Game players' });
  const create = players.getByRole('form', { name: 'New player' });
  // The Bot Token Endpoint's own validation, shown as it answered.
  await create.getByRole('button', { name: 'Create player' }).click();
  await players
    .getByRole('alert')
    .filter({ hasText: /50035[\s\S]*external_user_id/ })
    .waitFor();
  for (const [external, name] of [
    ['steam-ada', 'Ada'],
    ['steam-grace', '<img src=x onerror=alert(20)>'],
  ] as const) {
    await create.getByLabel('External user id').fill(external);
    await create.getByLabel('Display name (optional)').fill(name);
    await create.getByRole('button', { name: 'Create player' }).click();
    await players
      .getByRole('list', { name: 'Players' })
      .getByRole('listitem')
      .filter({ hasText: name })
      .waitFor();
  }
  const join = players.getByRole('form', { name: 'Join a lobby' });
  for (const name of ['Ada', '<img src=x onerror=alert(20)>']) {
    await join.getByLabel('Player').selectOption({ label: name });
    await join.getByLabel('Lobby secret').fill('table-1');
    await join.getByRole('button', { name: 'Join lobby' }).click();
    await players
      .getByRole('region', { name: 'Lobby table-1' })
      .getByRole('list', { name: 'Members of lobby table-1' })
      .getByRole('listitem')
      .filter({ hasText: name })
      .waitFor();
  }
  const lobby = players.getByRole('region', { name: 'Lobby table-1' });
  expect(
    await lobby.getByRole('list', { name: 'Members of lobby table-1' }).getByRole('listitem').count(),
  ).toBe(2);
  const post = lobby.getByRole('form', { name: 'Post in lobby table-1' });
  await post.getByLabel('Post as').selectOption({ label: 'Ada' });
  await post.getByLabel('Message lobby table-1').fill('good game **all**');
  await post.getByRole('button', { name: 'Post' }).click();
  await lobby
    .getByRole('list', { name: 'Messages in lobby table-1' })
    .getByRole('listitem')
    .filter({ hasText: 'Ada: good game **all**' })
    .waitFor();
  await shot('inspector-players');
  expect(await accessibilityProblems()).toEqual([]);

  // The game's backend (the bot) sees the same lobby: both players, Ada's message.
  const lobbyId = ((await lobby.locator('h4 .entry-meta').textContent()) ?? '').trim();
  const backend = { Authorization: `Bot ${world.application.botToken}` };
  const read = await fetch(`${stack.apiUrl}/api/v10/lobbies/${lobbyId}`, { headers: backend });
  expect(read.status).toBe(200);
  expect(((await read.json()) as { members: unknown[] }).members).toHaveLength(2);
  // A message the backend posts appears by itself (the view reads the lobby while shown).
  const posted = await fetch(`${stack.apiUrl}/api/v10/lobbies/${lobbyId}/messages`, {
    method: 'POST',
    headers: { ...backend, 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'the server says hi' }),
  });
  expect(posted.status).toBe(201);
  await lobby.getByRole('listitem').filter({ hasText: 'the server says hi' }).waitFor();
  expect(failedRequests.slice(mark)).toEqual([
    `400 POST /admin/applications/${world.application.id}/provisional-tokens`,
  ]);
  await inspector.getByRole('button', { name: 'Members' }).click();
  expect(dialogs).toEqual([]);
  expect(scriptErrors).toEqual([]);
});
