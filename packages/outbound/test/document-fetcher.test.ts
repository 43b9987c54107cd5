import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DocumentFetcher, parseAddressPolicy, PUBLIC_ONLY, type DocumentFetcherOptions } from '../src';

// The GET of small documents (an OpenID provider's discovery document and JWKS) against a
// real HTTP server on loopback; DNS is replaced through `resolve` where a name is needed.

type Behaviour = (response: http.ServerResponse) => void | 'hang';

let server: http.Server;
let port: number;
let behaviour: Behaviour;
const paths: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    paths.push(`${request.method} ${request.url} ${request.headers.host}`);
    behaviour(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  paths.length = 0;
  behaviour = (response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
  };
});

const fetcher = (options: Partial<DocumentFetcherOptions> = {}) =>
  new DocumentFetcher({
    policy: parseAddressPolicy('loopback'),
    timeoutMs: 1000,
    maxBytes: 1024,
    ...options,
  });

describe('DocumentFetcher', () => {
  it('GETs a document from an allowed address, sending the URL’s Host', async () => {
    const resolve = jest.fn(async () => ['127.0.0.1']);
    const outcome = await fetcher({ resolve }).get(`http://issuer.test:${port}/jwks?x=1`);
    expect(outcome).toEqual({
      kind: 'answered',
      status: 200,
      contentType: 'application/json',
      body: '{"keys":[]}',
    });
    expect(paths).toEqual([`GET /jwks?x=1 issuer.test:${port}`]);
    expect(resolve).toHaveBeenCalledWith('issuer.test');
  });

  it('refuses, without connecting, addresses the policy does not allow and URLs it cannot use', async () => {
    const publicOnly = new DocumentFetcher({ policy: PUBLIC_ONLY, timeoutMs: 1000, maxBytes: 1024 });
    expect((await publicOnly.get(`http://127.0.0.1:${port}/`)).kind).toBe('refused');
    const sneaky = new DocumentFetcher({
      policy: PUBLIC_ONLY,
      timeoutMs: 1000,
      maxBytes: 1024,
      resolve: async () => ['93.184.216.34', '10.0.0.1'],
    });
    expect((await sneaky.get('https://issuer.example/')).kind).toBe('refused');
    for (const url of ['not a url', 'ftp://127.0.0.1/', `http://u:p@127.0.0.1:${port}/`]) {
      expect((await fetcher().get(url)).kind).toBe('refused');
    }
    expect(paths).toEqual([]);
  });

  it('answers a redirect as an answer, never following it', async () => {
    behaviour = (response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
    };
    expect(await fetcher().get(`http://127.0.0.1:${port}/doc`)).toMatchObject({
      kind: 'answered',
      status: 302,
    });
    expect(paths).toHaveLength(1);
  });

  it('fails an answer over the size bound, declared or streamed', async () => {
    behaviour = (response) => {
      response.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
    };
    expect(await fetcher().get(`http://127.0.0.1:${port}/`)).toEqual({
      kind: 'failed',
      reason: 'the answer is larger than 1024 bytes',
    });
    behaviour = (response) => {
      response.writeHead(200);
      // Chunked, no length: an endless document is cut at the bound.
      const timer = setInterval(() => response.write('x'.repeat(512)), 1);
      response.on('close', () => clearInterval(timer));
    };
    expect(await fetcher().get(`http://127.0.0.1:${port}/`)).toEqual({
      kind: 'failed',
      reason: 'the answer is larger than 1024 bytes',
    });
  });

  it('fails within the time bound when the server does not answer whole, or DNS hangs', async () => {
    behaviour = () => 'hang';
    const started = Date.now();
    expect(await fetcher({ timeoutMs: 200 }).get(`http://127.0.0.1:${port}/`)).toEqual({
      kind: 'failed',
      reason: 'no whole answer within 200 ms',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    const stuck = fetcher({ timeoutMs: 200, resolve: () => new Promise<string[]>(() => undefined) });
    expect(await stuck.get('http://issuer.test/')).toEqual({
      kind: 'failed',
      reason: 'no whole answer within 200 ms',
    });
  });
});
