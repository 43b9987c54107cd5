import type { EntitlementQuery, SubscriptionQuery } from '../domain/monetization/read-monetization-queries';
import {
  AlreadyGrantedError,
  InvalidSkuError,
  NotConsumableError,
  NotTestEntitlementError,
  UnknownEntitlementError,
  UnknownSkuError,
  UnknownSubscriptionError,
} from '../domain/monetization/monetization-errors';
import {
  EntitlementType,
  SkuFlag,
  SkuType,
  SubscriptionStatus,
} from '../domain/monetization/monetization-limits';
import type {
  EntitlementRecord,
  SkuRecord,
  SubscriptionRecord,
} from '../domain/monetization/monetization-records';
import {
  addOnePeriod,
  planSubscriptionChange,
  type SubscriptionChange,
} from '../domain/monetization/plan-subscription-change';
import { renderEntitlement, renderSubscription } from '../domain/monetization/render-monetization';
import type { GrantRequest, NewSku } from '../domain/monetization/validate-monetization-bodies';
import { UnknownApplicationError, UnknownUserError } from '../domain/oauth-errors';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { writeOutboxEvent } from './write-outbox-event';

type Tx = Prisma.TransactionClient;
type SkuRow = { id: bigint; applicationId: bigint; type: number; name: string; slug: string; flags: number };
type EntitlementRow = {
  id: bigint;
  applicationId: bigint;
  skuId: bigint;
  userId: bigint | null;
  guildId: bigint | null;
  type: number;
  deleted: boolean;
  consumed: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  subscriptionId: bigint | null;
};
type SubscriptionRow = {
  id: bigint;
  applicationId: bigint;
  userId: bigint;
  skuIds: bigint[];
  renewalSkuIds: Prisma.JsonValue;
  status: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  canceledAt: Date | null;
  entitlements: { id: bigint }[];
};

const toSku = (row: SkuRow): SkuRecord => ({
  id: row.id.toString(),
  applicationId: row.applicationId.toString(),
  type: row.type,
  name: row.name,
  slug: row.slug,
  flags: row.flags,
});

const toEntitlement = (row: EntitlementRow): EntitlementRecord => ({
  id: row.id.toString(),
  applicationId: row.applicationId.toString(),
  skuId: row.skuId.toString(),
  userId: row.userId?.toString() ?? null,
  guildId: row.guildId?.toString() ?? null,
  type: row.type,
  deleted: row.deleted,
  consumed: row.consumed,
  startsAt: row.startsAt,
  endsAt: row.endsAt,
  subscriptionId: row.subscriptionId?.toString() ?? null,
});

const toSubscription = (row: SubscriptionRow): SubscriptionRecord => ({
  id: row.id.toString(),
  applicationId: row.applicationId.toString(),
  userId: row.userId.toString(),
  skuIds: row.skuIds.map(String),
  entitlementIds: row.entitlements.map((e) => e.id.toString()),
  renewalSkuIds: Array.isArray(row.renewalSkuIds) ? row.renewalSkuIds.map(String) : null,
  status: row.status as SubscriptionRecord['status'],
  currentPeriodStart: row.currentPeriodStart,
  currentPeriodEnd: row.currentPeriodEnd,
  canceledAt: row.canceledAt,
});

/** The entitlement ids of a subscription, oldest first. */
const WITH_ENTITLEMENT_IDS = { entitlements: { select: { id: true }, orderBy: { id: 'asc' as const } } };

/**
 * The id window and order of a page: ids below `before` and above `after`; like messages,
 * `after` alone pages forwards from the oldest, anything else is newest first.
 */
function pageOf(query: { before: string | null; after: string | null }) {
  const id: Prisma.BigIntFilter = {};
  if (query.before !== null) id.lt = BigInt(query.before);
  if (query.after !== null) id.gt = BigInt(query.after);
  const forwards = query.after !== null && query.before === null;
  return {
    id: query.before !== null || query.after !== null ? id : undefined,
    orderBy: { id: forwards ? ('asc' as const) : ('desc' as const) },
  };
}

/** A new entitlement: who gets which SKU, how, and since when. */
interface NewEntitlement {
  id: string;
  grant: GrantRequest;
  type: number;
  startsAt: Date | null;
  subscriptionId: string | null;
}

/**
 * SKUs, entitlements and subscriptions (the oauth service owns them: they tie
 * applications to users). Every change writes its ENTITLEMENT_* / SUBSCRIPTION_* events
 * to the outbox in its transaction.
 */
export class MonetizationStore {
  /** `snowflakes` mints the ids of the entitlements a renewal onto other SKUs grants. */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly snowflakes: () => string,
  ) {}

  /** The application's SKUs, oldest first. */
  async listSkus(applicationId: bigint): Promise<SkuRecord[]> {
    const rows = await this.prisma.sku.findMany({ where: { applicationId }, orderBy: { id: 'asc' } });
    return rows.map(toSku);
  }

  /**
   * Creates a SKU of the application; a SUBSCRIPTION SKU also gets its SUBSCRIPTION_GROUP
   * (`groupId`), as Discord creates one. 404 / 10002 for an unknown application.
   */
  async createSku(applicationId: bigint, id: string, groupId: string, sku: NewSku): Promise<SkuRecord> {
    return this.prisma.$transaction(async (tx) => {
      const app = await tx.application.findUnique({ where: { id: applicationId }, select: { id: true } });
      if (!app) throw new UnknownApplicationError();
      if (sku.type === SkuType.SUBSCRIPTION) {
        await tx.sku.create({
          data: { id: BigInt(groupId), applicationId, ...sku, type: SkuType.SUBSCRIPTION_GROUP },
        });
      }
      return toSku(await tx.sku.create({ data: { id: BigInt(id), applicationId, ...sku } }));
    });
  }

  /** The entitlements of the application matching the query, newest first (oldest first with `after`). */
  async listEntitlements(
    applicationId: bigint,
    query: EntitlementQuery,
    now: Date,
  ): Promise<EntitlementRecord[]> {
    const where: Prisma.EntitlementWhereInput = { applicationId };
    if (query.userId !== null) where.userId = BigInt(query.userId);
    if (query.guildId !== null) where.guildId = BigInt(query.guildId);
    if (query.skuIds !== null) where.skuId = { in: query.skuIds.map(BigInt) };
    if (query.excludeDeleted) where.deleted = false;
    if (query.excludeEnded) where.OR = [{ endsAt: null }, { endsAt: { gt: now } }];
    const page = pageOf(query);
    if (page.id) where.id = page.id;
    const rows = await this.prisma.entitlement.findMany({ where, orderBy: page.orderBy, take: query.limit });
    return rows.map(toEntitlement);
  }

  /** The application's entitlement (of `userId` when set); 404 / 10029 otherwise. */
  async getEntitlement(applicationId: bigint, id: bigint, userId: bigint | null): Promise<EntitlementRecord> {
    const row = await this.prisma.entitlement.findUnique({ where: { id } });
    if (!row || row.applicationId !== applicationId || (userId !== null && row.userId !== userId)) {
      throw new UnknownEntitlementError();
    }
    return toEntitlement(row);
  }

  /** Marks a CONSUMABLE SKU's entitlement consumed (again: no change); 400 / 40018 for other SKUs. */
  async consume(applicationId: bigint, id: bigint, userId: bigint | null): Promise<void> {
    const entitlement = await this.getEntitlement(applicationId, id, userId);
    const sku = await this.prisma.sku.findUnique({ where: { id: BigInt(entitlement.skuId) } });
    if (sku?.type !== SkuType.CONSUMABLE) throw new NotConsumableError();
    await this.prisma.entitlement.update({ where: { id }, data: { consumed: true } });
  }

  /**
   * Grants a durable or consumable SKU (a purchase, type PURCHASE) or any of the
   * application's SKUs but a group (a test entitlement, TEST_MODE_PURCHASE, no start):
   * 404 / 10027 for an unknown SKU, 400 / 50057 for another application's (when
   * `applicationId` is set), a group, or a subscription SKU bought outright, 404 / 10013
   * for an unknown user, 400 / 40074 when the owner holds an active entitlement to it.
   */
  async grant(
    applicationId: bigint | null,
    entitlement: Omit<NewEntitlement, 'subscriptionId'>,
    now: Date,
  ): Promise<EntitlementRecord> {
    return this.prisma.$transaction(async (tx) => {
      const sku = await this.lockSku(tx, BigInt(entitlement.grant.skuId));
      const isTest = entitlement.type === EntitlementType.TEST_MODE_PURCHASE;
      if (
        (applicationId !== null && sku.applicationId !== applicationId) ||
        sku.type === SkuType.SUBSCRIPTION_GROUP ||
        (!isTest && sku.type === SkuType.SUBSCRIPTION)
      ) {
        throw new InvalidSkuError();
      }
      await this.assertUser(tx, entitlement.grant.owner.userId);
      return this.insertEntitlement(tx, sku, { ...entitlement, subscriptionId: null }, now);
    });
  }

  /** Refunds an entitlement: deleted, ENTITLEMENT_DELETE; its subscription becomes INACTIVE. 404 / 10029. */
  async refund(id: bigint): Promise<EntitlementRecord> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.entitlement.findUnique({ where: { id } });
      if (!row || row.deleted) throw new UnknownEntitlementError();
      const entitlement = await this.deleteEntitlement(tx, id);
      if (row.subscriptionId !== null) {
        const subscription = await tx.subscription.update({
          where: { id: row.subscriptionId },
          data: { status: SubscriptionStatus.INACTIVE },
          include: WITH_ENTITLEMENT_IDS,
        });
        await this.announceSubscription(tx, 'subscription.updated', toSubscription(subscription));
      }
      return entitlement;
    });
  }

  /** Deletes a test entitlement (ENTITLEMENT_DELETE); 400 / 40019 for any other, 404 / 10029. */
  async deleteTestEntitlement(applicationId: bigint, id: bigint, userId: bigint | null): Promise<void> {
    const entitlement = await this.getEntitlement(applicationId, id, userId);
    if (entitlement.deleted) throw new UnknownEntitlementError();
    if (entitlement.type !== EntitlementType.TEST_MODE_PURCHASE) throw new NotTestEntitlementError();
    await this.prisma.$transaction((tx) => this.deleteEntitlement(tx, id));
  }

  /**
   * Starts a subscription of a user to a SUBSCRIPTION SKU: the subscription (ACTIVE, one
   * month from now) and its entitlement (PURCHASE, `ends_at` null, as since Oct 2024),
   * SUBSCRIPTION_CREATE then ENTITLEMENT_CREATE. 50057 for another kind of SKU or a guild
   * that a user subscription names (or none for a guild subscription), 40074 when the
   * user's subscription to it is not over.
   */
  async createSubscription(
    ids: { subscription: string; entitlement: string },
    grant: GrantRequest,
    now: Date,
  ): Promise<SubscriptionRecord> {
    return this.prisma.$transaction(async (tx) => {
      const sku = await this.lockSku(tx, BigInt(grant.skuId));
      const isGuildSku = (sku.flags & SkuFlag.GUILD_SUBSCRIPTION) !== 0;
      if (sku.type !== SkuType.SUBSCRIPTION || isGuildSku !== (grant.owner.guildId !== null)) {
        throw new InvalidSkuError();
      }
      const userId = BigInt(grant.owner.userId ?? '0');
      await this.assertUser(tx, grant.owner.userId);
      const current = await tx.subscription.findFirst({
        where: { userId, skuIds: { has: sku.id }, status: { not: SubscriptionStatus.INACTIVE } },
      });
      if (current) throw new AlreadyGrantedError();
      const created = await tx.subscription.create({
        data: {
          id: BigInt(ids.subscription),
          applicationId: sku.applicationId,
          userId,
          skuIds: [sku.id],
          status: SubscriptionStatus.ACTIVE,
          currentPeriodStart: now,
          currentPeriodEnd: addOnePeriod(now),
        },
      });
      const subscription = toSubscription({ ...created, entitlements: [{ id: BigInt(ids.entitlement) }] });
      await this.announceSubscription(tx, 'subscription.created', subscription);
      await this.insertEntitlement(
        tx,
        sku,
        {
          id: ids.entitlement,
          grant,
          type: EntitlementType.PURCHASE,
          startsAt: now,
          subscriptionId: ids.subscription,
        },
        now,
      );
      return subscription;
    });
  }

  /**
   * Renews, cancels or ends a subscription (planSubscriptionChange): SUBSCRIPTION_UPDATE,
   * and at its end ENTITLEMENT_UPDATE for each entitlement, which gets `ends_at`.
   */
  async changeSubscription(id: bigint, change: SubscriptionChange, now: Date): Promise<SubscriptionRecord> {
    return this.prisma.$transaction(async (tx) => {
      const current = await this.lockSubscription(tx, id);
      const plan = planSubscriptionChange(current, change, now);
      if (plan.endEntitlementsAt !== null) {
        const live = await tx.entitlement.findMany({
          where: { subscriptionId: id, deleted: false, endsAt: null },
          orderBy: { id: 'asc' },
        });
        for (const row of live) {
          const ended = await tx.entitlement.update({
            where: { id: row.id },
            data: { endsAt: plan.endEntitlementsAt },
          });
          await this.announceEntitlement(tx, 'entitlement.updated', toEntitlement(ended));
        }
      }
      if (plan.swap) await this.swapEntitlements(tx, id, plan.swap, now);
      const { status, currentPeriodStart, currentPeriodEnd, canceledAt, skuIds, renewalSkuIds } =
        plan.subscription;
      const updated = await tx.subscription.update({
        where: { id },
        data: {
          status,
          currentPeriodStart,
          currentPeriodEnd,
          canceledAt,
          skuIds: skuIds.map(BigInt),
          renewalSkuIds: renewalSkuIds ?? Prisma.DbNull,
        },
        include: WITH_ENTITLEMENT_IDS,
      });
      const subscription = toSubscription(updated);
      await this.announceSubscription(tx, 'subscription.updated', subscription);
      return subscription;
    });
  }

  /**
   * A renewal onto other SKUs: the entitlements of the SKUs left end with the old period
   * (ENTITLEMENT_UPDATE), the new SKUs get entitlements from then on, for the same owner
   * (ENTITLEMENT_CREATE).
   */
  private async swapEntitlements(
    tx: Tx,
    subscriptionId: bigint,
    swap: { ended: string[]; added: string[]; at: Date },
    now: Date,
  ): Promise<void> {
    const live = await tx.entitlement.findMany({
      where: { subscriptionId, deleted: false, endsAt: null },
      orderBy: { id: 'asc' },
    });
    const owner =
      live[0] ?? (await tx.entitlement.findFirst({ where: { subscriptionId }, orderBy: { id: 'desc' } }));
    for (const row of live.filter((e) => swap.ended.includes(e.skuId.toString()))) {
      const ended = await tx.entitlement.update({ where: { id: row.id }, data: { endsAt: swap.at } });
      await this.announceEntitlement(tx, 'entitlement.updated', toEntitlement(ended));
    }
    for (const skuId of swap.added) {
      const sku = await this.lockSku(tx, BigInt(skuId));
      const grant = {
        skuId,
        owner: { userId: owner?.userId?.toString() ?? null, guildId: owner?.guildId?.toString() ?? null },
      };
      const id = this.snowflakes();
      await this.insertEntitlement(
        tx,
        sku,
        {
          id,
          grant,
          type: EntitlementType.PURCHASE,
          startsAt: swap.at,
          subscriptionId: subscriptionId.toString(),
        },
        now,
      );
    }
  }

  /** Sets the SKUs the subscription will have at renewal (null: unchanged); SUBSCRIPTION_UPDATE. */
  async setRenewalSkus(id: bigint, renewalSkuIds: string[] | null): Promise<SubscriptionRecord> {
    return this.prisma.$transaction(async (tx) => {
      const current = await this.lockSubscription(tx, id);
      if (renewalSkuIds !== null) {
        const skus = await tx.sku.findMany({ where: { id: { in: renewalSkuIds.map(BigInt) } } });
        const valid = skus.filter(
          (s) => s.type === SkuType.SUBSCRIPTION && s.applicationId === BigInt(current.applicationId),
        );
        if (valid.length !== renewalSkuIds.length) throw new InvalidSkuError();
      }
      const updated = await tx.subscription.update({
        where: { id },
        data: { renewalSkuIds: renewalSkuIds ?? Prisma.DbNull },
        include: WITH_ENTITLEMENT_IDS,
      });
      const subscription = toSubscription(updated);
      await this.announceSubscription(tx, 'subscription.updated', subscription);
      return subscription;
    });
  }

  /**
   * The subscriptions holding the application's SKU `skuId` (404 / 10027 for another's),
   * of `query.userId` (or of `userId`, a Bearer caller's, which `query.userId` must then
   * equal), newest first (oldest first with `after` alone).
   */
  async listSubscriptions(
    applicationId: bigint,
    skuId: bigint,
    query: SubscriptionQuery,
    userId: bigint | null,
  ): Promise<SubscriptionRecord[]> {
    await this.getOwnSku(applicationId, skuId);
    const forUser = userId ?? (query.userId !== null ? BigInt(query.userId) : null);
    if (userId !== null && query.userId !== null && BigInt(query.userId) !== userId) return [];
    const where: Prisma.SubscriptionWhereInput = { applicationId, skuIds: { has: skuId } };
    if (forUser !== null) where.userId = forUser;
    const page = pageOf(query);
    if (page.id) where.id = page.id;
    const rows = await this.prisma.subscription.findMany({
      where,
      orderBy: page.orderBy,
      take: query.limit,
      include: WITH_ENTITLEMENT_IDS,
    });
    return rows.map(toSubscription);
  }

  /** One subscription holding the application's SKU (of `userId` when set); 10027 for the SKU, 404 otherwise. */
  async getSubscription(
    applicationId: bigint,
    skuId: bigint,
    id: bigint,
    userId: bigint | null,
  ): Promise<SubscriptionRecord> {
    await this.getOwnSku(applicationId, skuId);
    const row = await this.prisma.subscription.findUnique({ where: { id }, include: WITH_ENTITLEMENT_IDS });
    if (!row || !row.skuIds.includes(skuId) || (userId !== null && row.userId !== userId)) {
      throw new UnknownSubscriptionError();
    }
    return toSubscription(row);
  }

  /** The application's SKU; 404 / 10027 for an unknown one or another application's. */
  private async getOwnSku(applicationId: bigint, skuId: bigint): Promise<SkuRecord> {
    const sku = await this.prisma.sku.findUnique({ where: { id: skuId } });
    if (!sku || sku.applicationId !== applicationId) throw new UnknownSkuError();
    return toSku(sku);
  }

  /** The SKU, its row locked: grants of one SKU run one at a time, so 40074 holds under races. 10027. */
  private async lockSku(tx: Tx, id: bigint): Promise<SkuRow> {
    const rows = await tx.$queryRaw<
      { id: bigint }[]
    >`SELECT id FROM "oauth"."sku" WHERE id = ${id} FOR UPDATE`;
    const sku = rows.length > 0 ? await tx.sku.findUnique({ where: { id } }) : null;
    if (!sku) throw new UnknownSkuError();
    return sku;
  }

  /** The subscription, its row locked; 404 when unknown. */
  private async lockSubscription(tx: Tx, id: bigint): Promise<Omit<SubscriptionRecord, 'entitlementIds'>> {
    const rows = await tx.$queryRaw<
      { id: bigint }[]
    >`SELECT id FROM "oauth"."subscription" WHERE id = ${id} FOR UPDATE`;
    const row = rows.length > 0 ? await tx.subscription.findUnique({ where: { id } }) : null;
    if (!row) throw new UnknownSubscriptionError();
    return toSubscription({ ...row, entitlements: [] });
  }

  /** 404 / 10013 unless `userId` (when set) names a user who is no bot. */
  private async assertUser(tx: Tx, userId: string | null): Promise<void> {
    if (userId === null) return;
    const user = await tx.user.findUnique({ where: { id: BigInt(userId) }, select: { bot: true } });
    if (!user || user.bot) throw new UnknownUserError();
  }

  /** Inserts an entitlement after the 40074 check (the SKU row is locked); ENTITLEMENT_CREATE. */
  private async insertEntitlement(
    tx: Tx,
    sku: SkuRow,
    entitlement: NewEntitlement,
    now: Date,
  ): Promise<EntitlementRecord> {
    const { owner } = entitlement.grant;
    const held = await tx.entitlement.findFirst({
      where: {
        skuId: sku.id,
        deleted: false,
        consumed: false,
        OR: [{ endsAt: null }, { endsAt: { gt: now } }],
        ...(owner.guildId !== null
          ? { guildId: BigInt(owner.guildId) }
          : { guildId: null, userId: BigInt(owner.userId ?? '0') }),
      },
      select: { id: true },
    });
    if (held) throw new AlreadyGrantedError();
    const row = await tx.entitlement.create({
      data: {
        id: BigInt(entitlement.id),
        applicationId: sku.applicationId,
        skuId: sku.id,
        userId: owner.userId === null ? null : BigInt(owner.userId),
        guildId: owner.guildId === null ? null : BigInt(owner.guildId),
        type: entitlement.type,
        startsAt: entitlement.startsAt,
        subscriptionId: entitlement.subscriptionId === null ? null : BigInt(entitlement.subscriptionId),
      },
    });
    const created = toEntitlement(row);
    await this.announceEntitlement(tx, 'entitlement.created', created);
    return created;
  }

  /** Marks an entitlement deleted; ENTITLEMENT_DELETE. */
  private async deleteEntitlement(tx: Tx, id: bigint): Promise<EntitlementRecord> {
    const deleted = toEntitlement(await tx.entitlement.update({ where: { id }, data: { deleted: true } }));
    await this.announceEntitlement(tx, 'entitlement.deleted', deleted);
    return deleted;
  }

  private announceEntitlement(
    tx: Tx,
    type: 'entitlement.created' | 'entitlement.updated' | 'entitlement.deleted',
    entitlement: EntitlementRecord,
  ): Promise<void> {
    return writeOutboxEvent(tx, type, {
      application_id: entitlement.applicationId,
      entitlement: renderEntitlement(entitlement),
    });
  }

  private announceSubscription(
    tx: Tx,
    type: 'subscription.created' | 'subscription.updated',
    subscription: SubscriptionRecord,
  ): Promise<void> {
    return writeOutboxEvent(tx, type, {
      application_id: subscription.applicationId,
      subscription: renderSubscription(subscription),
    });
  }
}
