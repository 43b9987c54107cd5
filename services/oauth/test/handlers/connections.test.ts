import { createOAuthTestEnv, type OAuthTestEnv } from '../support/oauth-test-env';

/** ListConnections (GET /users/@me/connections) and CreateConnection (the admin API) against a real database. */
let env: OAuthTestEnv;
beforeAll(async () => {
  env = await createOAuthTestEnv();
});
afterAll(() => env.close());

async function createUser(username: string): Promise<string> {
  const answer = await env.handlers.CreateUser({ body_json: JSON.stringify({ username }) });
  return (JSON.parse(answer.user_json as string) as { id: string }).id;
}

async function connect(userId: string, type: string, id: string): Promise<Record<string, unknown>> {
  const answer = await env.handlers.CreateConnection({
    user_id: userId,
    body_json: JSON.stringify({ type, id, name: `${type} account` }),
  });
  return JSON.parse(answer.connection_json as string) as Record<string, unknown>;
}

describe('connections', () => {
  it('accepts Riot Games and League of Legends connections but no longer lists them', async () => {
    const userId = await createUser('gamer');
    expect(await connect(userId, 'riotgames', 'riot-1')).toMatchObject({ type: 'riotgames', id: 'riot-1' });
    expect(await connect(userId, 'leagueoflegends', 'lol-1')).toMatchObject({ type: 'leagueoflegends' });
    await connect(userId, 'steam', 'steam-1');
    await connect(userId, 'github', 'gh-1');

    const listed = JSON.parse(
      (await env.handlers.ListConnections({ user_id: userId })).connections_json as string,
    ) as { type: string; id: string }[];
    expect(listed.map((c) => c.type).sort()).toEqual(['github', 'steam']);
  });

  it('lists nothing for a user whose only connections are Riot Games ones', async () => {
    const userId = await createUser('riotonly');
    await connect(userId, 'riotgames', 'riot-2');
    const answer = await env.handlers.ListConnections({ user_id: userId });
    expect(JSON.parse(answer.connections_json as string)).toEqual([]);
  });
});
