import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
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
 * Storage budgets and fair cost (issue 28, items 5 and 7). The probe stored 400 MiB in 3.6 s
 * through one interaction token's follow-ups; here the same flood meets Discord's webhook
 * bucket (per token, whoever sends) and the application's storage quota, which refuses
 * with 413 / 40005 and leaves no file behind, counts two racing uploads one after the
 * other, and frees the bytes of a deleted message and of an expired ephemeral answer
 * (whose files leave the blob store). An invocation costs its user units of work: one
 * user invoking as fast as it can gets 429s, another user is not held back.
 */
let stack: TestStack;
let world: DemoWorld;
let db: PgClient;
const endpoints: InteractionsEndpoint[] = [];

/** The quota every application of this stack has: four 64 KiB files and a little. */
const QUOTA = 300 * 1024;
const FILE = 64 * 1024;
const WEBHOOK_LIMIT = 5;
const WEBHOOK_WINDOW_SECONDS = 2;

beforeAll(async () => {
  stack = await startTestStack({
    env: {
      APPLICATION_STORAGE_QUOTA_BYTES: String(QUOTA),
      RATE_LIMIT_WEBHOOK_LIMIT: String(WEBHOOK_LIMIT),
      RATE_LIMIT_WEBHOOK_WINDOW_SECONDS: String(WEBHOOK_WINDOW_SECONDS),
      RATE_LIMIT_WORK_PER_SECOND: '50',
      RATE_LIMIT_INVOCATION_COST: '10',
      ATTACHMENT_SWEEP_INTERVAL_MS: '200',
    },
  });
  world = await createDemoWorld(stack);
  db = new PgClient({ connectionString: stack.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  for (const endpoint of endpoints) await endpoint.stop();
  await stack?.stop();
});

/** An application of its own (its own quota), installed in the world's guild, with one command and a chat user. */
async function newApp(name: string) {
  const app = await createApplication(stack, { name, owner_id: world.user.id });
  const endpoint = await new InteractionsEndpoint(app.verify_key).start();
  endpoints.push(endpoint);
  expect(
    (await stack.admin('PATCH', `/admin/applications/${app.id}`, { interactions_endpoint_url: endpoint.url }))
      .status,
  ).toBe(200);
  await installApplication(stack, { applicationId: app.id, userId: world.user.id, guildId: world.guild.id });
  const put = await api(stack, 'PUT', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
    token: `Bot ${app.bot_token}`,
    body: [{ name: 'store', description: 'Stores files' }],
  });
  expect(put.status).toBe(200);
  const command = (put.body as any[])[0];
  const user = await ChatUser.open(stack, world.user.id);
  /** An invocation the endpoint holds (202), deferred through the callback: its interaction. */
  const deferred = async (): Promise<any> => {
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
    const answered = await api(
      stack,
      'POST',
      `/interactions/${interaction.id}/${interaction.token}/callback`,
      {
        body: { type: 5 },
      },
    );
    expect(answered.status).toBe(204);
    await outcome;
    return interaction;
  };
  return { app, deferred };
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** A follow-up (or an edit) with `files`, as multipart; resolves whatever the status. */
async function sendFiles(
  method: string,
  path: string,
  payload: unknown,
  files: Array<{ name: string; bytes: Buffer }>,
): Promise<Answer> {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  files.forEach((file, n) => form.append(`files[${n}]`, new Blob([file.bytes]), file.name));
  const response = await fetch(`${stack.apiUrl}/api/v10${path}`, { method, body: form });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** The same, waiting out the webhook bucket's 429s (the tests that are not about it). */
async function sendPaced(
  method: string,
  path: string,
  payload: unknown,
  files: Array<{ name: string; bytes: Buffer }>,
): Promise<Answer> {
  for (;;) {
    const answer = await sendFiles(method, path, payload, files);
    if (answer.status !== 429) return answer;
    await sleep(answer.body.retry_after * 1000 + 20);
  }
}

function file(name: string, size = FILE): { name: string; bytes: Buffer } {
  return { name, bytes: Buffer.alloc(size, name.length) };
}

/** The blobs of the stack's store (data files, not their metadata): name → size. */
function storedBlobs(): Map<string, number> {
  const dir = join(stack.blobDir, 'uploads');
  const blobs = new Map<string, number>();
  try {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.meta.json')) blobs.set(name, statSync(join(dir, name)).size);
    }
  } catch {
    // No upload yet.
  }
  return blobs;
}

function storedBytes(): number {
  let total = 0;
  for (const size of storedBlobs().values()) total += size;
  return total;
}

/** The blob keys of a message's attachments (`uploads/<uuid>` → `<uuid>`). */
async function blobsOf(messageId: string): Promise<string[]> {
  const { rows } = await db.query<{ blob_key: string }>(
    'SELECT blob_key FROM interactions.attachment WHERE message_id = $1',
    [messageId],
  );
  return rows.map((row) => row.blob_key.replace(/^uploads\//, ''));
}

/** The bytes the storage count holds for an application. */
async function counted(applicationId: string): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    'SELECT bytes::text FROM interactions.application_storage WHERE application_id = $1',
    [applicationId],
  );
  return Number(rows[0]?.bytes ?? 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(50);
  }
}

function expectQuotaRefusal(answer: Answer): void {
  expect(answer.status).toBe(413);
  expect(answer.body).toEqual({
    code: 40005,
    message: expect.stringContaining(`storage quota of ${QUOTA} bytes`),
  });
}

describe('one interaction token flooding follow-ups (the probe: 400 MiB in 3.6 s)', () => {
  it('stops at the webhook bucket and the storage quota, with Discord’s 429s and a 413 naming the quota', async () => {
    const { app, deferred } = await newApp('Flooder');
    const interaction = await deferred();
    const hook = `/webhooks/${app.id}/${interaction.token}`;
    const before = storedBytes();
    const answers: Answer[] = [];
    const started = Date.now();
    // Eight senders, each posting 64 KiB follow-ups back to back for three seconds: on a
    // stack without budgets every one is stored (about 1.5 MiB a second here).
    await Promise.all(
      Array.from({ length: 8 }, async (_, sender) => {
        for (let n = 0; Date.now() - started < 3000; n++) {
          answers.push(
            await sendFiles('POST', hook, { content: `flood ${sender}.${n}` }, [file(`f${n}.bin`)]),
          );
        }
      }),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => ![200, 413, 429].includes(status))).toEqual([]);
    // At most five writes (the deferral's callback among them) per two-second window.
    const windows = Math.ceil((Date.now() - started) / (WEBHOOK_WINDOW_SECONDS * 1000)) + 1;
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(WEBHOOK_LIMIT * windows);
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(limited.body).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number),
      global: false,
    });
    expect(limited.body.retry_after).toBeGreaterThan(0);
    expect(limited.body.retry_after).toBeLessThanOrEqual(WEBHOOK_WINDOW_SECONDS);
    expect(limited.headers.get('retry-after')).toMatch(/^[12]$/);
    expect(limited.headers.get('x-ratelimit-limit')).toBe(String(WEBHOOK_LIMIT));
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(limited.headers.get('x-ratelimit-global')).toBeNull();
    expect(limited.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);

    // Paced as the bucket allows, the token goes on until the quota refuses.
    let refused: Answer | undefined;
    for (let n = 0; n < 10 && !refused; n++) {
      const answer = await sendPaced('POST', hook, { content: `paced ${n}` }, [file(`p${n}.bin`)]);
      if (answer.status === 413) refused = answer;
      else expect(answer.status).toBe(200);
    }
    expectQuotaRefusal(refused!);
    // The stored bytes stay within the quota: the refused files were deleted, none is left.
    await waitFor(async () => storedBytes() - before === (await filesOf(app.id)));
    expect(storedBytes() - before).toBeLessThanOrEqual(QUOTA);
    expect(await counted(app.id)).toBeLessThanOrEqual(QUOTA);
  });

  it('counts the bucket per token, whoever sends: another token of the same app has its own', async () => {
    const { app, deferred } = await newApp('Two tokens');
    const [first, second] = [await deferred(), await deferred()];
    const post = (token: string) =>
      fetch(`${stack.apiUrl}/api/v10/webhooks/${app.id}/${token}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      }).then((response) => response.status);
    // The callback took one of the first token's five.
    const firstStatuses = [];
    for (let n = 0; n < WEBHOOK_LIMIT; n++) firstStatuses.push(await post(first.token));
    expect(firstStatuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    expect(await post(second.token)).toBe(200);
  });
});

/** The attachment bytes an application's messages hold now. */
async function filesOf(applicationId: string): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT COALESCE(SUM(a.size), 0)::text AS bytes FROM interactions.attachment a
       JOIN interactions.message m ON m.id = a.message_id WHERE m.application_id = $1`,
    [applicationId],
  );
  return Number(rows[0]!.bytes);
}

describe('the storage quota', () => {
  it('refuses the upload past it, keeps no blob of it, and takes it again once a deleted message freed room', async () => {
    const { app, deferred } = await newApp('Quota');
    const interaction = await deferred();
    const hook = `/webhooks/${app.id}/${interaction.token}`;
    const posted: any[] = [];
    let refused: Answer | undefined;
    for (let n = 0; n < 8 && !refused; n++) {
      const answer = await sendPaced('POST', hook, { content: `file ${n}` }, [file(`q${n}.bin`)]);
      if (answer.status === 200) posted.push(answer.body);
      else refused = answer;
    }
    expectQuotaRefusal(refused!);
    expect(posted.length).toBe(Math.floor(QUOTA / FILE));
    const full = await counted(app.id);
    expect(full).toBeGreaterThan(posted.length * FILE);
    expect(full).toBeLessThanOrEqual(QUOTA);
    const blobsBefore = new Set(storedBlobs().keys());
    // The refused file left nothing in the store.
    let named = 0;
    for (const message of posted) named += (await blobsOf(message.id)).length;
    expect(named).toBe(posted.length);
    expect(storedBlobs().size).toBe(blobsBefore.size);
    // An edit adding a file past the quota: 413 too, the message unchanged.
    const edit = await sendPaced('PATCH', `${hook}/messages/${posted[0].id}`, { content: 'more' }, [
      file('e.bin'),
    ]);
    expectQuotaRefusal(edit);
    const unchanged = await api(stack, 'GET', `${hook}/messages/${posted[0].id}`);
    expect(unchanged.body.content).toBe('file 0');
    expect(unchanged.body.attachments).toHaveLength(1);

    // Deleting a message removes its file from the store and frees its bytes.
    const [gone] = await blobsOf(posted[0].id);
    expect(blobsBefore.has(gone!)).toBe(true);
    expect((await api(stack, 'DELETE', `${hook}/messages/${posted[0].id}`)).status).toBe(204);
    await waitFor(() => !storedBlobs().has(gone!));
    expect(await counted(app.id)).toBeLessThan(full - FILE);
    const again = await sendPaced('POST', hook, { content: 'fits again' }, [file('again.bin')]);
    expect(again.status).toBe(200);
  });

  it('lets only one of two racing uploads take the last room', async () => {
    const { app, deferred } = await newApp('Race');
    const [a, b] = [await deferred(), await deferred()];
    // Fill all but 1.5 files' worth, then race two files for it.
    const filler = QUOTA - Math.floor(1.5 * FILE) - (await counted(app.id));
    const filled = await sendPaced('POST', `/webhooks/${app.id}/${a.token}`, { content: 'filler' }, [
      file('filler.bin', filler - 2048),
    ]);
    expect(filled.status).toBe(200);
    const before = storedBytes();
    const raced = await Promise.all([
      sendFiles('POST', `/webhooks/${app.id}/${a.token}`, { content: 'a' }, [file('a.bin')]),
      sendFiles('POST', `/webhooks/${app.id}/${b.token}`, { content: 'b' }, [file('b.bin')]),
    ]);
    expect(raced.map((answer) => answer.status).sort()).toEqual([200, 413]);
    expectQuotaRefusal(raced.find((answer) => answer.status === 413)!);
    await waitFor(() => storedBytes() - before === FILE);
    expect(await counted(app.id)).toBeLessThanOrEqual(QUOTA);
  });

  it('removes an expired ephemeral answer’s file from the store, and its bytes from the count', async () => {
    const { app, deferred } = await newApp('Ephemeral');
    const interaction = await deferred();
    const hook = `/webhooks/${app.id}/${interaction.token}`;
    const kept = await sendPaced('POST', hook, { content: 'everyone' }, [file('public.bin')]);
    const secret = await sendPaced('POST', hook, { content: 'only you', flags: 64 }, [file('secret.bin')]);
    expect([kept.status, secret.status]).toEqual([200, 200]);
    const [secretBlob] = await blobsOf(secret.body.id);
    const [keptBlob] = await blobsOf(kept.body.id);
    expect(storedBlobs().has(secretBlob!)).toBe(true);
    const before = await counted(app.id);
    // The sweep leaves it while the token lives.
    await sleep(600);
    expect(storedBlobs().has(secretBlob!)).toBe(true);

    const expired = await stack.admin(
      'POST',
      `/admin/applications/${app.id}/interactions/${interaction.id}/expire`,
      { window: 'token' },
    );
    expect(expired.status).toBe(200);
    await waitFor(() => !storedBlobs().has(secretBlob!));
    expect(storedBlobs().has(keptBlob!)).toBe(true);
    const after = await counted(app.id);
    expect(after).toBeLessThan(before - FILE);
    expect(await blobsOf(secret.body.id)).toEqual([]);
  });
});

describe('fair cost: an invocation is counted against its user', () => {
  it('refuses one user’s invocations past its work budget with Discord’s 429, and not another user’s', async () => {
    const { app } = await newApp('Costly');
    const commands = await api(stack, 'GET', `/applications/${app.id}/guilds/${world.guild.id}/commands`, {
      token: `Bot ${app.bot_token}`,
    });
    const command = (commands.body as any[])[0];
    const eager = await ChatUser.open(stack, world.user.id);
    const other = await createDemoWorld(stack, {
      username: 'other',
      guildName: 'Other',
      applicationName: 'Other',
    });
    const joined = await stack.admin('PUT', `/admin/guilds/${world.guild.id}/members/${other.user.id}`, {});
    expect(joined.status).toBe(201);
    const patient = await ChatUser.open(stack, other.user.id);
    const invoke = (token: string) =>
      fetch(`${stack.apiUrl}/api/v10/interactions`, {
        method: 'POST',
        headers: { Authorization: token, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 2,
          nonce: String(Math.random()).slice(2, 20),
          application_id: app.id,
          guild_id: world.guild.id,
          channel_id: world.channel.id,
          data: { id: command.id, name: command.name, type: command.type, version: command.version },
        }),
      }).then(async (response) => ({
        status: response.status,
        headers: response.headers,
        text: await response.text(),
      }));
    // Twenty at once: five fit in a second's 50 units at 10 each.
    const burst = await Promise.all(Array.from({ length: 20 }, () => invoke(eager.token)));
    const refused = burst.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(burst.filter((answer) => answer.status === 204).length).toBeLessThanOrEqual(10);
    expect(JSON.parse(refused[0]!.text)).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number),
      global: false,
    });
    expect(refused[0]!.headers.get('x-ratelimit-limit')).toBe('5');
    expect(refused[0]!.headers.get('x-ratelimit-scope')).toBe('user');
    expect(refused[0]!.headers.get('retry-after')).toBe('1');
    // The other user's invocation is its own to pay for.
    expect((await invoke(patient.token)).status).toBe(204);
  });
});
