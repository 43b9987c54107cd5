import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { findTestServers, TcpProxy } from '@acs/testing';
import {
  createEvent,
  followEventsLive,
  publishedSubject,
  type CheckedEvent,
  type LiveEventFeed,
} from '../src';

const NAMES = ['oauth.application.updated', 'oauth.user.updated'] as const;
type Name = (typeof NAMES)[number];
const silent = { warn: () => undefined };

let nats: NatsConnection;
let natsUrl: string;

beforeAll(async () => {
  natsUrl = (await findTestServers()).natsUrl;
  nats = await connect({ servers: natsUrl });
});

afterAll(async () => {
  await nats.close();
});

/** Publishes an event of the catalog as the relay does (core publish on its prefixed subject). */
async function publish(prefix: string, name: Name, data: { application_id: string } | { user_id: string }) {
  const row = createEvent(name, data as never);
  nats.publish(publishedSubject(row.subject, prefix), JSON.stringify(row.payload));
  await nats.flush();
}

/** Polls `check` (every 20 ms) until it holds, or fails after `timeoutMs`. */
async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function follow(servers: string, prefix: string) {
  const handled: CheckedEvent<Name>[] = [];
  let resets = 0;
  const feed: LiveEventFeed = followEventsLive({
    nats: { servers, name: 'test' },
    events: { subjectPrefix: prefix },
    names: NAMES,
    logger: silent,
    handle: (event) => handled.push(event),
    reset: () => resets++,
  });
  return { feed, handled, resets: () => resets };
}

describe('followEventsLive', () => {
  it('hears the events it names once live, checked against the catalog, and not others', async () => {
    const prefix = `live${randomBytes(4).toString('hex')}`;
    const { feed, handled } = follow(natsUrl, prefix);
    try {
      await until('live', () => feed.isLive());
      await publish(prefix, 'oauth.application.updated', { application_id: '42' });
      nats.publish(`${prefix}.oauth.application.updated`, '{"not":"an envelope"}');
      nats.publish(
        `${prefix}.oauth.user.deleted`,
        JSON.stringify(createEvent('oauth.user.deleted', { user_id: '7' }).payload),
      );
      await publish(prefix, 'oauth.user.updated', { user_id: '43' });
      await until('two events', () => handled.length >= 2);
      expect(handled.map((e) => [e.name, e.data])).toEqual([
        ['oauth.application.updated', { application_id: '42' }],
        ['oauth.user.updated', { user_id: '43' }],
      ]);
    } finally {
      await feed.stop();
    }
    expect(feed.isLive()).toBe(false);
  });

  it('is not live and resets while the connection is away, and live again after it is back', async () => {
    const prefix = `live${randomBytes(4).toString('hex')}`;
    const server = new URL(natsUrl);
    const proxy = new TcpProxy(server.hostname, Number(server.port || 4222));
    await proxy.open();
    const { feed, handled, resets } = follow(`nats://127.0.0.1:${proxy.port}`, prefix);
    try {
      await until('live', () => feed.isLive());
      const before = resets();
      await proxy.cut();
      await until('not live', () => !feed.isLive());
      expect(resets()).toBeGreaterThan(before);
      // Missed: nothing keeps it for a core subscription, hence the reset.
      await publish(prefix, 'oauth.application.updated', { application_id: '1' });
      await proxy.open();
      await until('live again', () => feed.isLive(), 45_000);
      await publish(prefix, 'oauth.application.updated', { application_id: '2' });
      await until('the event after the outage', () => handled.length > 0);
      expect(handled.map((e) => e.data)).toEqual([{ application_id: '2' }]);
    } finally {
      await feed.stop();
      await proxy.close();
    }
  }, 70_000);
});
