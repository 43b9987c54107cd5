import { DiscordError, NotFoundError, UnknownResourceError } from '@acs/discord-errors';

/** 404 / 10027 Unknown SKU: no such SKU, or another application's. */
export class UnknownSkuError extends UnknownResourceError {
  constructor() {
    super(10027, 'Unknown SKU');
  }
}

/** 404 / 10029 Unknown entitlement. */
export class UnknownEntitlementError extends UnknownResourceError {
  constructor() {
    super(10029, 'Unknown entitlement');
  }
}

/** 404 / 0 for an unknown subscription (Discord has no code of its own for it). */
export class UnknownSubscriptionError extends NotFoundError {}

/** 400 / 50057 Invalid SKU: a SKU that cannot be granted this way (another application's, a group). */
export class InvalidSkuError extends DiscordError {
  constructor() {
    super(400, 50057, 'Invalid SKU');
  }
}

/** 400 / 40018: consuming an entitlement of a SKU that is not CONSUMABLE. */
export class NotConsumableError extends DiscordError {
  constructor() {
    super(400, 40018, 'Only consumable SKUs can be consumed');
  }
}

/** 400 / 40019: deleting an entitlement that is not a test entitlement. */
export class NotTestEntitlementError extends DiscordError {
  constructor() {
    super(400, 40019, 'You can only delete sandbox entitlements.');
  }
}

/** 400 / 40074: the owner already holds an active entitlement to that SKU. */
export class AlreadyGrantedError extends DiscordError {
  constructor() {
    super(400, 40074, 'An entitlement has already been granted for this resource');
  }
}
