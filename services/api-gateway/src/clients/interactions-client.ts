import type { interactions } from '@acs/protos';
import type { UploadedBlob } from '../domain/uploaded-blob';
import { callPeer, LONGEST_CALL_MS } from '@acs/service-kit';
import { checkServing } from './check-serving';

/**
 * The own deadline of an invocation that waits for its outcome (`?wait=true`): the
 * outcome comes within the interaction's response deadline (3 s by default, more where a
 * test raises it), and the request's budget (REQUEST_DEADLINE_MS) ends the call sooner,
 * so this only keeps callUnary's 5 s default from cutting a longer test deadline short. It
 * is the longest call service-kit allows, which a recycled connection lets finish.
 */
export const WAITING_INVOCATION_DEADLINE_MS = LONGEST_CALL_MS;

/** A user's invocation of a command, as `POST /interactions` carries it. */
export interface Invocation {
  /** The user of the session token. */
  userId: string;
  /** The body as JSON text (a multipart body's `payload_json`), checked by the service. */
  bodyJson: string;
  /** The requester's locale ('' when none is supported). */
  locale: string;
  /** ACS extension: answer with the outcome once the interaction has one. */
  wait: boolean;
  /** ACS extension (`?wait=final`): and past a deferral until the original is filled, with the follow-ups. */
  waitFinal?: boolean;
  /** With `waitFinal`: how long to wait for the filling (ms; undefined: the default, 15 s). */
  waitTimeoutMs?: number;
  /** A modal submit's files (multipart `files[n]`, named by its FILE_UPLOAD answers). */
  files?: MessageFiles;
}

/** A multipart body's files, stored by api-gateway, and where their attachments will be served. */
export interface MessageFiles {
  files: readonly UploadedBlob[];
  /** The stack's public base URL (`https://host`): the attachments' `url`. */
  baseUrl: string;
}

/** Where an attachment's bytes are. */
export interface AttachmentLocation {
  blobKey: string;
  contentType: string;
  size: number;
  /** A file of an ephemeral message or modal submit: its one viewer's, never cached by others. */
  ephemeral: boolean;
  /** When the URL's signature ends (Unix seconds). */
  expiresAt: number;
}

/** Which message of an interaction a webhook route names. */
export interface WebhookMessageRef {
  applicationId: string;
  token: string;
  /** `@original` or a message id. */
  messageId: string;
}

/**
 * What api-gateway asks of interactions: a user's invocation, the app's initial
 * response (callback), and its follow-ups and edits through the interaction token's
 * webhook routes. Answers are interactions' JSON text, passed on as is. A failure
 * interactions answers with its own error (50035 trees, 10062, 40060, 50027, 10008…)
 * rejects with that DiscordError; one in transport with 503 or 504.
 */
export interface InteractionsClient {
  /** Whether interactions reports SERVING on its health service. */
  isServing(deadlineMs: number): Promise<boolean>;
  /** Records and delivers an invocation; with `wait`, the outcome as JSON text ('' otherwise). */
  createInteraction(invocation: Invocation): Promise<string>;
  /** ACS admin: a page of an application's interaction timeline (JSON array text), newest first. */
  listInteractionTimeline(input: { applicationId: string; before: string; limit: number }): Promise<string>;
  /** ACS admin: one interaction of an application's timeline (JSON text); 404 / 10062 for another's. */
  getInteractionTimeline(applicationId: string, interactionId: string): Promise<string>;
  /** ACS admin: makes an interaction's initial window or token pass now; its timeline entry (JSON text). */
  expireInteraction(applicationId: string, interactionId: string, bodyJson: string): Promise<string>;
  /**
   * The initial response: with `withResponse`, the callback response object as JSON text
   * ('' otherwise); and the interaction's application, for the request log.
   */
  createCallback(input: {
    interactionId: string;
    token: string;
    bodyJson: string;
    withResponse: boolean;
    files?: MessageFiles;
  }): Promise<{ responseJson: string; applicationId: string }>;
  /** ACS test control: the application of the interaction a callback route names (its token checked). */
  getCallbackApplication(interactionId: string, token: string): Promise<string>;
  /** A follow-up message (or the edit of a deferred one), as JSON text. */
  createFollowup(input: {
    applicationId: string;
    token: string;
    bodyJson: string;
    files?: MessageFiles;
  }): Promise<string>;
  getWebhookMessage(message: WebhookMessageRef): Promise<string>;
  editWebhookMessage(message: WebhookMessageRef, bodyJson: string, files?: MessageFiles): Promise<string>;
  deleteWebhookMessage(message: WebhookMessageRef): Promise<void>;
  /**
   * Before a multipart body's files are read: the route's token checked as the route will
   * check it (callback: by `interactionId`; webhook routes: by `applicationId`), and the
   * interaction's upload limit in bytes.
   */
  describeUpload(input: {
    interactionId?: string;
    applicationId?: string;
    token: string;
    /** The user's modal submit: the session's user (`interactionId` the modal's, `token` empty). */
    userId?: string;
    /** A channel message's files: the channel `userId` sends them to (`token` empty). */
    channelId?: string;
  }): Promise<number>;
  /** Where an attachment's bytes are; 404 for one that is not (or no longer) there. */
  getAttachment(input: {
    channelId: string;
    attachmentId: string;
    filename: string;
    /** The URL's signature (`ex`, `is`, `hm`), as sent. */
    signature: { ex: string; is: string; hm: string };
  }): Promise<AttachmentLocation>;
  /** `POST /attachments/refresh-urls`: the body as sent; `{refreshed_urls}` as JSON text. */
  refreshAttachmentUrls(bodyJson: string): Promise<string>;
  /** Pins or unpins a message of the channel for `userId` (a bot's `applicationId` when it is one). */
  setMessagePinned(input: {
    channelId: string;
    messageId: string;
    userId: string;
    applicationId?: string;
    pinned: boolean;
  }): Promise<void>;
  /** A page of the channel's pins: `{items, has_more}` as JSON text. */
  listPinnedMessages(input: {
    channelId: string;
    userId: string;
    before: string;
    limit: number;
  }): Promise<string>;
  /** `POST /channels/{id}/messages`: the message as JSON text. */
  createChannelMessage(call: ChannelMessageCall): Promise<string>;
  /** `GET /channels/{id}/messages`: a JSON array of messages, newest first. */
  listChannelMessages(input: {
    channelId: string;
    userId: string;
    around: string;
    before: string;
    after: string;
    /** 1-100; 0 when absent. */
    limit: number;
  }): Promise<string>;
  /** `GET /guilds/{id}/messages/search`: the status (200, or 202 while not indexed) and the JSON body. */
  searchGuildMessages(input: {
    guildId: string;
    userId: string;
    applicationId?: string;
    applicationFlags?: number;
    /** The query's `[key, value]` pairs as JSON. */
    queryJson: string;
  }): Promise<{ status: number; bodyJson: string }>;
  /** `GET /channels/{id}/messages/{id}`: the message as JSON text. */
  getChannelMessage(call: ChannelMessageCall): Promise<string>;
  /** `PATCH /channels/{id}/messages/{id}`: the edited message as JSON text. */
  editChannelMessage(call: ChannelMessageCall): Promise<string>;
  /** `DELETE /channels/{id}/messages/{id}`. */
  deleteChannelMessage(call: ChannelMessageCall): Promise<void>;
  /** `POST /channels/{id}/messages/bulk-delete` (`bodyJson` `{messages}`). */
  bulkDeleteChannelMessages(call: ChannelMessageCall): Promise<void>;
  /** `POST /channels/{id}/typing`. */
  triggerTyping(call: ChannelMessageCall): Promise<void>;
  /** The AutoMod rule routes (`/guilds/{id}/auto-moderation/rules…`): a rule (or, for list, an array) as JSON text. */
  autoModRules(kind: AutoModRuleCallKind, call: AutoModRuleCall): Promise<string>;
  /** `PUT …/reactions/{emoji}/@me`. */
  addReaction(call: ReactionCall): Promise<void>;
  /** `DELETE …/reactions/{emoji}/@me` and `…/{emoji}/{user}` (`targetUserId`). */
  removeReaction(call: ReactionCall & { targetUserId: string }): Promise<void>;
  /** `DELETE …/reactions` (no `emoji`) and `…/reactions/{emoji}`. */
  removeReactions(call: ReactionCall): Promise<void>;
  /** `GET …/reactions/{emoji}`: a JSON array of users. */
  listReactionUsers(call: ReactionCall & { type?: number; after: string; limit?: number }): Promise<string>;
}

/** A reaction route's call: the message, the caller, the emoji of the path (URL-decoded). */
export interface ReactionCall {
  channelId: string;
  messageId: string;
  userId: string;
  emoji?: string;
}

/** A reaction call as the RPCs take it. */
function wireReaction(call: ReactionCall) {
  return {
    channel_id: call.channelId,
    message_id: call.messageId,
    user_id: call.userId,
    emoji: call.emoji ?? '',
  };
}

/** Which AutoMod rule RPC a route calls. */
export type AutoModRuleCallKind = 'list' | 'get' | 'create' | 'update' | 'delete';

/** An AutoMod rule route's call: the guild (and rule), the caller, the body, the audit log reason. */
export interface AutoModRuleCall {
  guildId: string;
  ruleId?: string;
  userId: string;
  bodyJson?: string;
  auditLogReason?: string;
}

/** A channel message route's call: the channel (and message), the caller, the body and its files. */
export interface ChannelMessageCall {
  channelId: string;
  messageId?: string;
  /** A bot user (its id is its application's) or a user's session. */
  userId: string;
  /** The bot's application; absent for a user. */
  applicationId?: string;
  /** The bot's application flags (what it may read, for forwards). */
  applicationFlags?: number;
  bodyJson?: string;
  files?: MessageFiles;
}

/** A channel message call as the RPCs take it. */
function wireChannelMessage(call: ChannelMessageCall) {
  return {
    channel_id: call.channelId,
    message_id: call.messageId ?? '',
    user_id: call.userId,
    application_id: call.applicationId ?? '',
    application_flags: call.applicationFlags ?? 0,
    body_json: call.bodyJson ?? '',
    ...wireFiles(call.files),
  };
}

/** Files as the RPCs take them (nothing for a body without files). */
function wireFiles(files: MessageFiles | undefined) {
  if (!files) return {};
  return {
    files: files.files.map((file) => ({
      index: file.index,
      blob_key: file.blobKey,
      filename: file.filename,
      content_type: file.contentType,
      size: file.size,
    })),
    attachment_base_url: files.baseUrl,
  };
}

/** A message reference as the webhook RPCs take it. */
function wireMessage(
  message: WebhookMessageRef,
  bodyJson = '',
  files?: MessageFiles,
): interactions.WebhookMessageRequest {
  return {
    application_id: message.applicationId,
    token: message.token,
    message_id: message.messageId,
    body_json: bodyJson,
    ...wireFiles(files),
  };
}

/** The InteractionsClient over interactions' gRPC client. */
export function createInteractionsClient(client: interactions.InteractionsServiceClient): InteractionsClient {
  return {
    isServing: (deadlineMs) => checkServing(client, deadlineMs),

    async createInteraction(invocation) {
      const answer = await callPeer(
        client,
        client.CreateInteraction,
        {
          user_id: invocation.userId,
          body_json: invocation.bodyJson,
          locale: invocation.locale,
          wait: invocation.wait,
          wait_final: invocation.waitFinal ?? false,
          wait_timeout_ms: invocation.waitTimeoutMs ?? 0,
          ...wireFiles(invocation.files),
        },
        invocation.wait || invocation.waitFinal ? WAITING_INVOCATION_DEADLINE_MS : undefined,
      );
      return answer.outcome_json;
    },

    async listInteractionTimeline(input) {
      const answer = await callPeer(client, client.ListInteractionTimeline, {
        application_id: input.applicationId,
        before: input.before,
        limit: input.limit,
      });
      return answer.timeline_json;
    },

    async getInteractionTimeline(applicationId, interactionId) {
      const answer = await callPeer(client, client.GetInteractionTimeline, {
        application_id: applicationId,
        interaction_id: interactionId,
      });
      return answer.timeline_json;
    },

    async expireInteraction(applicationId, interactionId, bodyJson) {
      const answer = await callPeer(client, client.ExpireInteraction, {
        application_id: applicationId,
        interaction_id: interactionId,
        body_json: bodyJson,
      });
      return answer.timeline_json;
    },

    async createCallback(input) {
      const answer = await callPeer(client, client.CreateCallback, {
        interaction_id: input.interactionId,
        token: input.token,
        body_json: input.bodyJson,
        with_response: input.withResponse,
        ...wireFiles(input.files),
      });
      return { responseJson: answer.response_json, applicationId: answer.application_id };
    },

    async getCallbackApplication(interactionId, token) {
      const answer = await callPeer(client, client.GetCallbackApplication, {
        interaction_id: interactionId,
        token,
      });
      return answer.application_id;
    },

    async createFollowup(input) {
      const answer = await callPeer(client, client.CreateFollowup, {
        application_id: input.applicationId,
        token: input.token,
        body_json: input.bodyJson,
        ...wireFiles(input.files),
      });
      return answer.message_json;
    },

    async getWebhookMessage(message) {
      return (await callPeer(client, client.GetWebhookMessage, wireMessage(message))).message_json;
    },

    async editWebhookMessage(message, bodyJson, files) {
      return (await callPeer(client, client.EditWebhookMessage, wireMessage(message, bodyJson, files)))
        .message_json;
    },

    async deleteWebhookMessage(message) {
      await callPeer(client, client.DeleteWebhookMessage, wireMessage(message));
    },

    async describeUpload(input) {
      const answer = await callPeer(client, client.DescribeUpload, {
        interaction_id: input.interactionId ?? '',
        application_id: input.applicationId ?? '',
        token: input.token,
        user_id: input.userId ?? '',
        channel_id: input.channelId ?? '',
      });
      return Number(answer.attachment_size_limit);
    },

    async getAttachment(input) {
      const answer = await callPeer(client, client.GetAttachment, {
        channel_id: input.channelId,
        attachment_id: input.attachmentId,
        filename: input.filename,
        ...input.signature,
      });
      return {
        blobKey: answer.blob_key,
        contentType: answer.content_type,
        size: Number(answer.size),
        ephemeral: answer.ephemeral,
        expiresAt: Number(answer.expires_at),
      };
    },

    async refreshAttachmentUrls(bodyJson) {
      const answer = await callPeer(client, client.RefreshAttachmentUrls, { body_json: bodyJson });
      return answer.body_json;
    },

    async setMessagePinned(input) {
      await callPeer(client, client.SetMessagePinned, {
        channel_id: input.channelId,
        message_id: input.messageId,
        user_id: input.userId,
        application_id: input.applicationId ?? '',
        pinned: input.pinned,
      });
    },

    async listPinnedMessages(input) {
      const answer = await callPeer(client, client.ListPinnedMessages, {
        channel_id: input.channelId,
        user_id: input.userId,
        before: input.before,
        limit: input.limit,
      });
      return answer.pins_json;
    },

    async createChannelMessage(call) {
      return (await callPeer(client, client.CreateChannelMessage, wireChannelMessage(call))).message_json;
    },

    async searchGuildMessages(input) {
      const answer = await callPeer(client, client.SearchGuildMessages, {
        guild_id: input.guildId,
        user_id: input.userId,
        application_id: input.applicationId ?? '',
        application_flags: input.applicationFlags ?? 0,
        query_json: input.queryJson,
      });
      return { status: answer.status, bodyJson: answer.body_json };
    },

    async listChannelMessages(input) {
      const answer = await callPeer(client, client.ListChannelMessages, {
        channel_id: input.channelId,
        user_id: input.userId,
        around: input.around,
        before: input.before,
        after: input.after,
        limit: input.limit,
      });
      return answer.messages_json;
    },

    async getChannelMessage(call) {
      return (await callPeer(client, client.GetChannelMessage, wireChannelMessage(call))).message_json;
    },

    async editChannelMessage(call) {
      return (await callPeer(client, client.EditChannelMessage, wireChannelMessage(call))).message_json;
    },

    async deleteChannelMessage(call) {
      await callPeer(client, client.DeleteChannelMessage, wireChannelMessage(call));
    },

    async bulkDeleteChannelMessages(call) {
      await callPeer(client, client.BulkDeleteChannelMessages, wireChannelMessage(call));
    },

    async triggerTyping(call) {
      await callPeer(client, client.TriggerTyping, wireChannelMessage(call));
    },

    async autoModRules(kind, call) {
      const request = {
        guild_id: call.guildId,
        rule_id: call.ruleId ?? '',
        user_id: call.userId,
        body_json: call.bodyJson ?? '',
        audit_log_reason: call.auditLogReason ?? '',
      };
      switch (kind) {
        case 'list':
          return (await callPeer(client, client.ListAutoModRules, request)).rules_json;
        case 'get':
          return (await callPeer(client, client.GetAutoModRule, request)).rule_json;
        case 'create':
          return (await callPeer(client, client.CreateAutoModRule, request)).rule_json;
        case 'update':
          return (await callPeer(client, client.UpdateAutoModRule, request)).rule_json;
        case 'delete':
          return (await callPeer(client, client.DeleteAutoModRule, request)).rule_json;
      }
    },

    async addReaction(call) {
      await callPeer(client, client.AddReaction, wireReaction(call));
    },

    async removeReaction(call) {
      await callPeer(client, client.RemoveReaction, {
        ...wireReaction(call),
        target_user_id: call.targetUserId,
      });
    },

    async removeReactions(call) {
      await callPeer(client, client.RemoveReactions, wireReaction(call));
    },

    async listReactionUsers(call) {
      const answer = await callPeer(client, client.ListReactionUsers, {
        ...wireReaction(call),
        type: call.type ?? -1,
        after: call.after,
        limit: call.limit ?? 0,
      });
      return answer.users_json;
    },
  };
}
