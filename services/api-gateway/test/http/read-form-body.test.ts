import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@acs/service-kit';
import { readFormBody } from '../../src/http/read-form-body';
import { createErrorRenderer } from '../../src/http/render-error';
import { sendJson } from '../../src/http/send-json';

/** The OAuth2 endpoints' body reader in an Express app on a real port, with a 4 KB limit. */
let server: Server;
let url: string;
const LIMIT = 4096;

beforeAll(async () => {
  const app = express();
  app.post('/form', ...readFormBody(LIMIT), (req, res) => sendJson(res, 200, req.form));
  app.use(createErrorRenderer(createLogger('test', 'silent')));
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/form`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(body: string | URLSearchParams | FormData, headers: Record<string, string> = {}) {
  const answer = await fetch(url, { method: 'POST', body, headers });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** A multipart body written by hand, for what FormData never sends. */
function multipart(parts: string[], boundary = 'b0undary') {
  const body = parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('') + `--${boundary}--\r\n`;
  return { body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}
const field = (name: string, value: string) =>
  `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;

describe('readFormBody', () => {
  it('reads an urlencoded form', async () => {
    const answer = await post(new URLSearchParams({ grant_type: 'client_credentials', scope: 'identify' }));
    expect(answer).toEqual({ status: 200, body: { grant_type: 'client_credentials', scope: 'identify' } });
  });

  it('reads a multipart form, as Oceanic.js sends it (FormData)', async () => {
    const form = new FormData();
    form.append('grant_type', 'authorization_code');
    form.append('code', 'abc');
    form.append('redirect_uri', 'https://example.com/cb?x=1&y=ü');
    expect(await post(form)).toEqual({
      status: 200,
      body: { grant_type: 'authorization_code', code: 'abc', redirect_uri: 'https://example.com/cb?x=1&y=ü' },
    });
  });

  it('refuses a repeated field in either encoding', async () => {
    const repeated = { error: 'invalid_request', error_description: 'Parameter "code" is repeated.' };
    expect(await post('code=a&code=b', { 'Content-Type': 'application/x-www-form-urlencoded' })).toEqual({
      status: 400,
      body: repeated,
    });
    const form = new FormData();
    form.append('code', 'a');
    form.append('code', 'b');
    expect(await post(form)).toEqual({ status: 400, body: repeated });
  });

  it('refuses a file part, a body without boundary and a malformed one with invalid_request', async () => {
    const form = new FormData();
    form.append('code', new Blob(['abc']), 'code.txt');
    const file = await post(form);
    expect(file).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The multipart body carries a file.' },
    });
    const noBoundary = await post('x', { 'Content-Type': 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.error).toBe('invalid_request');
    const cut = multipart([field('code', 'abc')]);
    const malformed = await post(cut.body.slice(0, -20), cut.headers);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('invalid_request');
    const parts = multipart(Array.from({ length: 51 }, (_, i) => field(`f${i}`, 'x')));
    expect((await post(parts.body, parts.headers)).body).toEqual({
      error: 'invalid_request',
      error_description: 'The multipart body has more than 50 parts.',
    });
  });

  it('answers 413 with Discord’s body to an oversize form, in either encoding', async () => {
    const tooLarge = { code: 40005, message: `Request entity too large (the limit is ${LIMIT} bytes)` };
    const urlencoded = new URLSearchParams({ code: 'x'.repeat(LIMIT) });
    expect(await post(urlencoded)).toEqual({ status: 413, body: tooLarge });
    const form = new FormData();
    form.append('code', 'x'.repeat(LIMIT));
    expect(await post(form)).toEqual({ status: 413, body: tooLarge });
  });

  it('refuses JSON, as the real token endpoint does', async () => {
    const answer = await post('{"grant_type":"client_credentials"}', { 'Content-Type': 'application/json' });
    expect(answer).toEqual({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'The body must be application/x-www-form-urlencoded or multipart/form-data.',
      },
    });
  });
});
