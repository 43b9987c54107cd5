import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { AttachmentBuilder, Client, Events, GatewayIntentBits } from 'discord.js';
import { runCli } from '../packages/testkit/src/cli/acs-cli';
import { InteractionsEndpoint } from './helpers/interactions-endpoint';
import { expectSchema } from './helpers/openapi-validator';
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
 * Attachments end to end (issue 11, part 4): multipart bodies (`payload_json` + `files[n]`)
 * on the callback, follow-up and edit routes, streamed by api-gateway into the stack's blob
 * store and served back at each attachment's `url`; the limits (ten files, the guild's
 * upload limit set through the admin route), refusals that leave no blob behind, and a
 * discord.js bot sending files.
 */
let stack: TestStack;
let world: DemoWorld;
let endpoint: InteractionsEndpoint;
let httpApp: { id: string; bot_token: string; verify_key: string };
let user: ChatUser;
let client: Client | undefined;
let commands: Record<string, any>;

/** The small upload limit most tests run under, so that "over the limit" stays cheap. */
const LIMIT = 1024;

beforeAll(async () => {
  // The sweep of expired tokens' files runs often: a test waits for it.
  stack = await startTestStack({ env: { ATTACHMENT_SWEEP_INTERVAL_MS: '200' } });
  world = await createDemoWorld(stack);
  httpApp = await createApplication(stack, { name: 'Files App', owner_id: world.user.id });
  endpoint = await new InteractionsEndpoint(httpApp.verify_key).start();
  expect(
    (
      await stack.admin('PATCH', `/admin/applications/${httpApp.id}`, {
        interactions_endpoint_url: endpoint.url,
      })
    ).status,
  ).toBe(200);
  await installApplication(stack, {
    applicationId: httpApp.id,
    userId: world.user.id,
    guildId: world.guild.id,
  });
  user = await ChatUser.open(stack, world.user.id);
  const put = await api(stack, 'PUT', `/applications/${httpApp.id}/guilds/${world.guild.id}/commands`, {
    token: `Bot ${httpApp.bot_token}`,
    body: [{ name: 'files', description: 'Answers with files' }],
  });
  expect(put.status).toBe(200);
  commands = Object.fromEntries((put.body as any[]).map((c) => [c.name, c]));
  await setLimit(LIMIT);
});

afterAll(async () => {
  user?.close();
  await client?.destroy();
  await endpoint?.stop();
  await stack?.stop();
});

async function setLimit(bytes: number | null) {
  const patched = await stack.admin('PATCH', `/admin/guilds/${world.guild.id}`, {
    attachment_size_limit: bytes,
  });
  expect(patched.status).toBe(200);
}

/** An invocation of /files the endpoint acknowledges with 202: the interaction, to answer through the routes. */
async function invokeAndHold(command = commands.files, app: { id: string } = httpApp) {
  endpoint.answer = () => ({ status: 202 });
  const from = endpoint.received.length;
  const outcome = user.invoke({
    type: 2,
    application_id: app.id,
    guild_id: world.guild.id,
    channel_id: world.channel.id,
    data: { id: command.id, name: command.name, type: command.type, version: command.version },
  });
  const interaction = await endpoint.next(from);
  return { interaction, outcome };
}

/** Sends a multipart body with `payload` as payload_json and `files` as files[n]. */
async function sendForm(
  method: string,
  path: string,
  payload: unknown,
  files: Array<{ name: string; bytes: Buffer | string; type?: string; field?: string }>,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  if (payload !== undefined)
    form.append('payload_json', typeof payload === 'string' ? payload : JSON.stringify(payload));
  files.forEach((file, n) =>
    form.append(
      file.field ?? `files[${n}]`,
      new Blob([file.bytes], file.type ? { type: file.type } : {}),
      file.name,
    ),
  );
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, { method, body: form, headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The blobs the stack's store holds under uploads/ (their data files, not their metadata). */
function storedBlobs(): string[] {
  try {
    return readdirSync(join(stack.blobDir, 'uploads')).filter((name) => !name.endsWith('.meta.json'));
  } catch {
    return [];
  }
}

async function download(url: string) {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('an HTTP endpoint app answering with files', () => {
  it('sees the guild’s upload limit, answers with files through the callback, and they are served back', async () => {
    const { interaction, outcome } = await invokeAndHold();
    expect(interaction.attachment_size_limit).toBe(LIMIT);
    const png = Buffer.alloc(LIMIT, 7);
    const answered = await sendForm(
      'POST',
      `/interactions/${interaction.id}/${interaction.token}/callback?with_response=true`,
      {
        type: 4,
        data: { content: 'Here', attachments: [{ id: 0, description: 'A picture', title: 'Pic' }] },
      },
      [
        { name: 'picture.png', bytes: png, type: 'image/png' },
        { name: 'SPOILER_notes.txt', bytes: 'secret notes' },
      ],
    );
    expect(answered.status).toBe(200);
    const message = answered.body.resource.message;
    expectSchema('InteractionCallbackResponse', answered.body);
    expectSchema('MessageResponse', message);
    expect(message.attachments).toEqual([
      expect.objectContaining({
        filename: 'picture.png',
        description: 'A picture',
        title: 'Pic',
        content_type: 'image/png',
        size: LIMIT,
      }),
      expect.objectContaining({ filename: 'SPOILER_notes.txt', size: 12, flags: 1 << 3 }),
    ]);
    for (const attachment of message.attachments) expectSchema('MessageAttachmentResponse', attachment);
    const [picture, notes] = message.attachments;
    expect(picture.url).toMatch(
      new RegExp(
        `^${stack.apiUrl}/attachments/${world.channel.id}/${picture.id}/picture\\.png\\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$`,
      ),
    );
    const served = await download(picture.url);
    expect(served).toEqual({ status: 200, type: 'image/png', bytes: png });
    const servedNotes = await download(notes.proxy_url);
    expect(servedNotes.type).toMatch(/^text\/plain/);
    expect(servedNotes.bytes.toString()).toBe('secret notes');
    // Another name, another channel, an unknown id: 404.
    expect((await download(picture.url.replace('picture.png', 'other.png'))).status).toBe(404);
    expect((await download(picture.url.replace(world.channel.id, '1'))).status).toBe(404);
    expect((await outcome).body).toMatchObject({ outcome: 'success' });

    // Edits: `attachments` is the full list to keep, plus the new files.
    const hook = `/webhooks/${httpApp.id}/${interaction.token}`;
    const edited = await sendForm(
      'PATCH',
      `${hook}/messages/@original`,
      { attachments: [{ id: notes.id }] },
      [{ name: 'new.json', bytes: '{"a":1}' }],
    );
    expect(edited.status).toBe(200);
    expectSchema('MessageResponse', edited.body);
    expect(edited.body.attachments.map((a: any) => a.filename)).toEqual(['SPOILER_notes.txt', 'new.json']);
    expect(edited.body.attachments[1].content_type).toMatch(/^application\/json/);
    expect((await download(picture.url)).status).toBe(404);
    expect((await download(edited.body.attachments[1].url)).bytes.toString()).toBe('{"a":1}');
    // JSON edits keep files unless `attachments` says otherwise.
    const kept = await api(stack, 'PATCH', `${hook}/messages/@original`, { body: { content: 'Still here' } });
    expect(kept.body.attachments).toHaveLength(2);
    // The dropped picture's blob is deleted (in the background, after the commit).
    const named = await attachmentRows();
    await waitFor(() => storedBlobs().length === named);
  });

  it('takes ten files on a follow-up and refuses an eleventh with 30015, leaving no blob', async () => {
    const { interaction, outcome } = await invokeAndHold();
    const hook = `/webhooks/${httpApp.id}/${interaction.token}`;
    await api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
      body: { type: 5 },
    });
    await outcome;
    const files = (count: number) =>
      Array.from({ length: count }, (_, n) => ({ name: `f${n}.txt`, bytes: `file ${n}` }));
    const before = storedBlobs().length;
    const ten = await sendForm('POST', hook, { content: 'ten' }, files(10));
    expect(ten.status).toBe(200);
    expect(ten.body.attachments).toHaveLength(10);
    expectSchema('MessageResponse', ten.body);
    expect(storedBlobs().length).toBe(before + 10);
    const eleven = await sendForm('POST', hook, { content: 'eleven' }, files(11));
    expect(eleven).toEqual({
      status: 400,
      body: { code: 30015, message: 'Maximum number of attachments in a message reached (10)' },
    });
    await waitFor(() => storedBlobs().length === before + 10);
    // An edit that would have eleven: 30015 too, nothing stored.
    const more = await sendForm('PATCH', `${hook}/messages/${ten.body.id}`, {}, files(1));
    expect(more.status).toBe(400);
    expect(more.body.code).toBe(30015);
    await waitFor(() => storedBlobs().length === before + 10);
  });

  it('refuses a file one byte over the guild’s limit with 413 / 40005 and takes one at it', async () => {
    const { interaction, outcome } = await invokeAndHold();
    await api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
      body: { type: 5 },
    });
    await outcome;
    const hook = `/webhooks/${httpApp.id}/${interaction.token}`;
    const before = storedBlobs().length;
    const over = await sendForm('POST', hook, { content: 'x' }, [
      { name: 'ok.bin', bytes: Buffer.alloc(10) },
      { name: 'big.bin', bytes: Buffer.alloc(LIMIT + 1) },
    ]);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 40005 });
    // The answer comes at once; the first file's blob is deleted right after.
    await waitFor(() => storedBlobs().length === before);
    const at = await sendForm('POST', hook, { content: 'x' }, [
      { name: 'at.bin', bytes: Buffer.alloc(LIMIT) },
    ]);
    expect(at.status).toBe(200);
    expect(at.body.attachments[0]).toMatchObject({ size: LIMIT, content_type: 'application/octet-stream' });
  });

  it('answers 413 as soon as the limit is crossed, without reading the rest of the body', async () => {
    const { interaction, outcome } = await invokeAndHold();
    await api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
      body: { type: 5 },
    });
    await outcome;
    const before = storedBlobs().length;
    const url = new URL(`${stack.apiUrl}/api/v10/webhooks/${httpApp.id}/${interaction.token}`);
    // 64 MiB announced; the answer must come long before that much is sent.
    const sent = await streamUpload(url, 64 * 1024 * 1024, { content: 'huge' });
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toMatchObject({ code: 40005 });
    expect(sent.bytesSentBeforeAnswer).toBeLessThan(8 * 1024 * 1024);
    await waitFor(() => storedBlobs().length === before);
  });

  it('refuses bad bodies with Discord’s errors and keeps no blob of them', async () => {
    const { interaction, outcome } = await invokeAndHold();
    const callbackPath = `/interactions/${interaction.id}/${interaction.token}/callback`;
    const before = storedBlobs().length;
    const one = [{ name: 'a.txt', bytes: 'a' }];
    // An attachment id naming no file.
    const unknown = await sendForm(
      'POST',
      callbackPath,
      { type: 4, data: { attachments: [{ id: 3 }] } },
      one,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.data.attachments['0']._errors[0].code).toBe('ATTACHMENT_NOT_FOUND');
    // payload_json that is no JSON.
    const notJson = await sendForm('POST', callbackPath, '{"type": 4,', one);
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe(50109);
    // A file part that is not files[n]; the same index twice.
    const badName = await sendForm('POST', callbackPath, { type: 4, data: { content: 'x' } }, [
      { name: 'a.txt', bytes: 'a', field: 'upload' },
    ]);
    expect(badName.status).toBe(400);
    expect(badName.body.code).toBe(50035);
    const twice = await sendForm('POST', callbackPath, { type: 4, data: { content: 'x' } }, [
      { name: 'a.txt', bytes: 'a', field: 'files[0]' },
      { name: 'b.txt', bytes: 'b', field: 'files[0]' },
    ]);
    expect(twice.status).toBe(400);
    // A malformed multipart body.
    const malformed = await fetch(`${stack.apiUrl}/api/v10${callbackPath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="files[0]"; filename="a"\r\n\r\nabc',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: number }).code).toBe(50035);
    // A foreign or wrong token: refused before a byte of a file is stored.
    const wrongToken = await sendForm(
      'POST',
      `/interactions/${interaction.id}/${'x'.repeat(40)}/callback`,
      { type: 4 },
      one,
    );
    expect(wrongToken.status).toBe(404);
    expect(wrongToken.body.code).toBe(10062);
    const wrongHook = await sendForm(
      'POST',
      `/webhooks/${httpApp.id}/${'x'.repeat(40)}`,
      { content: 'x' },
      one,
    );
    expect(wrongHook.status).toBe(401);
    await waitFor(() => storedBlobs().length === before);
    // The interaction can still answer afterwards.
    const fine = await sendForm('POST', callbackPath, { type: 4, data: {} }, one);
    expect(fine.status).toBe(204);
    await outcome;
  });

  it('streams 20 MiB and 60 MiB files with bounded memory in api-gateway and interactions', async () => {
    await setLimit(64 * 1024 * 1024);
    try {
      const { interaction, outcome } = await invokeAndHold();
      expect(interaction.attachment_size_limit).toBe(64 * 1024 * 1024);
      await api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
        body: { type: 5 },
      });
      await outcome;
      const url = new URL(`${stack.apiUrl}/api/v10/webhooks/${httpApp.id}/${interaction.token}`);
      const growth: Record<string, Record<string, number>> = {};
      for (const mib of [20, 60]) {
        const size = mib * 1024 * 1024;
        const measured = await measurePeakRss(['api-gateway', 'interactions'], () =>
          streamUpload(url, size, { content: `${mib} MiB` }),
        );
        expect(measured.result.status).toBe(200);
        const message = JSON.parse(measured.result.body);
        expect(message.attachments[0]).toMatchObject({ size, filename: 'big.bin' });
        growth[`${mib} MiB`] = measured.growthKiB;
        // Held whole, a file would grow the gateway by its size at least (and interactions
        // never sees a byte of it). Garbage not yet collected grows RSS too, but it does not
        // grow with the file: 60 MiB must stay well under its size.
        if (mib === 60) {
          expect(measured.growthKiB['api-gateway']! * 1024).toBeLessThan(size * 0.75);
          expect(measured.growthKiB.interactions! * 1024).toBeLessThan(8 * 1024 * 1024);
        }
        const served = await fetch(message.attachments[0].url);
        let total = 0;
        for await (const chunk of served.body as unknown as AsyncIterable<Uint8Array>) total += chunk.length;
        expect(total).toBe(size);
      }
      process.stdout.write(`upload peak RSS growth (KiB): ${JSON.stringify(growth)}\n`);
    } finally {
      await setLimit(LIMIT);
    }
  });
});

/** Runs `work` while sampling the peak VmRSS of the named services every 10 ms: the growth over their RSS before, in KiB. */
async function measurePeakRss<T>(
  names: string[],
  work: () => Promise<T>,
): Promise<{ result: T; growthKiB: Record<string, number> }> {
  const pids = Object.fromEntries(
    stack.processes.filter((p) => names.includes(p.name)).map((p) => [p.name, p.pid as number]),
  );
  const baseline = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, rssOf(pid)]));
  const peaks = { ...baseline };
  const sampler = setInterval(() => {
    for (const [name, pid] of Object.entries(pids)) peaks[name] = Math.max(peaks[name]!, rssOf(pid));
  }, 10);
  try {
    const result = await work();
    for (const [name, pid] of Object.entries(pids)) peaks[name] = Math.max(peaks[name]!, rssOf(pid));
    return {
      result,
      growthKiB: Object.fromEntries(
        Object.entries(peaks).map(([name, peak]) => [name, Math.round((peak - baseline[name]!) / 1024)]),
      ),
    };
  } finally {
    clearInterval(sampler);
  }
}

describe('a discord.js bot', () => {
  it('sends files with reply, followUp and editReply', async () => {
    await setLimit(LIMIT);
    const put = await api(
      stack,
      'PUT',
      `/applications/${world.application.id}/guilds/${world.guild.id}/commands`,
      {
        token: `Bot ${world.application.botToken}`,
        body: [{ name: 'report', description: 'Sends a report' }],
      },
    );
    const report = (put.body as any[])[0];
    const done = new Promise<{ followUp: any; edited: any }>((resolve, reject) => {
      client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${stack.apiUrl}/api` } });
      client.on(Events.InteractionCreate, (interaction) => {
        if (!interaction.isChatInputCommand()) return;
        void (async () => {
          await interaction.reply({
            content: 'Report',
            files: [
              new AttachmentBuilder(Buffer.from('a,b\n1,2\n'), {
                name: 'report.csv',
                description: 'The data',
              }),
            ],
          });
          const followUp = await interaction.followUp({
            files: [{ attachment: Buffer.from('more'), name: 'more.txt' }],
          });
          const edited = await interaction.editReply({
            content: 'Report v2',
            files: [new AttachmentBuilder(Buffer.from('v2'), { name: 'v2.txt' })],
          });
          resolve({ followUp, edited });
        })().catch(reject);
      });
    });
    const ready = new Promise<void>((resolve) => client!.once(Events.ClientReady, () => resolve()));
    await client!.login(world.application.botToken);
    await ready;
    const invoked = await user.invoke({
      type: 2,
      application_id: world.application.id,
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      data: { id: report.id, name: report.name, type: report.type, version: report.version },
    });
    expect(invoked.body.outcome).toBe('success');
    const [reply] = invoked.body.messages;
    expect(reply.attachments).toEqual([
      expect.objectContaining({ filename: 'report.csv', description: 'The data', size: 8 }),
    ]);
    expect((await download(reply.attachments[0].url)).bytes.toString()).toBe('a,b\n1,2\n');
    const { followUp, edited } = await done;
    expect([...followUp.attachments.values()].map((a: any) => a.name)).toEqual(['more.txt']);
    expect((await download([...followUp.attachments.values()][0].url)).bytes.toString()).toBe('more');
    // editReply with files: discord.js lists the new file in `attachments`; the old one is dropped.
    expect([...edited.attachments.values()].map((a: any) => a.name)).toEqual(['v2.txt']);
  });
});

/** How many attachments the stack's messages have (rows of interactions.attachment). */
/** The stack's attachment-signing key, read from its database (to forge an expired signature). */
async function signingKey(): Promise<Buffer> {
  const db = new PgClient({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ secret: Buffer }>(
      "SELECT secret FROM interactions.signing_key WHERE name = 'attachments'",
    );
    return rows[0]!.secret;
  } finally {
    await db.end();
  }
}

async function attachmentRows(): Promise<number> {
  const db = new PgClient({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ count: string }>('SELECT count(*) FROM interactions.attachment');
    return Number(rows[0]?.count);
  } finally {
    await db.end();
  }
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return Number(kib ?? 0) * 1024;
}

describe('attachment:// URLs in components v2', () => {
  it('must name a file of the message: 50035 at the URL otherwise, and no blob is kept', async () => {
    const { interaction, outcome } = await invokeAndHold();
    const callback = `/interactions/${interaction.id}/${interaction.token}/callback?with_response=true`;
    const answer = (url: string) => ({
      type: 4,
      data: { flags: 1 << 15, components: [{ type: 13, file: { url } }] },
    });
    const before = storedBlobs().length;
    const refused = await sendForm('POST', callback, answer('attachment://other.txt'), [
      { name: 'report.txt', bytes: 'report' },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors.data.components['0'].file.url._errors[0].code).toBe(
      'MEDIA_URL_ATTACHMENT_NOT_FOUND',
    );
    await waitFor(() => storedBlobs().length === before);
    const sent = await sendForm('POST', callback, answer('attachment://report.txt'), [
      { name: 'report.txt', bytes: 'report' },
    ]);
    expect(sent.status).toBe(200);
    expect(sent.body.resource.message.components[0]).toMatchObject({
      type: 13,
      file: { url: 'attachment://report.txt' },
    });
    expect(sent.body.resource.message.attachments).toEqual([
      expect.objectContaining({ filename: 'report.txt' }),
    ]);
    expect((await outcome).body).toMatchObject({ outcome: 'success' });
  });
});

describe('files in a modal submit (a FileUpload in a Label)', () => {
  it('the user submits two files; the app receives attachment ids resolved to attachments it can download', async () => {
    const { interaction, outcome } = await invokeAndHold();
    const opened = await api(stack, 'POST', `/interactions/${interaction.id}/${interaction.token}/callback`, {
      body: {
        type: 9,
        data: {
          custom_id: 'upload',
          title: 'Upload',
          components: [
            {
              type: 18,
              label: 'Your files',
              component: { type: 19, custom_id: 'docs', min_values: 1, max_values: 2 },
            },
          ],
        },
      },
    });
    expect(opened.status).toBe(204);
    expect((await outcome).body).toMatchObject({ outcome: 'success' });

    const submit = (values: unknown) => ({
      type: 5,
      application_id: httpApp.id,
      guild_id: world.guild.id,
      channel_id: world.channel.id,
      data: {
        id: interaction.id,
        custom_id: 'upload',
        components: [{ type: 18, component: { type: 19, custom_id: 'docs', values } }],
      },
    });
    const asUser = { Authorization: user.token };
    const before = storedBlobs().length;

    // A file over the guild's limit: 413 / 40005, and nothing is left in the store. (Refusals
    // that come before the body is read are sent with a client that takes an early answer.)
    const invocations = new URL(`${stack.apiUrl}/api/v10/interactions?wait=true`);
    const over = await streamUpload(invocations, LIMIT + 1, submit(['0']), asUser);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toMatchObject({ code: 40005 });
    // A value naming a file the request does not have: 50035 at the value; its blobs are deleted.
    const missing = await sendForm(
      'POST',
      '/interactions?wait=true',
      submit(['0', '3']),
      [
        { name: 'a.txt', bytes: 'hello' },
        { name: 'b.txt', bytes: 'world' },
      ],
      asUser,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe(50035);
    expect(missing.body.errors.data.components['0'].component.values['1']._errors[0].code).toBe(
      'INTERACTION_MODAL_ANSWER_INVALID',
    );
    // No session, or files on another interaction type: refused before a byte is stored.
    const anonymous = await streamUpload(invocations, 1, submit(['0']));
    expect(anonymous.status).toBe(401);
    const command = await streamUpload(invocations, 1, { ...submit(['0']), type: 2 }, asUser);
    expect(command.status).toBe(400);
    expect(JSON.parse(command.body).errors.files._errors[0].code).toBe('ATTACHMENTS_NOT_SUPPORTED');
    await waitFor(() => storedBlobs().length === before);

    const png = Buffer.alloc(300, 9);
    endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Got them', flags: 64 } } });
    const from = endpoint.received.length;
    const submitted = await sendForm(
      'POST',
      '/interactions?wait=true',
      submit(['1', '0']),
      [
        { name: 'notes.txt', bytes: 'hello' },
        { name: 'shot.png', bytes: png, type: 'image/png' },
      ],
      asUser,
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body.outcome).toBe('success');
    const received = await endpoint.next(from);
    expect(received.type).toBe(5);
    const answer = received.data.components[0].component;
    expect(answer).toEqual({
      type: 19,
      id: 2,
      custom_id: 'docs',
      values: [expect.any(String), expect.any(String)],
    });
    const [shotId, notesId] = answer.values as [string, string];
    const attachments = received.data.resolved.attachments;
    expect(Object.keys(attachments).sort()).toEqual([shotId, notesId].sort());
    expect(attachments[shotId]).toEqual({
      id: shotId,
      filename: 'shot.png',
      content_type: 'image/png',
      size: 300,
      url: expect.stringContaining(`${stack.apiUrl}/attachments/${world.channel.id}/${shotId}/shot.png?ex=`),
      proxy_url: attachments[shotId].url,
      ephemeral: true,
    });
    expectSchema('MessageAttachmentResponse', attachments[shotId]);
    expect(await download(attachments[shotId].url)).toEqual({ status: 200, type: 'image/png', bytes: png });
    expect((await download(attachments[notesId].url)).bytes.toString()).toBe('hello');
    expect(storedBlobs().length).toBe(before + 2);

    // The modal is submitted: another submit is 404 / 10062 and leaves no blob.
    const again = await streamUpload(invocations, 5, submit(['0']), asUser);
    expect({ status: again.status, code: JSON.parse(again.body).code }).toEqual({ status: 404, code: 10062 });
    await waitFor(() => storedBlobs().length === before + 2);

    // The submit's files live as long as its token: once it has expired they are deleted.
    const expired = await stack.admin(
      'POST',
      `/admin/applications/${httpApp.id}/interactions/${submitted.body.interaction.id}/expire`,
      { window: 'token' },
    );
    expect(expired.status).toBe(200);
    await waitFor(() => storedBlobs().length === before);
    expect((await download(attachments[shotId].url)).status).toBe(404);
  });
});

describe('`npx acs submit-modal --file`', () => {
  it('sends a file for the modal’s file upload from a terminal', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'acs-cli-'));
    try {
      writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(world));
      writeFileSync(join(dataDir, 'stack.json'), JSON.stringify({ apiUrl: stack.apiUrl }));
      writeFileSync(join(dataDir, 'admin-token'), `${stack.adminToken}\n`);
      const file = join(dataDir, 'report.txt');
      writeFileSync(file, 'quarterly report');
      const { interaction, outcome } = await invokeAndHold();
      const opened = await api(
        stack,
        'POST',
        `/interactions/${interaction.id}/${interaction.token}/callback`,
        {
          body: {
            type: 9,
            data: {
              custom_id: 'report',
              title: 'Report',
              components: [{ type: 18, label: 'Report', component: { type: 19, custom_id: 'doc' } }],
            },
          },
        },
      );
      expect(opened.status).toBe(204);
      await outcome;
      endpoint.answer = () => ({ status: 200, body: { type: 4, data: { content: 'Filed', flags: 64 } } });
      const from = endpoint.received.length;
      const lines: string[] = [];
      const code = await runCli(
        ['submit-modal', interaction.id, 'report', '--file', `doc=${file}`, '--app', httpApp.id],
        { dataDir, env: {}, out: (line) => lines.push(line) },
      );
      expect({ code, output: lines.join('\n') }).toEqual({
        code: 0,
        output: expect.stringContaining('Filed'),
      });
      const received = await endpoint.next(from);
      const [id] = received.data.components[0].component.values;
      const attachment = received.data.resolved.attachments[id];
      expect(attachment).toMatchObject({ filename: 'report.txt', size: 16, ephemeral: true });
      expect((await download(attachment.url)).bytes.toString()).toBe('quarterly report');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * POSTs a multipart body with `payload` and one file `big.bin` of `size` bytes, made and
 * written in 64 KiB chunks as the socket takes them (never whole in memory): the answer, and
 * how many bytes had been written when it came.
 */
function streamUpload(
  url: URL,
  size: number,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; bytesSentBeforeAnswer: number }> {
  const boundary = `acs${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n` +
      `Content-Type: application/json\r\n\r\n${JSON.stringify(payload)}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="big.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    let written = 0;
    let answeredAt: number | undefined;
    let stopped = false;
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': head.length + size + tail.length,
        },
      },
      (res) => {
        answeredAt = written;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          stopped = true;
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            bytesSentBeforeAnswer: answeredAt ?? written,
          });
        });
      },
    );
    // The server may close the connection on an early answer: the write fails, the answer counts.
    req.on('error', (error) => {
      if (answeredAt === undefined) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 1);
    let left = size;
    req.write(head);
    written += head.length;
    const pump = () => {
      while (!stopped && answeredAt === undefined && left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        written += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n)))
          return void req.once('drain', pump);
      }
      if (left === 0 && answeredAt === undefined) req.end(tail);
    };
    pump();
  });
}

describe('signed attachment URLs (issue 28, item 4)', () => {
  const bot = () => ({ Authorization: `Bot ${world.application.botToken}` });

  /** A channel message of the demo bot with `files`: the message as answered. */
  async function postFiles(files: Array<{ name: string; bytes: string; type?: string }>) {
    const posted = await sendForm(
      'POST',
      `/channels/${world.channel.id}/messages`,
      { content: 'files' },
      files,
      bot(),
    );
    expect(posted.status).toBe(200);
    return posted.body;
  }

  const refresh = (body: unknown, headers: Record<string, string> = bot()) =>
    fetch(`${stack.apiUrl}/api/v10/attachments/refresh-urls`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('serve a file only with a valid, unexpired signature, and renew it on read and through refresh-urls', async () => {
    await setLimit(LIMIT);
    const message = await postFiles([{ name: 'plain.txt', bytes: 'plain bytes' }]);
    const url: string = message.attachments[0].url;
    const query = new URL(url).searchParams;
    expect((await download(url)).bytes.toString()).toBe('plain bytes');
    // Without the signature, or with any part of it changed: nothing there.
    const unsigned = url.slice(0, url.indexOf('?'));
    expect((await download(unsigned)).status).toBe(404);
    expect((await download(url.replace(`hm=${query.get('hm')}`, `hm=${'0'.repeat(64)}`))).status).toBe(404);
    const laterEx = (parseInt(query.get('ex')!, 16) + 3600).toString(16);
    expect((await download(url.replace(`ex=${query.get('ex')}`, `ex=${laterEx}`))).status).toBe(404);

    // An expired signature (forged here with the stack's key) is 404, and refresh-urls renews it.
    const { createHmac } = await import('node:crypto');
    const key = await signingKey();
    const path = new URL(unsigned).pathname.replace('/attachments/', '');
    const [ex, is] = [
      (Math.floor(Date.now() / 1000) - 60).toString(16),
      (Math.floor(Date.now() / 1000) - 90_000).toString(16),
    ];
    const hm = createHmac('sha256', key).update(`${path}\n${ex}\n${is}`).digest('hex');
    const expired = `${unsigned}?ex=${ex}&is=${is}&hm=${hm}&`;
    expect((await download(expired)).status).toBe(404);
    const renewed = await refresh({
      attachment_urls: [expired, unsigned, 'https://elsewhere.example/a.png'],
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.refreshed_urls).toEqual([
      { original: expired, refreshed: expect.stringContaining(unsigned) },
    ]);
    expect((await download(renewed.body.refreshed_urls[0].refreshed)).bytes.toString()).toBe('plain bytes');

    // Reading the message again hands out a URL that serves the file.
    const read = await fetch(`${stack.apiUrl}/api/v10/channels/${world.channel.id}/messages/${message.id}`, {
      headers: bot(),
    }).then((r) => r.json() as Promise<any>);
    expect((await download(read.attachments[0].url)).status).toBe(200);

    // refresh-urls: any credential of the API, a well-formed body.
    expect((await refresh({ attachment_urls: [url] }, {})).status).toBe(401);
    for (const body of [
      {},
      { attachment_urls: [] },
      { attachment_urls: [1] },
      { attachment_urls: Array(51).fill(url) },
    ]) {
      const refused = await refresh(body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 50035, errors: { attachment_urls: expect.anything() } });
    }
    expect(
      (await refresh({ attachment_urls: ['x'.repeat(4097)] })).body.errors.attachment_urls['0']._errors[0]
        .code,
    ).toBe('BASE_TYPE_BAD_LENGTH');
  });

  it('serve active content as a download, and ephemeral files privately', async () => {
    const message = await postFiles([
      { name: 'page.html', bytes: '<script>alert(1)</script>', type: 'text/html' },
      { name: 'image.svg', bytes: '<svg xmlns="http://www.w3.org/2000/svg"/>', type: 'image/svg+xml' },
      { name: 'photo.png', bytes: 'png', type: 'image/png' },
    ]);
    const heads = await Promise.all(message.attachments.map((a: any) => fetch(a.url)));
    expect(heads.map((r) => r.headers.get('content-disposition'))).toEqual([
      'attachment; filename="page.html"',
      'attachment; filename="image.svg"',
      'inline; filename="photo.png"',
    ]);
    for (const r of heads) {
      expect(r.headers.get('content-security-policy')).toContain('sandbox');
      expect(r.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    }

    const { interaction, outcome } = await invokeAndHold();
    const answered = await sendForm(
      'POST',
      `/interactions/${interaction.id}/${interaction.token}/callback?with_response=true`,
      { type: 4, data: { content: 'Only you', flags: 64 } },
      [{ name: 'secret.txt', bytes: 'for one viewer' }],
    );
    expect(answered.status).toBe(200);
    const served = await fetch(answered.body.resource.message.attachments[0].url);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('private, no-store');
    await outcome;
  });

  it('refuse a filename over 1,024 characters at upload, keeping no blob', async () => {
    const before = storedBlobs().length;
    const refused = await sendForm(
      'POST',
      `/channels/${world.channel.id}/messages`,
      { content: 'long' },
      [{ name: `${'n'.repeat(1021)}.txt`, bytes: 'x' }],
      bot(),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors['files[0]']._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect(storedBlobs().length).toBe(before);
  });

  // Last in this file: it leaves 127.0.0.1 refused by the route for the rest of the window.
  it('answer 429 to an address that keeps asking for files that are not there', async () => {
    const guess = (n: number) =>
      `${stack.apiUrl}/attachments/${world.channel.id}/${1300000000000000000n + BigInt(n)}/a.png`;
    let refused: Response | undefined;
    for (let n = 0; n < 120 && !refused; n++) {
      const answer = await fetch(guess(n));
      if (answer.status === 429) refused = answer;
      else expect(answer.status).toBe(404);
    }
    expect(refused).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused!.json()).toMatchObject({
      message: expect.any(String),
      retry_after: expect.any(Number),
    });
  });
});
