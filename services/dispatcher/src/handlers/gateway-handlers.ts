import type { dispatcher } from '@acs/protos';
import { sessionStartLimit } from '../domain/identify-limits';
import type { IdentifyStore } from '../store/identify-store';

/** What the gateway RPC works with. */
export interface GatewayHandlerDeps {
  identifies: IdentifyStore;
  /** The gateway's URL, as bots are given it. */
  publicUrl: string;
}

/** The handler of `GetGateway` (`GET /gateway` and `GET /gateway/bot`). */
export function createGatewayHandlers({ identifies, publicUrl }: GatewayHandlerDeps) {
  return {
    async GetGateway(request: dispatcher.GetGatewayRequest__Output): Promise<dispatcher.GetGatewayResponse> {
      if (!request.application_id) return { url: publicUrl };
      const usage = await identifies.usage({ kind: 'bot', applicationId: request.application_id });
      return {
        url: publicUrl,
        shards: 1,
        // The limits the gateway enforces, from the same records.
        session_start_limit: sessionStartLimit(identifies.limits, usage),
      };
    },
  };
}
