import type { PrimaryGuild, ProfilePrivacy } from './validate-user-update';
import type { EventWebhookType } from './event-webhook-types';
import type { IntegrationType } from './limits';
import type { ApplicationProfile } from './validate-application-body';

/** A user as the store hands it to the domain (ids as decimal strings). */
export interface UserRecord {
  id: string;
  username: string;
  globalName: string | null;
  locale: string;
  email: string | null;
  premiumType: number;
  bot: boolean;
  /** Who may see the user's custom status in guilds (the dispatcher's presence rule). */
  profilePrivacy: ProfilePrivacy;
  /** The server tag the user displays, as user objects show it; null: none. */
  primaryGuild: PrimaryGuild | null;
  /** A provisional account (Social SDK), owned by one application. */
  provisional: boolean;
}

/** An application with what its wire object shows: bot user, owner and install counts. */
export interface ApplicationRecord extends ApplicationProfile {
  id: string;
  name: string;
  flags: number;
  integrationTypes: IntegrationType[];
  redirectUris: string[];
  interactionsEndpointUrl: string | null;
  eventWebhooksUrl: string | null;
  /** The dispatcher turned the event webhooks off after repeated failures. */
  eventWebhooksDisabled: boolean;
  eventWebhooksTypes: EventWebhookType[];
  publicClient: boolean;
  verifyKey: string;
  bot: UserRecord;
  owner: UserRecord | null;
  guildInstallCount: number;
  userInstallCount: number;
}
