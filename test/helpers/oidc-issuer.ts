import { createServer, type Server, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload, type KeyLike } from 'jose';

/** What the issuer does with a request instead of answering it well (hostile issuers). */
export type IssuerMisbehaviour =
  'none' | 'redirect' | 'slow' | 'huge' | 'not-json' | 'wrong-issuer' | 'broken-jwks';

/**
 * An OpenID provider for tests, on loopback (the local stack's test setting accepts
 * `http://127.0.0.1:<port>` issuers): it serves its discovery document and its JWKS (one
 * RS256 key, `kid` "k1") and signs ID tokens with `jose`; `misbehave` makes it redirect,
 * stall, answer a huge or non-JSON document, or name another issuer. It counts requests per
 * path, so a test can see what was fetched (and cached).
 */
export class OidcIssuer {
  issuer = '';
  misbehave: IssuerMisbehaviour = 'none';
  readonly requests = new Map<string, number>();
  private server!: Server;
  private privateKey!: KeyLike;
  private jwk: Record<string, unknown> = {};

  async start(): Promise<this> {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    this.privateKey = privateKey;
    this.jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    this.server = createServer((request, response) => this.handle(request.url ?? '', response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** An ID token for `subject`, RS256 with `kid` k1 unless `header` says otherwise; `claims` override. */
  async sign(
    subject: string,
    audience: string,
    claims: JWTPayload = {},
    header: Record<string, unknown> = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: this.issuer,
      sub: subject,
      aud: audience,
      iat: now,
      exp: now + 3600,
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...header })
      .sign(this.privateKey);
  }

  private handle(path: string, response: ServerResponse): void {
    this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
    const json = (body: unknown): void => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (this.misbehave === 'slow') return; // never answers
    if (this.misbehave === 'redirect') {
      response.writeHead(302, { location: `${this.issuer}/elsewhere${path}` }).end();
      return;
    }
    if (this.misbehave === 'huge') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"issuer":"${this.issuer}","padding":"${'x'.repeat(4 * 1024 * 1024)}"}`);
      return;
    }
    if (this.misbehave === 'not-json') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
      return;
    }
    if (path === '/.well-known/openid-configuration') {
      return json({
        issuer: this.misbehave === 'wrong-issuer' ? 'https://someone-else.example' : this.issuer,
        jwks_uri: `${this.issuer}/jwks`,
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (path === '/jwks' && this.misbehave === 'broken-jwks') {
      response.writeHead(500).end();
      return;
    }
    if (path === '/jwks') return json({ keys: [this.jwk] });
    response.writeHead(404).end();
  }
}
