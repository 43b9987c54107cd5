import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createLogger } from '@acs/service-kit';
import { readFormBody } from '../../src/http/read-form-body';
import { readJsonBody } from '../../src/http/read-json-body';
import { refuseNulQuery } from '../../src/http/refuse-bad-text';
import { createErrorRenderer } from '../../src/http/render-error';
import { sendJson } from '../../src/http/send-json';
import { snowflakeParam, snowflakeQuery } from '../../src/http/path-params';

/**
 * The edge's readers in an Express app on a real port, mounted as createApp mounts them:
 * what they let through to a service, and the answers to what they refuse.
 */
let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.use(refuseNulQuery);
  app.post('/json', ...readJsonBody(1024 * 1024, 1024 * 1024 * 1024), (req, res) =>
    sendJson(res, 200, { body: req.body }),
  );
  app.post('/form', ...readFormBody(1024 * 1024), (req, res) => sendJson(res, 200, { form: req.form }));
  app.get('/ids/:application_id', (req, res) =>
    sendJson(res, 200, { id: snowflakeParam(req, 'application_id'), after: snowflakeQuery(req, 'after') }),
  );
  app.use(createErrorRenderer(createLogger('api-gateway', 'silent')));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Answer {
  status: number;
  body: { errors?: unknown; [key: string]: unknown };
}

async function send(path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url + path, init);
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

const postJson = (text: string) =>
  send('/json', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });

const NUL = {
  _errors: [
    { code: 'STRING_TYPE_NUL_CHARACTER', message: 'Text cannot contain the NUL character (U+0000).' },
  ],
};

describe('U+0000', () => {
  it('is refused in any string of a JSON body, with 50035 at its path', async () => {
    const answer = await postJson(
      '{"name":"ok","options":[{"name":"a","description":"x\\u0000y"}],"choices":["\\u0000"]}',
    );
    expect(answer).toEqual({
      status: 400,
      body: {
        code: 50035,
        message: 'Invalid Form Body',
        errors: { options: { '0': { description: NUL } }, choices: { '0': NUL } },
      },
    });
  });

  it('is refused in a key, at the key', async () => {
    const answer = await postJson('{"name_localizations":{"fr\\u0000":"x"}}');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ name_localizations: { 'fr\u0000': NUL } });
  });

  it('is told apart from an escaped backslash followed by u0000', async () => {
    expect(await postJson('{"description":"\\\\u0000"}')).toEqual({
      status: 200,
      body: { body: { description: '\\u0000' } },
    });
  });

  it('is refused in a form, with the OAuth2 error body', async () => {
    const post = (body: string) =>
      send('/form', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect(await post('grant_type=client_credentials&scope=a%00b')).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Parameter "scope" contains U+0000.' },
    });
    expect((await post('a%00=1')).body).toEqual({
      error: 'invalid_request',
      error_description: 'A parameter name contains U+0000.',
    });
    expect((await post('grant_type=client_credentials')).status).toBe(200);
  });

  it('is refused in a query string, with 50035 at the parameter', async () => {
    expect(await send('/ids/1?with_localizations=true%00')).toEqual({
      status: 400,
      body: { code: 50035, message: 'Invalid Form Body', errors: { with_localizations: NUL } },
    });
    expect((await send('/ids/1?%00=1')).body.errors).toEqual({ '\u0000': NUL });
  });
});

describe('numbers as text too long for any field', () => {
  const tooLong = {
    _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 8192 or fewer in length.' }],
  };

  it('are refused at their path, a megabyte before the body is decoded, a few kilobytes after', async () => {
    const megabyte = await postJson(
      JSON.stringify({ name: 'a', default_member_permissions: '9'.repeat(1_000_000) }),
    );
    expect(megabyte).toEqual({
      status: 400,
      body: { code: 50035, message: 'Invalid Form Body', errors: { default_member_permissions: tooLong } },
    });
    const kilobytes = await postJson(JSON.stringify({ options: [{ min_value: '9'.repeat(8193) }] }));
    expect(kilobytes.body.errors).toEqual({ options: { '0': { min_value: tooLong } } });
    expect((await postJson(JSON.stringify({ id: '9'.repeat(8192) }))).status).toBe(200);
  });

  it('leave long text that is no number alone, such as an image', async () => {
    const icon = `data:image/png;base64,${'A'.repeat(500_000)}`;
    expect((await postJson(JSON.stringify({ icon }))).status).toBe(200);
  });
});

describe('ids', () => {
  const tooLarge = {
    _errors: [
      {
        code: 'NUMBER_TYPE_MAX',
        message: 'snowflake value should be less than or equal to 9223372036854775807.',
      },
    ],
  };

  it('stop at 2^63 - 1 in the path and the query, with 50035 NUMBER_TYPE_MAX as Discord answers', async () => {
    expect(await send('/ids/9223372036854775807')).toEqual({
      status: 200,
      body: { id: '9223372036854775807', after: '' },
    });
    for (const id of ['9223372036854775808', '18446744073709551615']) {
      expect(await send(`/ids/${id}`)).toEqual({
        status: 400,
        body: { code: 50035, message: 'Invalid Form Body', errors: { application_id: tooLarge } },
      });
      expect((await send(`/ids/1?after=${id}`)).body.errors).toEqual({ after: tooLarge });
    }
    expect((await send('/ids/abc')).body.errors).toEqual({
      application_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "abc" is not snowflake.' }] },
    });
  });
});
