import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { DiscordError } from '@acs/discord-errors';
import { parseAddressPolicy, PUBLIC_ONLY } from '@acs/outbound';
import { OidcIssuers, type OidcIssuersOptions } from '../../src/clients/oidc-issuers';

// The OIDC client against real issuers on loopback: what it fetches and caches, the
// refresh an unknown kid causes (rate-limited), and that a stalled issuer delays nobody
// else's verification.

interface TestIssuer {
  issuer: string;
  hits: string[];
  /** Called for each request; answer it, or leave it hanging. `sign` with an unknown kid signs with k1's key. */
  behave: (path: string, response: ServerResponse) => void;
  sign(kid?: string, subject?: string): Promise<string>;
  addKey(kid: string): Promise<void>;
  stop(): Promise<void>;
}

async function startIssuer(): Promise<TestIssuer> {
  const keys = new Map<string, { privateKey: KeyLike; jwk: Record<string, unknown> }>();
  const addKey = async (kid: string) => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    keys.set(kid, { privateKey, jwk: { ...(await exportJWK(publicKey)), kid } });
  };
  await addKey('k1');
  const hits: string[] = [];
  const self: TestIssuer = {
    issuer: '',
    hits,
    behave: (path, response) => {
      const body =
        path === '/.well-known/openid-configuration'
          ? { issuer: self.issuer, jwks_uri: `${self.issuer}/jwks` }
          : { keys: [...keys.values()].map((key) => key.jwk) };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    },
    async sign(kid = 'k1', subject = 'player') {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ sub: subject, preferred_username: 'Player' })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(self.issuer)
        .setAudience('123')
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign((keys.get(kid) ?? keys.get('k1')!).privateKey);
    },
    addKey,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    self.behave(request.url ?? '', response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return self;
}

const started: TestIssuer[] = [];
afterAll(async () => {
  for (const issuer of started) await issuer.stop();
});
async function issuer(): Promise<TestIssuer> {
  const made = await startIssuer();
  started.push(made);
  return made;
}

function client(options: Partial<OidcIssuersOptions> = {}) {
  let clock = 1_000_000;
  const oidc = new OidcIssuers({
    policy: parseAddressPolicy('loopback'),
    allowLoopbackIssuers: true,
    fetchTimeoutMs: 10_000,
    now: () => clock,
    ...options,
  });
  return { oidc, advance: (ms: number) => (clock += ms) };
}

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DiscordError) return error.code;
    throw error;
  }
  return 'resolved';
};

describe('OidcIssuers', () => {
  it('verifies an ES256 token and caches the issuer’s documents', async () => {
    const idp = await issuer();
    const { oidc } = client();
    const provider = { issuer: idp.issuer, audience: null };
    const at = new Date();
    await expect(oidc.verify(await idp.sign(), provider, '123', at)).resolves.toEqual({
      subject: 'player',
      preferredUsername: 'Player',
    });
    await Promise.all([1, 2, 3].map(async () => oidc.verify(await idp.sign(), provider, '123', at)));
    expect(idp.hits).toEqual(['/.well-known/openid-configuration', '/jwks']);
  });

  it('fetches the JWKS again for an unknown kid, at most once per interval', async () => {
    const idp = await issuer();
    const { oidc, advance } = client({ minRefreshIntervalMs: 60_000 });
    const provider = { issuer: idp.issuer, audience: null };
    await oidc.verify(await idp.sign(), provider, '123', new Date());
    await idp.addKey('k2');
    // Within the interval: no refetch, the new key is unknown (530020).
    expect(await codeOf(oidc.verify(await idp.sign('k2'), provider, '123', new Date()))).toBe(530020);
    expect(await codeOf(oidc.verify(await idp.sign('made-up'), provider, '123', new Date()))).toBe(530020);
    expect(idp.hits).toHaveLength(2);
    advance(61_000);
    await expect(oidc.verify(await idp.sign('k2'), provider, '123', new Date())).resolves.toMatchObject({
      subject: 'player',
    });
    expect(idp.hits).toHaveLength(4);
  });

  it('lets a stalled issuer delay only its own verifications, and remembers its failure', async () => {
    const slow = await issuer();
    const good = await issuer();
    const hanging: ServerResponse[] = [];
    slow.behave = (_path, response) => void hanging.push(response);
    const { oidc, advance } = client({ fetchTimeoutMs: 60_000, failureTtlMs: 10_000 });
    const pending = oidc.verify(
      await slow.sign(),
      { issuer: slow.issuer, audience: null },
      '123',
      new Date(),
    );
    const outcome = codeOf(pending);
    // The good issuer's token verifies while the slow one's fetch is still waiting.
    await expect(
      oidc.verify(await good.sign(), { issuer: good.issuer, audience: null }, '123', new Date()),
    ).resolves.toMatchObject({ subject: 'player' });
    expect(hanging).toHaveLength(1);
    hanging[0]!.writeHead(302, { location: '/elsewhere' }).end();
    expect(await outcome).toBe(530008);
    // Remembered: the next verification does not fetch again until the failure expires.
    expect(
      await codeOf(
        oidc.verify(await slow.sign(), { issuer: slow.issuer, audience: null }, '123', new Date()),
      ),
    ).toBe(530008);
    expect(slow.hits).toHaveLength(1);
    slow.behave = (_path, response) => void response.writeHead(404).end();
    advance(11_000);
    await codeOf(oidc.verify(await slow.sign(), { issuer: slow.issuer, audience: null }, '123', new Date()));
    expect(slow.hits).toHaveLength(2);
  });

  it('never fetches from loopback under the public-only policy (530008)', async () => {
    const idp = await issuer();
    const { oidc } = client({ policy: PUBLIC_ONLY });
    expect(
      await codeOf(oidc.verify(await idp.sign(), { issuer: idp.issuer, audience: null }, '123', new Date())),
    ).toBe(530008);
    expect(idp.hits).toEqual([]);
  });
});
