import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type ErrorRequestHandler } from 'express';
import { createFileBlobStore } from '@acs/blob-store';
import { DiscordError, UnknownResourceError } from '@acs/discord-errors';
import { contentTypeOf, readMessageUpload } from '../../src/http/read-message-upload';

describe('contentTypeOf', () => {
  it("keeps the part's media type, unless it says nothing", () => {
    expect(contentTypeOf('image/png', 'a.bin')).toBe('image/png');
    expect(contentTypeOf('IMAGE/PNG', 'a.bin')).toBe('image/png');
  });

  it("takes the filename's extension for application/octet-stream, a missing or a malformed type", () => {
    expect(contentTypeOf('application/octet-stream', 'a.png')).toBe('image/png');
    expect(contentTypeOf(undefined, 'notes.txt')).toBe('text/plain; charset=utf-8');
    expect(contentTypeOf('not a type', 'data.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeOf('', 'no-extension')).toBe('application/octet-stream');
  });
});

describe('readMessageUpload with a limit that depends on payload_json (a modal submit)', () => {
  let dir: string;
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let base: string;
  const asked: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'acs-upload-'));
    const app = express();
    const upload = readMessageUpload(
      {
        blobs: createFileBlobStore(dir),
        maxPayloadBytes: 1000,
        limitFromPayload: true,
        uploadLimit: async (_req, payload = '') => {
          asked.push(payload);
          if (payload.includes('closed')) throw new UnknownResourceError(10062, 'Unknown interaction');
          return 5;
        },
      },
      [],
    );
    app.post('/', ...upload, (req, res) => {
      res.json({
        body: req.body,
        files: (req.uploadedFiles ?? []).map((f) => [f.index, f.filename, f.size]),
      });
    });
    const onError: ErrorRequestHandler = (error, _req, res, _next) => {
      const known = error instanceof DiscordError;
      res
        .status(known ? error.httpStatus : 500)
        .json(known ? { code: error.code, errors: error.errors } : {});
    };
    app.use(onError);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function send(parts: Array<[string, string, string?]>) {
    const form = new FormData();
    for (const [name, value, filename] of parts) {
      if (filename) form.append(name, new Blob([value]), filename);
      else form.append(name, value);
    }
    const response = await fetch(base, { method: 'POST', body: form });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const blobs = async () =>
    (await readdir(join(dir, 'uploads')).catch(() => [])).filter((n) => !n.endsWith('.json'));

  it('asks the limit with payload_json at the first file, and stores files within it', async () => {
    asked.length = 0;
    const ok = await send([
      ['payload_json', '{"type":5}'],
      ['files[0]', 'abc', 'a.txt'],
      ['files[1]', 'hello', 'b.txt'],
    ]);
    expect(ok).toEqual({
      status: 200,
      body: {
        body: { type: 5 },
        files: [
          [0, 'a.txt', 3],
          [1, 'b.txt', 5],
        ],
      },
    });
    expect(asked).toEqual(['{"type":5}']);
    // Without files the limit is never asked.
    expect((await send([['payload_json', '{"type":2}']])).status).toBe(200);
    expect(asked).toHaveLength(1);
  });

  it('refuses a file before payload_json, a file over the limit, and what the limit refuses, keeping no blob', async () => {
    const before = (await blobs()).length;
    const first = await send([
      ['files[0]', 'abc', 'a.txt'],
      ['payload_json', '{"type":5}'],
    ]);
    expect(first.status).toBe(400);
    expect(first.body.code).toBe(50035);
    const over = await send([
      ['payload_json', '{"type":5}'],
      ['files[0]', 'abc', 'a.txt'],
      ['files[1]', 'toolong', 'b.txt'],
    ]);
    expect(over).toMatchObject({ status: 413, body: { code: 40005 } });
    const closed = await send([
      ['payload_json', '{"type":5,"closed":true}'],
      ['files[0]', 'abc', 'a.txt'],
    ]);
    expect(closed).toMatchObject({ status: 404, body: { code: 10062 } });
    for (let i = 0; i < 50 && (await blobs()).length !== before; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect((await blobs()).length).toBe(before);
  });
});
