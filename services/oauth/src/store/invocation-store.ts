import type { Pool } from 'pg';
import type { EventWebhookType } from '../domain/event-webhook-types';
import type { InvocationFacts, InvocationQuery } from '../domain/invocation-facts';
import type { IntegrationType } from '../domain/limits';
import type { EntitlementRecord } from '../domain/monetization/monetization-records';
import { UnknownApplicationError, UnknownUserError } from '../domain/oauth-errors';
import type { InstallParams, IntegrationTypesConfig } from '../domain/read-install-params';
import type { ApplicationRecord, UserRecord } from '../domain/records';
import { readProfilePrivacy, type PrimaryGuild } from '../domain/validate-user-update';

// DescribeInvocation runs once or twice for every interaction, so its reads are one
// statement on `pg` (a named prepared statement) rather than Prisma's two queries, whose
// query compiler and result mapping cost more CPU than the database. Measured with
// bench/interactions-bench.js (about 2,200 invocations): with Prisma, oauth spent 41 s of
// CPU, 20 s of it in Prisma's query compiler and client, about 17 ms per invocation; with
// this statement about 3.5 ms.

// $1 the application, $2 the guild (null outside a guild), $3 the invoking user, $4 every
// user to read (the invoker first). The invoker's active entitlements (isEntitlementActive:
// not deleted, not consumed, started, not ended) are the user's own and the guild's. No row when the application is unknown. The guild
// install's scopes are null when the application is not installed there (the column is
// never null). `entitlements_change_at` is when the next of those entitlements starts or
// ends (null: none will): the active set changes then without an event. The counts are those GetApplication shows. Users are JSON objects with their
// ids as text: a JSON number would lose a snowflake's low digits.
const DESCRIBE_INVOCATION_SQL = `
  SELECT a.id::text AS id, a.name, a.flags::text AS flags, a.integration_types, a.redirect_uris,
         a.interactions_endpoint_url, a.event_webhooks_url,
         a.event_webhooks_disabled_at IS NOT NULL AS event_webhooks_disabled,
         a.event_webhooks_types, a.event_webhooks_enabled, a.public_client, a.verify_key,
         a.signing_key, a.description, a.icon_hash, a.cover_image_hash,
         a.role_connections_verification_url, a.custom_install_url, a.install_params,
         a.integration_install_params, a.tags,
         (SELECT json_build_object(
                   'id', b.id::text, 'username', b.username, 'global_name', b.global_name,
                   'locale', b.locale, 'email', b.email, 'premium_type', b.premium_type, 'primary_guild', b.primary_guild,
                   'profile_privacy', b.profile_privacy, 'provisional', b.provisional_application_id IS NOT NULL,
                   'bot', b.bot) FROM "oauth"."user" b WHERE b.id = a.id) AS bot,
         (SELECT json_build_object(
                   'id', o.id::text, 'username', o.username, 'global_name', o.global_name,
                   'locale', o.locale, 'email', o.email, 'premium_type', o.premium_type, 'primary_guild', o.primary_guild,
                   'profile_privacy', o.profile_privacy, 'provisional', o.provisional_application_id IS NOT NULL,
                   'bot', o.bot) FROM "oauth"."user" o WHERE o.id = a.owner_id) AS owner,
         (SELECT count(*)::int FROM "oauth"."guild_installation" g WHERE g.application_id = a.id)
           AS guild_install_count,
         (SELECT count(*)::int FROM "oauth"."user_installation" i WHERE i.application_id = a.id)
           AS user_install_count,
         (SELECT g.scopes FROM "oauth"."guild_installation" g
           WHERE g.application_id = a.id AND g.guild_id = $2::bigint) AS guild_scopes,
         EXISTS (SELECT 1 FROM "oauth"."user_installation" i
                  WHERE i.application_id = a.id AND i.user_id = $3::bigint) AS user_installed,
         (SELECT coalesce(json_agg(json_build_object(
                   'id', u.id::text, 'username', u.username, 'global_name', u.global_name,
                   'locale', u.locale, 'email', u.email, 'premium_type', u.premium_type, 'primary_guild', u.primary_guild,
                   'profile_privacy', u.profile_privacy, 'provisional', u.provisional_application_id IS NOT NULL,
                   'bot', u.bot)), '[]'::json) FROM "oauth"."user" u
           WHERE u.id = ANY($4::bigint[])) AS users,
         (SELECT coalesce(json_agg(json_build_object(
                   'id', e.id::text, 'sku_id', e.sku_id::text, 'user_id', e.user_id::text,
                   'guild_id', e.guild_id::text, 'type', e.type, 'starts_at', e.starts_at,
                   'ends_at', e.ends_at, 'subscription_id', e.subscription_id::text) ORDER BY e.id),
                   '[]'::json) FROM "oauth"."entitlement" e
           WHERE e.application_id = a.id AND NOT e.deleted AND NOT e.consumed
             AND (e.starts_at IS NULL OR e.starts_at <= now()) AND (e.ends_at IS NULL OR e.ends_at > now())
             AND ((e.user_id = $3::bigint AND e.guild_id IS NULL) OR e.guild_id = $2::bigint)) AS entitlements,
         (SELECT min(t) FROM "oauth"."entitlement" e,
                 LATERAL (VALUES (e.starts_at), (e.ends_at)) AS boundary(t)
           WHERE e.application_id = a.id AND NOT e.deleted AND NOT e.consumed AND t > now()
             AND ((e.user_id = $3::bigint AND e.guild_id IS NULL) OR e.guild_id = $2::bigint))
           AS entitlements_change_at
    FROM "oauth"."application" a
   WHERE a.id = $1::bigint`;

/** A user as the statement's `json_build_object` has it. */
interface UserJson {
  id: string;
  username: string;
  global_name: string | null;
  locale: string;
  email: string | null;
  premium_type: number;
  primary_guild: PrimaryGuild | null;
  profile_privacy: string;
  provisional: boolean;
  bot: boolean;
}

/** The row of DESCRIBE_INVOCATION_SQL. */
interface InvocationRow {
  id: string;
  name: string;
  flags: string;
  integration_types: number[];
  redirect_uris: string[];
  interactions_endpoint_url: string | null;
  event_webhooks_url: string | null;
  event_webhooks_disabled: boolean;
  event_webhooks_types: string[];
  event_webhooks_enabled: boolean;
  public_client: boolean;
  verify_key: string;
  signing_key: string;
  description: string;
  icon_hash: string | null;
  cover_image_hash: string | null;
  role_connections_verification_url: string | null;
  custom_install_url: string | null;
  install_params: unknown;
  integration_install_params: unknown;
  tags: string[];
  bot: UserJson;
  owner: UserJson | null;
  guild_install_count: number;
  user_install_count: number;
  guild_scopes: string[] | null;
  user_installed: boolean;
  users: UserJson[];
  entitlements: EntitlementJson[];
  entitlements_change_at: Date | null;
}

/** An active entitlement as the statement's `json_build_object` has it (timestamps as JSON text). */
interface EntitlementJson {
  id: string;
  sku_id: string;
  user_id: string | null;
  guild_id: string | null;
  type: number;
  starts_at: string | null;
  ends_at: string | null;
  subscription_id: string | null;
}

/** Reads what an invocation needs of the application, its installations and the users involved. */
export class InvocationStore {
  constructor(private readonly pool: Pool) {}

  /**
   * The facts of one invocation in one statement: the application with its bot user,
   * owner, install counts, its installation in the guild and the invoking user's install,
   * and every user involved (the invoker and those to resolve). 404 / 10002 when the
   * application is unknown, then 404 / 10013 when the invoking user is.
   */
  async describe(query: InvocationQuery): Promise<InvocationFacts> {
    const { rows } = await this.pool.query<InvocationRow>({
      name: 'oauth-describe-invocation',
      text: DESCRIBE_INVOCATION_SQL,
      values: [
        query.applicationId.toString(),
        query.guildId?.toString() ?? null,
        query.userId.toString(),
        [query.userId, ...query.resolveUserIds].map(String),
      ],
    });
    const row = rows[0];
    if (!row) throw new UnknownApplicationError();
    const byId = new Map(row.users.map((user) => [user.id, toUserRecord(user)]));
    const user = byId.get(query.userId.toString());
    if (!user) throw new UnknownUserError();
    return {
      application: toApplicationRecord(row),
      signingKeyPem: row.signing_key,
      user,
      guildScopes: row.guild_scopes,
      userInstalled: row.user_installed,
      resolvedUsers: query.resolveUserIds.flatMap((id) => byId.get(id.toString()) ?? []),
      entitlements: row.entitlements.map((e) => toEntitlementRecord(row.id, e)),
      entitlementsChangeAt: row.entitlements_change_at,
    };
  }
}

/** The application of the row as the domain sees it (as `to-application-record` maps Prisma's). */
function toApplicationRecord(row: InvocationRow): ApplicationRecord {
  return {
    id: row.id,
    name: row.name,
    flags: Number(row.flags),
    integrationTypes: row.integration_types as IntegrationType[],
    redirectUris: row.redirect_uris,
    interactionsEndpointUrl: row.interactions_endpoint_url,
    eventWebhooksUrl: row.event_webhooks_url,
    eventWebhooksDisabled: row.event_webhooks_disabled,
    eventWebhooksTypes: row.event_webhooks_types as EventWebhookType[],
    publicClient: row.public_client,
    verifyKey: row.verify_key,
    bot: toUserRecord(row.bot),
    owner: row.owner ? toUserRecord(row.owner) : null,
    description: row.description,
    iconHash: row.icon_hash,
    coverImageHash: row.cover_image_hash,
    roleConnectionsVerificationUrl: row.role_connections_verification_url,
    customInstallUrl: row.custom_install_url,
    installParams: (row.install_params as InstallParams | null) ?? null,
    integrationInstallParams:
      (row.integration_install_params as IntegrationTypesConfig['installParams'] | null) ?? {},
    tags: row.tags,
    eventWebhooksEnabled: row.event_webhooks_enabled,
    guildInstallCount: row.guild_install_count,
    userInstallCount: row.user_install_count,
  };
}

/** An active entitlement of the row as the domain sees it. */
function toEntitlementRecord(applicationId: string, e: EntitlementJson): EntitlementRecord {
  return {
    id: e.id,
    applicationId,
    skuId: e.sku_id,
    userId: e.user_id,
    guildId: e.guild_id,
    type: e.type,
    deleted: false,
    consumed: false,
    startsAt: e.starts_at === null ? null : new Date(e.starts_at),
    endsAt: e.ends_at === null ? null : new Date(e.ends_at),
    subscriptionId: e.subscription_id,
  };
}

/** A user of the row as the domain sees it. */
function toUserRecord(user: UserJson): UserRecord {
  return {
    id: user.id,
    username: user.username,
    globalName: user.global_name,
    locale: user.locale,
    email: user.email,
    premiumType: user.premium_type,
    bot: user.bot,
    profilePrivacy: readProfilePrivacy(user.profile_privacy),
    primaryGuild: user.primary_guild,
    provisional: user.provisional,
  };
}
