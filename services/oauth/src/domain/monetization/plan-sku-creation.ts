import { UnknownApplicationError } from '../oauth-errors';
import { SkuType } from './monetization-limits';
import { monetizationPlan, type MonetizationPlan } from './monetization-plan';
import type { NewSku } from './validate-monetization-bodies';

/**
 * A SKU of the application; a SUBSCRIPTION SKU also gets its SUBSCRIPTION_GROUP (`groupId`,
 * written first: Discord lists the group before it), as Discord creates one. No event.
 * 404 / 10002 for an unknown application.
 */
export function planSkuCreation(
  applicationExists: boolean,
  applicationId: string,
  ids: { sku: string; group: string },
  sku: NewSku,
): MonetizationPlan {
  if (!applicationExists) throw new UnknownApplicationError();
  const created = { id: ids.sku, applicationId, ...sku };
  return monetizationPlan({
    newSkus:
      sku.type === SkuType.SUBSCRIPTION
        ? [{ ...created, id: ids.group, type: SkuType.SUBSCRIPTION_GROUP }, created]
        : [created],
  });
}
