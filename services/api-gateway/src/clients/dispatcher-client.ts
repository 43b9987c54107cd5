import type { dispatcher } from '@acs/protos';
import { callPeer } from '@acs/service-kit';
import { checkServing } from './check-serving';

/** What `GET /gateway/bot` tells a bot: where to connect, with how many shards, and its identify budget. */
export interface BotGateway {
  url: string;
  shards: number;
  sessionStartLimit: {
    total: number;
    remaining: number;
    /** Milliseconds until the budget is whole again. */
    resetAfter: number;
    maxConcurrency: number;
  };
}

/**
 * What api-gateway asks of the dispatcher, which runs the WebSocket gateway and delivers
 * to apps' URLs: the gateway's URL and a bot's limits there, and the verification of an
 * application's interactions endpoint and event webhook URLs before they are saved. A
 * failure the dispatcher answers with its own error (a URL that failed its check: 400 /
 * 50035 on the field) rejects with that DiscordError; one in transport with 503 or 504.
 */
export interface DispatcherClient {
  /** Whether the dispatcher reports SERVING on its health service. */
  isServing(deadlineMs: number): Promise<boolean>;
  /** The gateway's WebSocket URL. */
  gatewayUrl(): Promise<string>;
  /** The gateway as a bot is told it (`GET /gateway/bot`). */
  botGateway(applicationId: string): Promise<BotGateway>;
  /** Checks that the URL answers a signed PING interaction as Discord expects (and refuses a forged one). */
  verifyInteractionsEndpoint(applicationId: string, url: string): Promise<void>;
  /** Checks that the URL answers a signed webhook event PING (and refuses a forged one). */
  verifyEventWebhooksEndpoint(applicationId: string, url: string): Promise<void>;
}

/** The DispatcherClient over the dispatcher's gRPC client. */
export function createDispatcherClient(client: dispatcher.DispatcherServiceClient): DispatcherClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),

    async gatewayUrl() {
      return (await callPeer(client, client.GetGateway, { application_id: '' })).url;
    },

    async botGateway(applicationId) {
      const answer = await callPeer(client, client.GetGateway, { application_id: applicationId });
      const limit = answer.session_start_limit;
      // Discord's defaults, for a dispatcher that sent no limit.
      return {
        url: answer.url,
        shards: answer.shards,
        sessionStartLimit: {
          total: limit?.total ?? 1000,
          remaining: limit?.remaining ?? 1000,
          resetAfter: Number(limit?.reset_after ?? 0),
          maxConcurrency: limit?.max_concurrency ?? 1,
        },
      };
    },

    async verifyInteractionsEndpoint(applicationId, url) {
      await callPeer(client, client.VerifyInteractionsEndpoint, { application_id: applicationId, url });
    },

    async verifyEventWebhooksEndpoint(applicationId, url) {
      await callPeer(client, client.VerifyWebhookEndpoint, { application_id: applicationId, url });
    },
  };
}
