import type { PoolClient } from 'pg';
import type { oauth } from '@acs/protos';
import { OAuth2Error } from '@acs/discord-errors';
import { hashSecret } from '../../src/domain/hash-secret';
import { createOAuthTestEnv, createUser, discordErrorOf, type OAuthTestEnv } from '../support/oauth-test-env';
import { clientFlows, type TestClient } from '../support/client-flows';

// Revocation holds against the token requests racing it: tokens of a revoked grant, a
// refresh during a revocation, a code exchange during a deauthorization, client
// credentials during an owner change or a switch to public client; and every such change is announced for the
// gateway replicas' caches. The races are played out with a second connection that holds
// the other side's transaction open at the point where it used to go wrong.

let env: OAuthTestEnv;
let user: string;
let owner: string;
let nextOwner: string;

const REDIRECT = 'https://app.example/callback';

beforeAll(async () => {
  env = await createOAuthTestEnv();
  user = (await createUser(env.handlers, { username: 'alice' })).id as string;
  owner = (await createUser(env.handlers, { username: 'owner' })).id as string;
  nextOwner = (await createUser(env.handlers, { username: 'next-owner' })).id as string;
});
afterAll(() => env.close());

type Client = TestClient;

const { newApp, authorize, exchange } = clientFlows({
  env: () => env,
  owner: () => owner,
  user: () => user,
  redirectUri: REDIRECT,
});

const exchangeCode = (client: Client, code: string) =>
  exchange(client, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT });

const clientCredentials = (client: Client) =>
  exchange(client, { grant_type: 'client_credentials', scope: 'identify' });

const resolve = (token: string) => env.handlers.ResolveToken({ kind: 'PRINCIPAL_KIND_BEARER', token });

const resolves = (token: string) =>
  resolve(token).then(
    () => true,
    () => false,
  );

/** What a promise settled with, without throwing. */
function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/**
 * Waits until `count` sessions of the test database wait for a lock, or until `pending`
 * settles (what happens when nothing makes it wait); the test then checks the outcome.
 */
async function untilLockWaits(count: number, pending: Promise<unknown>): Promise<void> {
  let settled = false;
  void pending.finally(() => {
    settled = true;
  });
  for (const deadline = Date.now() + 5000; !settled && Date.now() < deadline;) {
    const { rows } = await env.pool.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.waiting ?? 0) >= count) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs `play` with a connection of its own in an open transaction, rolled back if left open. */
async function withOtherTransaction(play: (other: PoolClient) => Promise<void>): Promise<void> {
  const other = await env.pool.connect();
  try {
    await other.query('BEGIN');
    await play(other);
  } finally {
    await other.query('ROLLBACK').catch(() => undefined);
    other.release();
  }
}

async function grantOf(accessToken: string): Promise<string> {
  const { rows } = await env.pool.query<{ grant_id: string }>(
    `SELECT grant_id::text FROM "oauth"."access_token" WHERE token_hash = $1`,
    [Buffer.from(hashSecret(accessToken))],
  );
  if (!rows[0]) throw new Error('unknown access token');
  return rows[0].grant_id;
}

async function eventsOf(type: string, applicationId: string): Promise<unknown[]> {
  const { rows } = await env.pool.query<{ data: { application_id?: string } }>(
    `SELECT payload->'data' AS data FROM "oauth"."outbox" WHERE subject = $1 ORDER BY seq`,
    [`acs.oauth.${type}`],
  );
  return rows.map((r) => r.data).filter((d) => d.application_id === applicationId);
}

describe('a revoked grant', () => {
  it('stops its access tokens even when a token row itself was left unrevoked', async () => {
    const app = await newApp('Half Revoked');
    const tokens = await exchangeCode(app, await authorize(app));
    const token = tokens.access_token!;
    expect(await resolves(token)).toBe(true);
    // What a refresh committing after the revoker's snapshot leaves behind.
    await env.pool.query(`UPDATE "oauth"."token_grant" SET revoked_at = now() WHERE id = $1`, [
      await grantOf(token),
    ]);
    expect((await discordErrorOf(resolve(token))).httpStatus).toBe(401);
    expect((await discordErrorOf(env.handlers.DescribeAuthorization({ token }))).httpStatus).toBe(401);
  });

  it('makes a refresh racing the revocation wait for it, then fail', async () => {
    const app = await newApp('Refresh Race');
    const first = await exchangeCode(app, await authorize(app));
    const grantId = await grantOf(first.access_token!);
    let refreshed: { value?: oauth.ExchangeTokenResponse; error?: unknown } = {};
    await withOtherTransaction(async (revoker) => {
      // The revocation's statements in their order, paused before its refresh tokens.
      await revoker.query(`UPDATE "oauth"."token_grant" SET revoked_at = now() WHERE id = $1`, [grantId]);
      await revoker.query(
        `UPDATE "oauth"."access_token" SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL`,
        [grantId],
      );
      const refresh = settle(
        exchange(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token! }),
      );
      await untilLockWaits(1, refresh);
      await revoker.query(
        `UPDATE "oauth"."refresh_token" SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL`,
        [grantId],
      );
      await revoker.query('COMMIT');
      refreshed = await refresh;
    });
    expect(refreshed.error).toBeInstanceOf(OAuth2Error);
    expect((refreshed.error as OAuth2Error).error).toBe('invalid_grant');
    const { rows } = await env.pool.query(
      `SELECT 1 FROM "oauth"."access_token" WHERE grant_id = $1 AND revoked_at IS NULL`,
      [grantId],
    );
    expect(rows).toEqual([]);
  });
});

describe('deauthorization', () => {
  const remove = (app: Client) => env.handlers.RemoveAuthorization({ application_id: app.id, user_id: user });

  it('spends the codes not yet exchanged', async () => {
    const app = await newApp('Deauthorized');
    const code = await authorize(app);
    await remove(app);
    const outcome = await settle(exchangeCode(app, code));
    expect(outcome.error).toBeInstanceOf(OAuth2Error);
    expect((outcome.error as OAuth2Error).error).toBe('invalid_grant');
  });

  it('waits for an exchange in flight and revokes what it issued', async () => {
    const app = await newApp('Exchange Race');
    const code = await authorize(app);
    let exchanged: { value?: oauth.ExchangeTokenResponse; error?: unknown } = {};
    await withOtherTransaction(async (blocker) => {
      // The exchange marks its code used, then waits here (its new grant's foreign key).
      await blocker.query(`SELECT 1 FROM "oauth"."application" WHERE id = $1 FOR UPDATE`, [app.id]);
      const exchanging = settle(exchangeCode(app, code));
      await untilLockWaits(1, exchanging);
      const removing = settle(remove(app));
      await untilLockWaits(2, removing);
      await blocker.query('COMMIT');
      exchanged = await exchanging;
      expect((await removing).value).toEqual({ removed: true });
    });
    // Whichever went first, the deauthorization holds.
    if (exchanged.value) expect(await resolves(exchanged.value.access_token!)).toBe(false);
    else expect((exchanged.error as OAuth2Error).error).toBe('invalid_grant');
  });
});

describe('an owner change', () => {
  const patch = (app: Client, body: object) =>
    env.handlers.UpdateApplication({ application_id: app.id, body_json: JSON.stringify(body) });

  it('revokes the client-credentials tokens that act as the old owner, and says so', async () => {
    const app = await newApp('Sold');
    const old = await clientCredentials(app);
    expect(await resolve(old.access_token!)).toMatchObject({ user_id: owner });

    await patch(app, { name: 'Renamed' });
    expect(await resolves(old.access_token!)).toBe(true);
    expect(await eventsOf('application.credentials_changed', app.id)).toEqual([]);

    await patch(app, { owner_id: nextOwner });
    expect(await resolves(old.access_token!)).toBe(false);
    const fresh = await clientCredentials(app);
    expect(await resolve(fresh.access_token!)).toMatchObject({ user_id: nextOwner });
    expect(await eventsOf('application.credentials_changed', app.id)).toEqual([
      { application_id: app.id, changed: ['owner_id'] },
    ]);

    await patch(app, { owner_id: nextOwner });
    expect(await resolves(fresh.access_token!)).toBe(true);
    expect(await eventsOf('application.credentials_changed', app.id)).toHaveLength(1);
  });

  it('issues client credentials for the owner as of the issuing transaction', async () => {
    const app = await newApp('Sold Mid-Request');
    let issued: { value?: oauth.ExchangeTokenResponse; error?: unknown } = {};
    await withOtherTransaction(async (patcher) => {
      // An owner change that has revoked the old owner's grants but not committed yet.
      await patcher.query(`UPDATE "oauth"."application" SET owner_id = $1 WHERE id = $2`, [
        nextOwner,
        app.id,
      ]);
      await patcher.query(
        `UPDATE "oauth"."token_grant" SET revoked_at = now()
          WHERE application_id = $1 AND kind = 'client_credentials' AND revoked_at IS NULL`,
        [app.id],
      );
      const issuing = settle(clientCredentials(app));
      await untilLockWaits(1, issuing);
      await patcher.query('COMMIT');
      issued = await issuing;
    });
    expect(issued.value).toBeDefined();
    expect(await resolve(issued.value!.access_token!)).toMatchObject({ user_id: nextOwner });
  });
});

describe('a switch to public client', () => {
  const patch = (app: Client, body: object) =>
    env.handlers.UpdateApplication({ application_id: app.id, body_json: JSON.stringify(body) });

  it("revokes the client-credentials tokens, keeps users' authorizations, and says so", async () => {
    const app = await newApp('Gone Public');
    const credentials = await clientCredentials(app);
    const authorized = await exchangeCode(app, await authorize(app));

    await patch(app, { public_client: false });
    expect(await resolves(credentials.access_token!)).toBe(true);
    expect(await eventsOf('application.credentials_changed', app.id)).toEqual([]);

    await patch(app, { public_client: true });
    expect(await resolves(credentials.access_token!)).toBe(false);
    expect(await resolves(authorized.access_token!)).toBe(true);
    expect(await eventsOf('application.credentials_changed', app.id)).toEqual([
      { application_id: app.id, changed: ['public_client'] },
    ]);
    const refused = await settle(clientCredentials(app));
    expect((refused.error as OAuth2Error).error).toBe('unauthorized_client');

    // Already public, or back to confidential: nothing more to revoke or announce.
    await patch(app, { public_client: true });
    await patch(app, { public_client: false });
    expect(await eventsOf('application.credentials_changed', app.id)).toHaveLength(1);
    const fresh = await clientCredentials(app);
    expect(await resolves(fresh.access_token!)).toBe(true);
  });

  it('refuses client credentials to a request that was in flight when the switch committed', async () => {
    const app = await newApp('Public Mid-Request');
    let issued: { value?: oauth.ExchangeTokenResponse; error?: unknown } = {};
    await withOtherTransaction(async (patcher) => {
      // A switch that has revoked the client-credentials grants but not committed yet.
      await patcher.query(`UPDATE "oauth"."application" SET public_client = true WHERE id = $1`, [app.id]);
      await patcher.query(
        `UPDATE "oauth"."token_grant" SET revoked_at = now()
          WHERE application_id = $1 AND kind = 'client_credentials' AND revoked_at IS NULL`,
        [app.id],
      );
      const issuing = settle(clientCredentials(app));
      await untilLockWaits(1, issuing);
      await patcher.query('COMMIT');
      issued = await issuing;
    });
    expect(issued.error).toBeInstanceOf(OAuth2Error);
    expect((issued.error as OAuth2Error).error).toBe('unauthorized_client');
    const { rows } = await env.pool.query(
      `SELECT 1 FROM "oauth"."token_grant" WHERE application_id = $1 AND revoked_at IS NULL`,
      [app.id],
    );
    expect(rows).toEqual([]);
  });

  it('announces a new owner and the switch together when one PATCH does both', async () => {
    const app = await newApp('Sold and Public');
    const credentials = await clientCredentials(app);
    await patch(app, { owner_id: nextOwner, public_client: true });
    expect(await resolves(credentials.access_token!)).toBe(false);
    expect(await eventsOf('application.credentials_changed', app.id)).toEqual([
      { application_id: app.id, changed: ['owner_id', 'public_client'] },
    ]);
  });
});

describe('events for the gateway replicas', () => {
  it('announces a revoked client-credentials token', async () => {
    const app = await newApp('Revoker');
    const { access_token: token } = await clientCredentials(app);
    const answer = await env.handlers.RevokeToken({
      token: token!,
      token_type_hint: '',
      client_id: app.id,
      client_secret: app.secret,
      auth_method: 'CLIENT_AUTH_METHOD_POST',
    });
    expect(answer.revoked).toBe(true);
    expect(await eventsOf('application.credentials_changed', app.id)).toEqual([
      { application_id: app.id, changed: ['tokens_revoked'] },
    ]);
    // Not a user's deauthorization: no APPLICATION_DEAUTHORIZED for the owner.
    expect(await eventsOf('application.deauthorized', app.id)).toEqual([]);
  });

  it('announces changed flags, and only when they change', async () => {
    const app = await newApp('Flagged');
    const patch = (body: object) =>
      env.handlers.UpdateApplication({ application_id: app.id, body_json: JSON.stringify(body) });
    await patch({ flags: 1 << 19 });
    await patch({ flags: 1 << 19 });
    await patch({ flags: 1 << 19, owner_id: nextOwner });
    expect(await eventsOf('application.credentials_changed', app.id)).toEqual([
      { application_id: app.id, changed: ['flags'] },
      { application_id: app.id, changed: ['owner_id'] },
    ]);
  });
});
