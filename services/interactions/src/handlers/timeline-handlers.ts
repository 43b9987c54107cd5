import type { interactions } from '@acs/protos';
import { parseJsonBody, readPathSnowflake } from '@acs/discord-errors';
import type { Logger } from '@acs/service-kit';
import { UnknownInteractionError } from '../domain/callbacks';
import { readExpiryWindow, readTimelinePage, renderTimelineEntry, TIMEOUT_FAILURE } from '../domain/timeline';
import type { InteractionStore } from '../store/interaction-store';
import type { TraceStore } from '../store/trace-store';

/** What the timeline's admin RPCs need. */
export interface TimelineHandlerDeps {
  traces: Pick<TraceStore, 'list' | 'get'>;
  interactions: Pick<InteractionStore, 'expire' | 'failIfPending'>;
  /** This replica's deadline timers: an interaction failed here needs none. */
  deadlines: { forget(interactionId: string): void };
  logger: Logger;
}

/**
 * The test-control surface of interactions (ACS admin, docs/admin-api.md): the timeline of
 * an application's interactions, and making an interaction's windows pass at once. An
 * interaction of another application is unknown (404 / 10062), as an unknown one is.
 */
export function createTimelineHandlers({ traces, interactions, deadlines, logger }: TimelineHandlerDeps) {
  async function entry(applicationId: string, interactionId: string) {
    const row = await traces.get(applicationId, interactionId);
    if (!row) throw new UnknownInteractionError();
    return renderTimelineEntry(row);
  }

  return {
    async ListInteractionTimeline(req: interactions.ListInteractionTimelineRequest__Output) {
      const applicationId = readPathSnowflake('application_id', req.application_id);
      const before = req.before === '' ? '' : readPathSnowflake('before', req.before);
      const rows = await traces.list(applicationId, readTimelinePage(before, req.limit));
      return { timeline_json: JSON.stringify(rows.map(renderTimelineEntry)) };
    },

    async GetInteractionTimeline(req: interactions.InteractionTimelineRequest__Output) {
      const applicationId = readPathSnowflake('application_id', req.application_id);
      const interactionId = readPathSnowflake('interaction_id', req.interaction_id);
      return { timeline_json: JSON.stringify(await entry(applicationId, interactionId)) };
    },

    async ExpireInteraction(req: interactions.InteractionTimelineRequest__Output) {
      const applicationId = readPathSnowflake('application_id', req.application_id);
      const interactionId = readPathSnowflake('interaction_id', req.interaction_id);
      const window = readExpiryWindow(parseJsonBody(req.body_json));
      // Its trace first: an interaction the timeline does not show is not the admin's to expire.
      await entry(applicationId, interactionId);
      const state = await interactions.expire(applicationId, interactionId, window);
      if (state === undefined) throw new UnknownInteractionError();
      if (state === 'pending') {
        // Its deadline is now: it fails as a timeout would, at once rather than at the sweep.
        const result = await interactions.failIfPending(interactionId, TIMEOUT_FAILURE, true);
        if (result.kind === 'failed') {
          deadlines.forget(interactionId);
          logger.info(
            { interaction_id: interactionId, reason: result.reason, expired: window },
            'interaction failed',
          );
        }
      }
      return { timeline_json: JSON.stringify(await entry(applicationId, interactionId)) };
    },
  };
}
