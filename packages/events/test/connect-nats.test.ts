import { createServer, type Server } from 'node:net';
import { findTestServers } from '@acs/testing';
import { connectNats } from '../src/connect-nats';

/** A port on which nothing listens: bound, then closed. */
async function deadPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a comma-separated NATS_URL is a list of servers: a down first one does not stop the start', async () => {
  const { natsUrl } = await findTestServers();
  const logger = { warn: jest.fn() };
  const nats = await connectNats(
    { servers: `nats://127.0.0.1:${await deadPort()}, ${natsUrl}`, name: 'connect-nats-test' },
    { logger },
  );
  try {
    // No retry (each would be logged): the list itself reached the live server.
    expect(logger.warn).not.toHaveBeenCalled();
    expect(nats.getServer()).toBe(new URL(natsUrl).host);
  } finally {
    await nats.close();
  }
});
