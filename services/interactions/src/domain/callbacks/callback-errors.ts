import { DiscordError, UnknownResourceError } from '@acs/discord-errors';

/**
 * 404 / 10062: no interaction with this id and token, or its deadline passed without a
 * response (its token is invalidated: A6).
 */
export class UnknownInteractionError extends UnknownResourceError {
  constructor() {
    super(10062, 'Unknown interaction');
  }
}

/** 400 / 40060: the interaction already has its initial response. */
export class InteractionAlreadyAcknowledgedError extends DiscordError {
  constructor() {
    super(400, 40060, 'Interaction has already been acknowledged');
  }
}

/**
 * 401 / 50027: the webhook routes' token is unknown, malformed, another application's,
 * invalidated by a missed deadline, or older than its lifetime (15 minutes on Discord).
 */
export class InvalidWebhookTokenError extends DiscordError {
  constructor() {
    super(401, 50027, 'Invalid Webhook Token');
  }
}

/** 404 / 10015: the interaction has no webhook yet (no initial response), or never gets one (autocomplete). */
export class UnknownWebhookError extends UnknownResourceError {
  constructor() {
    super(10015, 'Unknown Webhook');
  }
}

/**
 * 400 / 40094: a sixth follow-up of an interaction that only the invoker's user install
 * authorizes (D §Create Followup Message; the status is not documented, 400 as for 40060).
 */
export class MaxFollowupsError extends DiscordError {
  constructor() {
    super(400, 40094, 'This interaction has hit the maximum number of follow up messages');
  }
}
