import { loadInteractionsProto } from '@acs/protos';
import { createGrpcServer, type GrpcServer, type Logger } from '@acs/service-kit';
import { createAttachmentHandlers, type AttachmentHandlerDeps } from './handlers/attachment-handlers';
import {
  createChannelMessageHandlers,
  type ChannelMessageHandlerDeps,
} from './handlers/channel-message-handlers';
import { createCallbackHandlers, type CallbackHandlerDeps } from './handlers/callback-handlers';
import { createInteractionHandlers, type InteractionHandlerDeps } from './handlers/interaction-handlers';
import { createReactionHandlers, type ReactionHandlerDeps } from './handlers/reaction-handlers';
import { createSearchHandlers, type SearchHandlerDeps } from './handlers/search-handlers';
import { createAutoModHandlers, type AutoModHandlerDeps } from './handlers/automod-handlers';
import { withFreshAttachmentUrls } from './handlers/fresh-attachment-urls';
import { withStorageQuotaErrors } from './handlers/storage-quota-errors';
import type { AttachmentSigner } from './domain/messages';
import { createPinHandlers, type PinHandlerDeps } from './handlers/pin-handlers';
import { createTimelineHandlers, type TimelineHandlerDeps } from './handlers/timeline-handlers';
import {
  createWebhookMessageHandlers,
  type WebhookMessageHandlerDeps,
} from './handlers/webhook-message-handlers';

/** What interactions' gRPC server is built from. */
export interface ServerDeps
  extends
    InteractionHandlerDeps,
    CallbackHandlerDeps,
    WebhookMessageHandlerDeps,
    AttachmentHandlerDeps,
    PinHandlerDeps,
    ChannelMessageHandlerDeps,
    ReactionHandlerDeps,
    SearchHandlerDeps,
    AutoModHandlerDeps,
    TimelineHandlerDeps {
  interactions: InteractionHandlerDeps['interactions'] & TimelineHandlerDeps['interactions'];
  deadlines: InteractionHandlerDeps['deadlines'] & TimelineHandlerDeps['deadlines'];
  traces: TimelineHandlerDeps['traces'] & WebhookMessageHandlerDeps['traces'];
  logger: Logger;
  /** Signs attachment URLs, checks and renews their signatures. */
  signer: AttachmentSigner;
  /** APPLICATION_STORAGE_QUOTA_BYTES, which a refused write's error names (set on the pool's connections). */
  storageQuotaBytes?: number;
  /** Whether the service can take calls (its database is reachable); health reports it. */
  isReady: () => Promise<boolean>;
}

/** interactions' gRPC server (`acs.interactions.v1.InteractionsService`), not yet listening. */
export function createServer(deps: ServerDeps): GrpcServer {
  return createGrpcServer({
    logger: deps.logger,
    services: [
      {
        name: 'acs.interactions.v1.InteractionsService',
        definition: loadInteractionsProto().acs.interactions.v1.InteractionsService.service,
        handlers: withFreshAttachmentUrls(
          withStorageQuotaErrors(
            {
              ...createInteractionHandlers(deps),
              ...createCallbackHandlers(deps),
              ...createWebhookMessageHandlers(deps),
              ...createAttachmentHandlers(deps),
              ...createPinHandlers(deps),
              ...createChannelMessageHandlers(deps),
              ...createReactionHandlers(deps),
              ...createSearchHandlers(deps),
              ...createAutoModHandlers(deps),
              ...createTimelineHandlers(deps),
            },
            deps.storageQuotaBytes ?? 0,
          ),
          deps.signer,
        ),
      },
    ],
    isReady: deps.isReady,
  });
}
