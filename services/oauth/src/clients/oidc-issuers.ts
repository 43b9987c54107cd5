import { DocumentFetcher, type AddressPolicy, type Resolver } from '@acs/outbound';
import {
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  type JSONWebKeySet,
} from 'jose';
import { LRUCache } from 'lru-cache';
import {
  checkIdTokenClaims,
  checkIdTokenHeader,
  discoveryError,
  discoveryUrl,
  invalidJwtError,
  jwksError,
  OIDC_ALGORITHMS,
  readDiscoveryDocument,
  readJwks,
  type OidcIdentity,
  type OidcProvider,
} from '../domain/oidc-providers';

/** Options of the OIDC client: the outbound rules and the cache's timings. */
export interface OidcIssuersOptions {
  policy: AddressPolicy;
  /** The local stack's test setting: `http://127.0.0.1:<port>` issuers and JWKS URLs. */
  allowLoopbackIssuers: boolean;
  /** How long one fetch (discovery document or JWKS) may take. */
  fetchTimeoutMs: number;
  /** The largest document accepted. */
  maxDocumentBytes?: number;
  /** How long a fetched discovery document and JWKS are used before they are fetched again. */
  cacheTtlMs?: number;
  /** How long a failed fetch is remembered (its error answered without fetching again). */
  failureTtlMs?: number;
  /** The least time between two JWKS fetches of one issuer forced by an unknown `kid`. */
  minRefreshIntervalMs?: number;
  /** Issuers kept at most. */
  maxIssuers?: number;
  resolve?: Resolver;
  userAgent?: string;
  now?: () => number;
}

/** One issuer's keys as cached: the JWKS, when it was fetched, or the error its fetch gave. */
interface IssuerKeys {
  fetchedAt: number;
  jwks?: JSONWebKeySet;
  kids?: Set<string>;
  error?: Error;
}

/**
 * Verifies ID tokens of applications' OpenID Connect providers (facts A.2): the issuer's
 * discovery document and JWKS are fetched through `@acs/outbound` (the address policy, no
 * redirects, bounded in time and size) and cached per issuer. Concurrent exchanges of one
 * issuer share one fetch; a token naming a `kid` the cached JWKS lacks fetches it again, at
 * most once per `minRefreshIntervalMs` per issuer (a flood of made-up kids costs one fetch
 * a minute); a failed fetch is remembered for `failureTtlMs`. So one application's slow or
 * broken issuer costs its own exchanges at most one fetch's timeout, and never touches
 * another issuer's entry. The signature is checked by `jose` (a maintained, dependency-free
 * JOSE implementation) against the JWKS, for the algorithms of OIDC_ALGORITHMS only.
 */
export class OidcIssuers {
  private readonly fetcher: DocumentFetcher;
  private readonly cache: LRUCache<string, IssuerKeys>;
  private readonly inflight = new Map<string, Promise<IssuerKeys>>();
  private readonly now: () => number;

  constructor(private readonly options: OidcIssuersOptions) {
    this.fetcher = new DocumentFetcher({
      policy: options.policy,
      timeoutMs: options.fetchTimeoutMs,
      maxBytes: options.maxDocumentBytes ?? 128 * 1024,
      ...(options.resolve ? { resolve: options.resolve } : {}),
      ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    });
    this.cache = new LRUCache({ max: options.maxIssuers ?? 1000 });
    this.now = options.now ?? Date.now;
  }

  /**
   * The identity `token` proves for `provider` and the application `clientId`: the header
   * first (530020 for a malformed token or an unsupported algorithm, 530027 without `kid`),
   * then the issuer's documents (530008, 530009), the key (530020 when no key has the
   * `kid`), the signature (530020) and the claims (530002, 530003, 530001, 530004, 530020).
   */
  async verify(token: string, provider: OidcProvider, clientId: string, at: Date): Promise<OidcIdentity> {
    let header: Record<string, unknown>;
    try {
      header = decodeProtectedHeader(token) as Record<string, unknown>;
    } catch {
      throw invalidJwtError();
    }
    if (token.split('.').length !== 3) throw invalidJwtError();
    const kid = checkIdTokenHeader(header);
    let keys = await this.keysOf(provider.issuer, false);
    if (!keys.kids?.has(kid)) keys = await this.keysOf(provider.issuer, true);
    if (!keys.jwks || !keys.kids?.has(kid)) throw invalidJwtError();
    let payload: Uint8Array;
    try {
      // The JWS only: the claims are checked below, each with its own code.
      ({ payload } = await compactVerify(token, createLocalJWKSet(keys.jwks), {
        algorithms: [...OIDC_ALGORITHMS],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) throw invalidJwtError();
      throw error;
    }
    const claims = parseClaims(payload);
    return checkIdTokenClaims(
      claims,
      { issuer: provider.issuer, audience: provider.audience ?? clientId },
      at,
    );
  }

  /** The issuer's keys: cached while fresh, else fetched (once, whoever asks meanwhile). */
  private async keysOf(issuer: string, refresh: boolean): Promise<IssuerKeys> {
    const cached = this.cache.get(issuer);
    const age = cached ? this.now() - cached.fetchedAt : Infinity;
    const fresh = cached?.error
      ? age < (this.options.failureTtlMs ?? 10_000)
      : age < (this.options.cacheTtlMs ?? 10 * 60_000);
    const refreshAllowed = age >= (this.options.minRefreshIntervalMs ?? 60_000);
    if (cached && fresh && !(refresh && refreshAllowed)) {
      if (cached.error) throw cached.error;
      return cached;
    }
    let pending = this.inflight.get(issuer);
    if (!pending) {
      pending = this.fetchKeys(issuer).finally(() => this.inflight.delete(issuer));
      this.inflight.set(issuer, pending);
    }
    const keys = await pending;
    if (keys.error) throw keys.error;
    return keys;
  }

  /** Fetches the discovery document, then the JWKS; the outcome (keys or error) is cached. */
  private async fetchKeys(issuer: string): Promise<IssuerKeys> {
    let keys: IssuerKeys;
    try {
      const jwks = await this.fetchJwks(issuer);
      keys = {
        fetchedAt: this.now(),
        jwks: jwks as unknown as JSONWebKeySet,
        kids: new Set(
          jwks.keys.map((key) => key.kid).filter((kid): kid is string => typeof kid === 'string'),
        ),
      };
    } catch (error) {
      keys = { fetchedAt: this.now(), error: error as Error };
    }
    this.cache.set(issuer, keys);
    return keys;
  }

  private async fetchJwks(issuer: string): Promise<{ keys: Record<string, unknown>[] }> {
    const discovery = await this.fetcher.get(discoveryUrl(issuer));
    // Not 200 (a redirect included: never followed), refused, failed: 530008.
    if (discovery.kind !== 'answered' || discovery.status !== 200) throw discoveryError();
    const jwksUri = readDiscoveryDocument(discovery.body, issuer, this.options.allowLoopbackIssuers);
    const jwks = await this.fetcher.get(jwksUri);
    if (jwks.kind !== 'answered' || jwks.status !== 200) throw jwksError();
    return readJwks(jwks.body);
  }
}

/** The JWT's claims: a JSON object, else 530020. */
function parseClaims(payload: Uint8Array): Record<string, unknown> {
  try {
    const claims: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload));
    if (claims !== null && typeof claims === 'object' && !Array.isArray(claims)) {
      return claims as Record<string, unknown>;
    }
  } catch {
    // Not JSON: invalid below.
  }
  throw invalidJwtError();
}
