import { OAuth2Error } from '@acs/discord-errors';
import { hashSecret } from '../../src/domain/hash-secret';
import { pruneDeadCredentials } from '../../src/store/prune-dead-credentials';
import { createOAuthTestEnv, createUser, type OAuthTestEnv } from '../support/oauth-test-env';
import { clientFlows, type TestClient } from '../support/client-flows';

// Pruning of dead codes, tokens and grants against PostgreSQL. Credentials are made through
// the handlers, then aged by moving their timestamps back: a row "dead 25 hours" has been
// expired, used or revoked since 25 hours before the handlers' clock. The retention is 24 hours.

let env: OAuthTestEnv;
let user: string;
let owner: string;

const REDIRECT = 'https://app.example/callback';
const RETENTION_HOURS = 24;
/** A day, in the hours `ago` takes. */
const DAY = 24;

beforeAll(async () => {
  env = await createOAuthTestEnv();
  user = (await createUser(env.handlers, { username: 'alice' })).id as string;
  owner = (await createUser(env.handlers, { username: 'owner' })).id as string;
});
afterAll(() => env.close());

type Client = TestClient;
type Table = 'authorization_code' | 'access_token' | 'refresh_token' | 'token_grant';

/** `hours` before the handlers' clock. */
const ago = (hours: number) => new Date(env.clock.now.getTime() - hours * 3_600_000);

const prune = (options: { signal?: AbortSignal; batchSize?: number } = {}) =>
  pruneDeadCredentials(env.pool, ago(RETENTION_HOURS), options);

const { newApp, authorize, exchange } = clientFlows({
  env: () => env,
  owner: () => owner,
  user: () => user,
  redirectUri: REDIRECT,
});

const refresh = (client: Client, refreshToken: string) =>
  exchange(client, { grant_type: 'refresh_token', refresh_token: refreshToken });

const resolves = (token: string) =>
  env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token }).then(
    () => true,
    () => false,
  );

/** The OAuth2 error code a token request fails with; fails the test when it succeeds. */
async function oauth2ErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OAuth2Error) return error.error;
    throw error;
  }
  throw new Error('expected an OAuth2Error');
}

/** A user's authorization: its code, grant, and one access and refresh token per issue (exchange, then each refresh). */
interface Authorization {
  code: string;
  grant: string;
  access: string[];
  refresh: string[];
}

async function authorization(client: Client, refreshes: number): Promise<Authorization> {
  const code = await authorize(client);
  let answer = await exchange(client, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
  const access = [answer.access_token!];
  const refreshTokens = [answer.refresh_token!];
  for (let i = 0; i < refreshes; i++) {
    answer = await refresh(client, refreshTokens[i]!);
    access.push(answer.access_token!);
    refreshTokens.push(answer.refresh_token!);
  }
  return { code, grant: await grantOf(access[0]!), access, refresh: refreshTokens };
}

/** A client-credentials grant and its access token. */
async function clientCredentials(client: Client): Promise<{ grant: string; access: string }> {
  const answer = await exchange(client, { grant_type: 'client_credentials', scope: 'identify' });
  return { grant: await grantOf(answer.access_token!), access: answer.access_token! };
}

async function grantOf(accessToken: string): Promise<string> {
  const { rows } = await env.pool.query<{ grant_id: string }>(
    `SELECT grant_id::text FROM "oauth"."access_token" WHERE token_hash = $1`,
    [Buffer.from(hashSecret(accessToken))],
  );
  if (!rows[0]) throw new Error('unknown access token');
  return rows[0].grant_id;
}

const KEY_COLUMN: Record<Table, string> = {
  authorization_code: 'code_hash',
  access_token: 'token_hash',
  refresh_token: 'token_hash',
  token_grant: 'id',
};

/** Sets timestamps of one row: a grant by id, a code or token by its raw value. */
async function age(table: Table, key: string, columns: Record<string, Date | null>): Promise<void> {
  const names = Object.keys(columns);
  const { rowCount } = await env.pool.query(
    `UPDATE "oauth"."${table}" SET ${names.map((n, i) => `${n} = $${i + 2}`).join(', ')}
      WHERE ${KEY_COLUMN[table]} = $1`,
    [table === 'token_grant' ? key : Buffer.from(hashSecret(key)), ...Object.values(columns)],
  );
  if (rowCount !== 1) throw new Error(`no ${table} row ${key}`);
}

/** Ages a grant and all its tokens as if revoked `hours` ago. */
async function revokedAgo(client: Client, family: Authorization, hours: number): Promise<void> {
  const { revoked } = await env.handlers.RevokeToken({
    token: family.access[0]!,
    token_type_hint: '',
    client_id: client.id,
    client_secret: client.secret,
    auth_method: 'CLIENT_AUTH_METHOD_POST',
  });
  expect(revoked).toBe(true);
  await age('token_grant', family.grant, { revoked_at: ago(hours) });
  for (const token of family.access) await age('access_token', token, { revoked_at: ago(hours) });
  for (const token of family.refresh) await age('refresh_token', token, { revoked_at: ago(hours) });
}

/** Names rows for the assertions: `rowsOf` reports each row of an application by its name. */
class RowNames {
  private readonly names = new Map<string, string>();

  code(name: string, code: string): void {
    this.names.set(`authorization_code ${Buffer.from(hashSecret(code)).toString('hex')}`, name);
  }

  authorization(name: string, family: Authorization): void {
    this.code(`${name}.code`, family.code);
    this.names.set(`token_grant ${family.grant}`, `${name}.grant`);
    family.access.forEach((t, i) => this.token('access_token', `${name}.access${i + 1}`, t));
    family.refresh.forEach((t, i) => this.token('refresh_token', `${name}.refresh${i + 1}`, t));
  }

  clientCredentials(name: string, grant: { grant: string; access: string }): void {
    this.names.set(`token_grant ${grant.grant}`, `${name}.grant`);
    this.token('access_token', `${name}.access1`, grant.access);
  }

  all(): string[] {
    return [...this.names.values()].sort();
  }

  /** The named rows of the application that are still there (an unnamed one fails the test). */
  async rowsOf(client: Client): Promise<string[]> {
    const { rows } = await env.pool.query<{ key: string }>(
      `SELECT 'authorization_code ' || encode(code_hash, 'hex') AS key FROM "oauth"."authorization_code" WHERE application_id = $1
       UNION ALL SELECT 'access_token ' || encode(token_hash, 'hex') FROM "oauth"."access_token" WHERE application_id = $1
       UNION ALL SELECT 'refresh_token ' || encode(token_hash, 'hex') FROM "oauth"."refresh_token" WHERE application_id = $1
       UNION ALL SELECT 'token_grant ' || id FROM "oauth"."token_grant" WHERE application_id = $1`,
      [client.id],
    );
    return rows.map((r) => this.names.get(r.key) ?? `unnamed ${r.key}`).sort();
  }

  private token(table: Table, name: string, token: string): void {
    this.names.set(`${table} ${Buffer.from(hashSecret(token)).toString('hex')}`, name);
  }
}

describe('pruning dead credentials', () => {
  it('deletes exactly the rows dead for longer than the retention, and keeps the others', async () => {
    const app = await newApp('Pruned');
    const names = new RowNames();

    // Codes never exchanged: expired 25 h or 23 h ago, or still live.
    const expiredLongAgo = await authorize(app);
    await age('authorization_code', expiredLongAgo, { expires_at: ago(25) });
    const expiredRecently = await authorize(app);
    await age('authorization_code', expiredRecently, { expires_at: ago(23) });
    const live = await authorize(app);
    // Spent 24 h 3 min ago (by a deauthorization), though it expired only 23 h 57 min ago.
    const spentLongAgo = await authorize(app);
    await age('authorization_code', spentLongAgo, { used_at: ago(24.05), expires_at: ago(23.95) });
    names.code('expiredLongAgo', expiredLongAgo);
    names.code('expiredRecently', expiredRecently);
    names.code('live', live);
    names.code('spentLongAgo', spentLongAgo);

    // A live authorization refreshed twice: its old access tokens expired long ago, and so
    // did its first refresh token, which was used: kept, a second use must revoke the grant.
    const refreshed = await authorization(app, 2);
    await age('authorization_code', refreshed.code, {
      used_at: ago(50 * DAY),
      expires_at: ago(50 * DAY - 0.02),
    });
    await age('access_token', refreshed.access[0]!, { expires_at: ago(43 * DAY) });
    await age('access_token', refreshed.access[1]!, { expires_at: ago(18 * DAY) });
    await age('refresh_token', refreshed.refresh[0]!, { used_at: ago(25 * DAY), expires_at: ago(20 * DAY) });
    await age('refresh_token', refreshed.refresh[1]!, { used_at: ago(DAY) });
    names.authorization('refreshed', refreshed);

    // Grants revoked 25 h and 23 h ago, their tokens not expired yet. The first one's access
    // token was left unrevoked (what a refresh racing the revocation once left behind).
    const revokedLongAgo = await authorization(app, 0);
    await revokedAgo(app, revokedLongAgo, 25);
    await age('authorization_code', revokedLongAgo.code, { used_at: ago(25.1), expires_at: ago(25.08) });
    await age('access_token', revokedLongAgo.access[0]!, { revoked_at: null });
    const revokedRecently = await authorization(app, 0);
    await revokedAgo(app, revokedRecently, 23);
    await age('authorization_code', revokedRecently.code, { used_at: ago(23.1), expires_at: ago(23.08) });
    names.authorization('revokedLongAgo', revokedLongAgo);
    names.authorization('revokedRecently', revokedRecently);

    // Authorizations left idle: every token expired, the last refresh token 5 days or 23 h ago.
    const idle = async (lastExpiredHoursAgo: number) => {
      const family = await authorization(app, 1);
      await age('authorization_code', family.code, {
        used_at: ago(60 * DAY),
        expires_at: ago(60 * DAY - 0.02),
      });
      await age('access_token', family.access[0]!, { expires_at: ago(53 * DAY) });
      await age('refresh_token', family.refresh[0]!, { used_at: ago(35 * DAY), expires_at: ago(30 * DAY) });
      await age('access_token', family.access[1]!, { expires_at: ago(28 * DAY) });
      await age('refresh_token', family.refresh[1]!, { expires_at: ago(lastExpiredHoursAgo) });
      return family;
    };
    const idleLong = await idle(5 * DAY);
    const idleRecently = await idle(23);
    names.authorization('idleLong', idleLong);
    names.authorization('idleRecently', idleRecently);

    // Client-credentials grants whose token expired 25 h or 23 h ago.
    const expiredCredentials = await clientCredentials(app);
    await age('access_token', expiredCredentials.access, { expires_at: ago(25) });
    const recentCredentials = await clientCredentials(app);
    await age('access_token', recentCredentials.access, { expires_at: ago(23) });
    names.clientCredentials('expiredCredentials', expiredCredentials);
    names.clientCredentials('recentCredentials', recentCredentials);

    expect(await names.rowsOf(app)).toEqual(names.all());
    const kept = [
      'expiredRecently',
      'live',
      'refreshed.access3',
      'refreshed.grant',
      'refreshed.refresh1',
      'refreshed.refresh2',
      'refreshed.refresh3',
      'revokedRecently.access1',
      'revokedRecently.code',
      'revokedRecently.grant',
      'revokedRecently.refresh1',
      'idleRecently.grant',
      'idleRecently.refresh1',
      'idleRecently.refresh2',
      'recentCredentials.access1',
      'recentCredentials.grant',
    ].sort();

    // 6 codes, 8 access tokens, 3 refresh tokens, 3 grants.
    expect(await prune()).toBe(20);
    expect(await names.rowsOf(app)).toEqual(kept);
    expect(await prune()).toBe(0);

    // What was kept still works.
    expect(await resolves(refreshed.access[2]!)).toBe(true);
    const next = await refresh(app, refreshed.refresh[2]!);
    expect(await resolves(next.access_token!)).toBe(true);
  });

  it('keeps a used refresh token while its grant can be refreshed: its reuse still revokes the grant', async () => {
    const app = await newApp('Reused');
    const family = await authorization(app, 1);
    // The first refresh token was used 25 days ago and expired 20 days ago.
    await age('refresh_token', family.refresh[0]!, { used_at: ago(25 * DAY), expires_at: ago(20 * DAY) });
    await age('access_token', family.access[0]!, { expires_at: ago(18 * DAY) });
    const names = new RowNames();
    names.authorization('reused', family);

    expect(await prune()).toBe(1);
    expect(await names.rowsOf(app)).toEqual(
      ['reused.code', 'reused.grant', 'reused.refresh1', 'reused.refresh2', 'reused.access2'].sort(),
    );

    // Presented again, it revokes the whole grant (RFC 9700 §4.14.2).
    expect(await oauth2ErrorOf(refresh(app, family.refresh[0]!))).toBe('invalid_grant');
    expect(await resolves(family.access[1]!)).toBe(false);
    expect(await oauth2ErrorOf(refresh(app, family.refresh[1]!))).toBe('invalid_grant');

    // Revoked for longer than the retention, the grant goes with everything that refers to it.
    await age('token_grant', family.grant, { revoked_at: ago(25) });
    expect(await prune()).toBe(5);
    expect(await names.rowsOf(app)).toEqual([]);
  });

  it('deletes in batches until none is left', async () => {
    const app = await newApp('Batched');
    const names = new RowNames();
    for (let i = 0; i < 5; i++) {
      const code = await authorize(app);
      await age('authorization_code', code, { expires_at: ago(25) });
      names.code(`code${i}`, code);
      const grant = await clientCredentials(app);
      await age('access_token', grant.access, { expires_at: ago(25) });
      names.clientCredentials(`credentials${i}`, grant);
    }
    expect(await names.rowsOf(app)).toHaveLength(15);

    // Three batches each of codes, access tokens and grants.
    expect(await prune({ batchSize: 2 })).toBe(15);
    expect(await names.rowsOf(app)).toEqual([]);
  });

  it('stops when its signal aborts', async () => {
    const app = await newApp('Interrupted');
    const code = await authorize(app);
    await age('authorization_code', code, { expires_at: ago(25) });
    const names = new RowNames();
    names.code('code', code);

    expect(await prune({ signal: AbortSignal.abort() })).toBe(0);
    expect(await names.rowsOf(app)).toEqual(['code']);
    expect(await prune()).toBe(1);
    expect(await names.rowsOf(app)).toEqual([]);
  });
});
