import type { JsonObject } from '@acs/validation';
import type { Modal } from '../messages/components/read-modal';

/** The interaction that produced a message (or opened a modal), as follow-ons inherit from it. */
export interface OriginInteraction {
  id: string;
  /** The command behind it (for a component's interaction, the first command's). */
  commandId: string | null;
  commandName: string;
  commandType: number;
  userInstallOnly: boolean;
  /** The interaction object the app received, without its token. */
  payload: JsonObject;
}

/** The message a component interaction names, as stored. */
export interface ComponentSource {
  messageId: string;
  channelId: string;
  /** Null in a DM or group DM. */
  guildId: string | null;
  applicationId: string;
  /** Set for an ephemeral message: only this user sees it (and may use it). */
  ephemeralUserId: string | null;
  /** The message object as the API answers it. */
  message: JsonObject;
  origin: OriginInteraction;
}

/** A modal an interaction opened (callback 9), as stored. */
export interface OpenModal {
  userId: string;
  applicationId: string;
  channelId: string;
  /** Null in a DM or group DM. */
  guildId: string | null;
  modal: Modal;
  /** Submitted already: a modal is submitted once. */
  submitted: boolean;
  /** The opening interaction's token lifetime is over. */
  expired: boolean;
  /** Opened from a component: the message it is on (callbacks 6 and 7 then act on it). */
  messageId: string | null;
  origin: OriginInteraction;
}
