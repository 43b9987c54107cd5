/* eslint-disable @typescript-eslint/no-explicit-any -- Discord's objects keep every field the server sends */

/** A message as its viewer sees it (D:resources/message.mdx §Message Object); every field ACS sends is there. */
export interface DiscordMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: any[];
  components: any[];
  flags: number;
  attachments: any[];
  author?: { id: string; username: string; [key: string]: any };
  application_id?: string;
  interaction_metadata?: { id: string; [key: string]: any };
  [key: string]: any;
}

/** A modal the app opened (callback type 9): what `submitModal` needs. */
export interface OpenedModal {
  /** The interaction that opened it (a modal submit names it as `data.id`). */
  id: string;
  custom_id: string;
  title: string;
  components: any[];
  channel_id: string;
  application_id: string;
}

/** An autocomplete choice. */
export interface Choice {
  name: string;
  value: string | number;
  [key: string]: any;
}

/**
 * What one interaction came to, once the app gave its final answer (a deferred reply
 * filled in included) and nothing more came for the quiet period.
 */
export interface InteractionResult {
  /** Acknowledged, and nothing went wrong: no refusal, no failure, no deferred reply left unfilled. */
  ok: boolean;
  /** The app answered the interaction in time (INTERACTION_SUCCESS). */
  acknowledged: boolean;
  /** The app deferred (callback type 5, or 6 for a component's message). */
  deferred: boolean;
  /** The response is only visible to the user (EPHEMERAL). */
  ephemeral: boolean;
  /**
   * The message the interaction answered with, as the user sees it at the end: the
   * original response (its final edit), or for an update of a component's message
   * (callback 6 or 7) that message as edited. Null when there is none.
   */
  response: DiscordMessage | null;
  /** Follow-up messages, oldest first, each in its last version. */
  followups: DiscordMessage[];
  /** The modal the app opened (callback 9), for `submitModal`. */
  modal: OpenedModal | null;
  /** The choices an autocomplete answered (callback 8). */
  choices: Choice[] | null;
  /**
   * Why the interaction failed or was refused, in words with the codes; null when ok. A
   * failure's first line is the server's exact reason (as the admin timeline and the
   * user's INTERACTION_FAILURE say it: `the interactions endpoint answered 500`, `the app
   * did not answer within 3 s; its callback was refused: 400 50035 …`).
   */
  error: string | null;
  /** The interaction as the app received it (no token); null when ACS refused it. */
  interaction: Record<string, any> | null;
}

/**
 * One interaction as the server's timeline has it (`GET /admin/applications/{id}/
 * interactions`, docs/admin-api.md): the payload the app got, how it was delivered, its
 * outcome or exact failure reason, refused callbacks, follow-ups, edits and timings.
 */
export interface TimelineEntry {
  id: string;
  type: number;
  data: { name: string; custom_id?: string };
  user_id: string;
  guild_id: string | null;
  channel_id: string;
  created_at: string;
  payload: Record<string, any>;
  delivery: { kind: 'gateway' | 'endpoint' | 'activity'; [key: string]: any };
  state: 'pending' | 'answered' | 'failed';
  outcome: Record<string, any> | null;
  /** Why it failed; null unless it did. */
  reason: string | null;
  refusals: { at: string; status: number; body: any }[];
  followups: Record<string, any>[];
  edits: Record<string, any>[];
  windows: { initial: 'open' | 'closed'; token: 'valid' | 'expired' };
  timings: { received_at: string; delivered_ms: number | null; answered_ms: number | null };
  [key: string]: any;
}

/** How long the kit waits for answers. */
export interface Timing {
  /**
   * After the final answer, how long nothing new (follow-up, edit) must arrive before the
   * interaction counts as settled (ms, default 500).
   */
  quietMs?: number;
  /** How long a deferred reply may take to be filled in, and an update to arrive (ms, default 10000). */
  finalTimeoutMs?: number;
}

/** Where an interaction happens: a channel of the world by name, its object, or an id. */
export type ChannelRef = string | { id: string };

/** A user of the world, by name, its object, or an id. */
export type UserRef = string | { id: string };
