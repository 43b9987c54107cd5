import { createDemoWorld, startTestStack, type TestStack } from './support';

describe('the running stack', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers /healthz and, with every backend serving, /readyz', async () => {
    expect((await fetch(`${stack.apiUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${stack.apiUrl}/readyz`)).status).toBe(200);
  });

  it("answers an unknown route with Discord's 404 body and exactly application/json", async () => {
    const response = await fetch(`${stack.apiUrl}/api/v10/no-such-route`);

    expect(response.status).toBe(404);
    // discord.py parses JSON only when the header is exactly this (no charset).
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ code: 0, message: '404: Not Found' });
  });

  it('refuses the admin API without the admin token, or with another one', async () => {
    const body = JSON.stringify({ username: 'nobody' });
    const headers = { 'Content-Type': 'application/json' };

    const missing = await fetch(`${stack.apiUrl}/admin/users`, { method: 'POST', headers, body });
    const wrong = await fetch(`${stack.apiUrl}/admin/users`, {
      method: 'POST',
      headers: { ...headers, Authorization: `Admin not-${stack.adminToken}` },
      body,
    });

    expect(missing.status).toBe(401);
    expect(wrong.status).toBe(401);
  });

  it('builds the demo world through the admin API', async () => {
    const world = await createDemoWorld(stack);

    expect(world.application.id).toMatch(/^\d{17,19}$/);
    expect(world.guild.id).toMatch(/^\d{17,19}$/);
    expect(world.application.botToken).toEqual(expect.any(String));
  });
});
