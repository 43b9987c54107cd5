import type { Request } from 'express';
import { DiscordError } from '@acs/discord-errors';
import { createAuthenticator, type Authenticator } from '../../src/auth/create-authenticator';
import { createOAuthClient } from '../../src/clients/oauth-client';
import { startFakeOAuth, type FakeOAuth } from '../support/fake-oauth-server';

/** The authenticator against a real gRPC server standing in for oauth, with a clock of its own. */
let oauth: FakeOAuth;
let clock: number;
let auth: Authenticator;

const BOT = {
  kind: 'PRINCIPAL_KIND_BOT' as const,
  application_id: '1300000000000000001',
  user_id: '1300000000000000001',
  scopes: [],
  application_flags: 0,
  user_locale: '',
  cache_seconds: 60,
};

const request = (authorization: string) => ({ headers: { authorization } }) as Request;

/** The status a failed authentication answers with (500 for an error no one translated). */
async function statusOf(authorization: string): Promise<number> {
  try {
    await auth.authenticate(request(authorization));
    return 200;
  } catch (error) {
    return error instanceof DiscordError ? error.httpStatus : 500;
  }
}

beforeAll(async () => {
  oauth = await startFakeOAuth();
});

afterAll(async () => oauth?.close());

beforeEach(() => {
  oauth.tokens.clear();
  oauth.calls.length = 0;
  oauth.failing = false;
  clock = 1_000_000;
  auth = createAuthenticator(createOAuthClient(oauth.client), {
    maxCacheSeconds: 30,
    unknownTokenSeconds: 10,
    now: () => clock,
  });
});

describe('unknown tokens', () => {
  it('reach oauth once per cache period, and again once it has passed', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await statusOf('Bot never.issued.token'));
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(oauth.calls).toHaveLength(1);

    clock += 9_999;
    expect(await statusOf('Bot never.issued.token')).toBe(401);
    expect(oauth.calls).toHaveLength(1);

    clock += 2;
    expect(await statusOf('Bot never.issued.token')).toBe(401);
    expect(oauth.calls).toHaveLength(2);
  });

  it('are remembered per credential: every spelling of one, but not the same text as another kind', async () => {
    expect(await statusOf('Bot some-token')).toBe(401);
    expect(await statusOf('bot   some-token')).toBe(401);
    expect(oauth.calls).toHaveLength(1);

    oauth.tokens.set('some-token', { ...BOT, kind: 'PRINCIPAL_KIND_BEARER' });
    expect(await statusOf('Bearer some-token')).toBe(200);
    expect(oauth.calls.map((c) => c.kind)).toEqual(['PRINCIPAL_KIND_BOT', 'PRINCIPAL_KIND_BEARER']);
  });

  it('are not remembered when oauth failed to answer, so a token issued meanwhile works at once', async () => {
    oauth.failing = true;
    // oauth failing without a detail is a service that could not serve: 503.
    expect(await statusOf('Bot fresh.bot.token')).toBe(503);
    oauth.failing = false;
    oauth.tokens.set('fresh.bot.token', BOT);
    expect(await statusOf('Bot fresh.bot.token')).toBe(200);
    expect(oauth.calls).toHaveLength(2);
  });

  it('are not remembered when oauth was unreachable', async () => {
    oauth.tokens.set('fresh.bot.token', BOT);
    await oauth.stop();
    const during = await statusOf('Bot fresh.bot.token');
    await oauth.restart();
    // The channel reconnects after its backoff; until then calls fail without reaching oauth.
    const after: number[] = [];
    for (let i = 0; i < 40 && after.at(-1) !== 200; i++) {
      after.push(await statusOf('Bot fresh.bot.token'));
      if (after.at(-1) !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(during).toBe(503);
    expect(after.at(-1)).toBe(200);
    expect(after).not.toContain(401);
  });

  it('are always asked about when the cache period is 0', async () => {
    auth = createAuthenticator(createOAuthClient(oauth.client), {
      maxCacheSeconds: 30,
      unknownTokenSeconds: 0,
      now: () => clock,
    });
    for (let i = 0; i < 3; i++) expect(await statusOf('Bot never.issued.token')).toBe(401);
    expect(oauth.calls).toHaveLength(3);
  });
});

describe('concurrent lookups', () => {
  it('of one uncached token make one call to oauth, valid or not', async () => {
    oauth.tokens.set('starting.bot.token', BOT);
    const valid = await Promise.all(Array.from({ length: 20 }, () => statusOf('Bot starting.bot.token')));
    expect(valid).toEqual(Array(20).fill(200));
    const invalid = await Promise.all(Array.from({ length: 20 }, () => statusOf('Bot never.issued.token')));
    expect(invalid).toEqual(Array(20).fill(401));
    expect(oauth.calls.map((c) => c.token)).toEqual(['starting.bot.token', 'never.issued.token']);
  });

  it('are not shared once answered: a failed call is retried by the next request', async () => {
    oauth.failing = true;
    const failed = await Promise.all([statusOf('Bot fresh.bot.token'), statusOf('Bot fresh.bot.token')]);
    expect(failed).toEqual([503, 503]);
    oauth.failing = false;
    oauth.tokens.set('fresh.bot.token', BOT);
    expect(await statusOf('Bot fresh.bot.token')).toBe(200);
    expect(oauth.calls).toHaveLength(2);
  });
});
