import { DiscordError } from '@acs/discord-errors';
import { signatureTimestamp, signWebhook } from '@acs/outbound';
import type { Logger } from '@acs/service-kit';
import { readEndpointAnswer, type EndpointOutcome } from '../domain/invocation';
import { deliveryFailure, endpointDeliveryOf, type Failure, type JsonRecordLike } from '../domain/timeline';
import type { InteractionRecord } from '../store/interaction-record';

/**
 * What records an initial response as the callback route records a callback (resp's
 * responder, `handlers/responder.ts`), as far as delivery uses it.
 */
export interface InlineResponder {
  respond(input: {
    interactionId: string;
    body: unknown;
    withResponse: boolean;
    /** The endpoint's own answer to the signed delivery: no token to check. */
    inline?: boolean;
    /** The application's facts at hand (saves the responder asking oauth). */
    application?: HttpTarget['application'];
    /** The interaction as recorded (saves the responder reading it back). */
    record?: InteractionRecord;
  }): Promise<unknown>;
}

/** What POSTs to apps' endpoints: @acs/outbound's WebhookPoster. */
export interface EndpointPoster {
  post(url: string, body: string, headers: Record<string, string>): Promise<EndpointOutcome>;
}

/** Where and how one interaction is delivered. */
export interface HttpTarget {
  interactionId: string;
  url: string;
  /** PKCS#8 PEM of the application's Ed25519 signing key. */
  signingKeyPem: string;
  /** What an inline answer's message needs of the application (its author, its flags). */
  application: { botUser: Record<string, unknown>; applicationFlags: number };
  /** The interaction as just recorded, pending: what an inline answer is recorded against. */
  record: InteractionRecord;
}

/** What HTTP delivery is built from. */
export interface HttpDeliveryOptions {
  poster: EndpointPoster;
  /** Records an inline answer as the callback route records a callback. */
  responder: InlineResponder;
  /**
   * Fails the interaction at once with reason 1 UNKNOWN and its cause, unless it has its
   * outcome already; answers why when it failed now.
   */
  fail: (interactionId: string, failure: Failure) => Promise<{ kind: string; reason?: string }>;
  /** Notes how the interaction went to the endpoint, for the timeline. */
  noteDelivery: (interactionId: string, delivery: JsonRecordLike, sentAt: Date) => Promise<void>;
  logger: Logger;
  now?: () => number;
}

/** What Discord sends as User-Agent (A7; "don't rely on it"). */
export const INTERACTIONS_USER_AGENT = 'Discord-Interactions/1.0 (+https://discord.com)';

/** Codes of a responder refusal that mean the outcome was decided elsewhere: nothing to fail. */
const ALREADY_DECIDED = new Set([40060, 10062]);

/**
 * Delivers interactions to applications' interactions endpoints (A7): a POST signed with
 * the application's Ed25519 key like webhook events (one signing implementation and one
 * address policy, @acs/outbound). The endpoint's answer decides at once: 200 with JSON is
 * the initial response (processed as a callback is), 202 leaves it to the callback route
 * and the deadline, anything else fails the interaction with reason 1.
 */
export class HttpDelivery {
  private readonly now: () => number;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: HttpDeliveryOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Delivers in the background (deliver), kept track of until it ends so that shutdown can wait for it. */
  start(target: HttpTarget, bodyJson: string): void {
    const delivery = this.deliver(target, bodyJson).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** Resolves once the deliveries under way have ended. */
  async drain(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /** POSTs `bodyJson` (the interaction object) and acts on the answer; never throws. */
  async deliver(target: HttpTarget, bodyJson: string): Promise<void> {
    const { logger } = this.options;
    try {
      const sentAt = new Date(this.now());
      const timestamp = signatureTimestamp(sentAt.getTime());
      const outcome = await this.options.poster.post(target.url, bodyJson, {
        'user-agent': INTERACTIONS_USER_AGENT,
        'x-signature-ed25519': signWebhook(target.signingKeyPem, timestamp, bodyJson),
        'x-signature-timestamp': timestamp,
      });
      const status = outcome.kind === 'answered' ? outcome.status : null;
      await this.options
        .noteDelivery(
          target.interactionId,
          endpointDeliveryOf({ url: target.url, timestamp, status }),
          sentAt,
        )
        .catch((error: unknown) => logger.warn({ err: error }, 'noting a delivery in the timeline failed'));
      const answer = readEndpointAnswer(outcome);
      if (answer.kind === 'deferred') return;
      if (answer.kind === 'failed') {
        await this.failWith(
          target.interactionId,
          deliveryFailure({ kind: 'endpoint', detail: answer.reason }),
        );
        return;
      }
      await this.respondInline(target, answer.response);
    } catch (error) {
      logger.warn({ err: error, interaction_id: target.interactionId }, 'interaction delivery broke off');
      const broke = deliveryFailure({ kind: 'endpoint', detail: `the delivery broke off: ${String(error)}` });
      await this.failWith(target.interactionId, broke).catch(() => undefined);
    }
  }

  /** Fails the interaction and logs why (the reason the timeline, the user and `wait` get). */
  private async failWith(interactionId: string, failure: Failure): Promise<void> {
    const result = await this.options.fail(interactionId, failure);
    if (result.kind === 'failed') {
      this.options.logger.info(
        { interaction_id: interactionId, reason: result.reason },
        'interaction failed',
      );
    }
  }

  /** The endpoint's 200 answer as the initial response; a response the rules refuse fails the interaction. */
  private async respondInline(target: HttpTarget, response: unknown): Promise<void> {
    const { interactionId } = target;
    try {
      await this.options.responder.respond({
        interactionId,
        body: response,
        withResponse: false,
        inline: true,
        application: target.application,
        record: target.record,
      });
    } catch (error) {
      if (!(error instanceof DiscordError)) throw error;
      if (ALREADY_DECIDED.has(error.code)) return;
      await this.failWith(
        interactionId,
        deliveryFailure({ kind: 'refused', status: error.httpStatus, body: error.toBody() }),
      );
    }
  }
}
