import type { Pool } from 'pg';
import type { PrismaClient } from '../generated/prisma/client';
import { AccountLinkStore } from './account-link-store';
import { ApplicationStore } from './application-store';
import { ConnectionStore } from './connection-store';
import { EventWebhookSettingsStore } from './event-webhook-settings-store';
import { GrantStore } from './grant-store';
import { GuildInstallationStore } from './guild-installation-store';
import { IdTokenKeyStore } from './id-token-key-store';
import { IdentityProviderStore } from './identity-provider-store';
import { InstallationStore } from './installation-store';
import { InvocationStore } from './invocation-store';
import { MonetizationStore } from './monetization-store';
import { ProvisionalAccountStore } from './provisional-account-store';
import { TokenStore } from './token-store';
import { UserStore } from './user-store';

/**
 * Every store of the service over one pool: Prisma (`prisma`, built on `pool`) for the
 * CRUD-shaped ones, `pool` directly for the hot paths and monetization. `nextId` mints
 * snowflakes (the entitlements a renewal grants).
 */
export function createStores(prisma: PrismaClient, pool: Pool, nextId: () => string) {
  return {
    applications: new ApplicationStore(prisma),
    users: new UserStore(prisma),
    tokens: new TokenStore(pool),
    installations: new InstallationStore(prisma),
    grants: new GrantStore(prisma),
    connections: new ConnectionStore(prisma),
    eventWebhookSettings: new EventWebhookSettingsStore(prisma),
    guildInstallations: new GuildInstallationStore(prisma),
    invocations: new InvocationStore(pool),
    monetization: new MonetizationStore(pool, nextId),
    provisionalAccounts: new ProvisionalAccountStore(pool),
    identityProviders: new IdentityProviderStore(pool),
    idTokenKeys: new IdTokenKeyStore(pool),
    accountLinks: new AccountLinkStore(prisma),
  };
}

/** The stores createStores builds. */
export type Stores = ReturnType<typeof createStores>;
