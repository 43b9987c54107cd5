import { generateKeyPairSync } from 'node:crypto';
import { createLogger } from '@acs/service-kit';
import type { WebhookPoster } from '@acs/outbound';
import type { ApplicationSettings, OAuthClient } from '../../../src/clients/oauth-client';
import { WebhookWorker } from '../../../src/delivery/webhooks/webhook-worker';
import type { ClaimedDelivery, DeliveryStore } from '../../../src/store/delivery-store';

const APP = '1800000000000000001';
const URL = 'https://example.com/events';

const delivery: ClaimedDelivery = {
  eventId: 'e1',
  applicationId: APP,
  eventType: 'APPLICATION_AUTHORIZED',
  url: URL,
  body: '{"version":1}',
  attempts: 0,
  firstAttemptAt: null,
};

const settings: ApplicationSettings = {
  applicationId: APP,
  webhookUrl: URL,
  webhookTypes: ['APPLICATION_AUTHORIZED'],
  verifyKey: 'ab'.repeat(32),
  signingKeyPem: generateKeyPairSync('ed25519')
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString(),
  flags: 0,
  botUser: { id: APP, username: 'bot', bot: true },
};

/** Runs the worker over one claimed delivery until it settles; returns what it recorded and posted. */
async function attemptOnce(oauth: OAuthClient): Promise<{ outcome: string; posted: string[] }> {
  const posted: string[] = [];
  let claimed = false;
  let settle: (outcome: string) => void = () => undefined;
  const settled = new Promise<string>((resolve) => (settle = resolve));
  const store = {
    claimDue: async () => (claimed ? [] : ((claimed = true), [delivery])),
    nextDueAt: async () => undefined,
    markDelivered: async () => settle('delivered'),
    markSkipped: async () => settle('skipped'),
    scheduleRetry: async () => settle('retry'),
    markFailed: async () => (settle('failed'), false),
  } as Partial<DeliveryStore> as DeliveryStore;
  const poster = {
    post: async (url: string) => {
      posted.push(url);
      return { kind: 'answered', status: 204 };
    },
  } as unknown as WebhookPoster;
  const worker = new WebhookWorker({
    store,
    oauth,
    poster,
    logger: createLogger('webhook-worker-test', 'silent'),
    concurrency: 1,
    concurrencyPerEndpoint: 1,
    timeScale: 1,
    disableAfterFailures: 5,
    pollIntervalMs: 20,
  });
  worker.start();
  const outcome = await settled;
  await worker.stop();
  return { outcome, posted };
}

describe('WebhookWorker', () => {
  it('asks oauth again before skipping a delivery its cached settings no longer take (a URL set through another replica)', async () => {
    const asked: Array<Date | undefined> = [];
    const oauth = {
      settings: async (_id: string, options?: { notBefore?: Date }) => {
        asked.push(options?.notBefore);
        // The cache still holds the settings from before the URL was set; oauth has it now.
        return options?.notBefore ? settings : { ...settings, webhookUrl: null };
      },
    } as Partial<OAuthClient> as OAuthClient;
    expect(await attemptOnce(oauth)).toEqual({ outcome: 'delivered', posted: [URL] });
    expect(asked).toHaveLength(2);
    expect(asked[1]).toBeInstanceOf(Date);
  });

  it('skips a delivery oauth itself says the application no longer takes', async () => {
    const oauth = {
      settings: async () => ({ ...settings, webhookTypes: [] }),
    } as Partial<OAuthClient> as OAuthClient;
    expect(await attemptOnce(oauth)).toEqual({ outcome: 'skipped', posted: [] });
  });
});
