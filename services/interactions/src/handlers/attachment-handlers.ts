import type { interactions } from '@acs/protos';
import { NotFoundError, readPathSnowflake } from '@acs/discord-errors';
import { DEFAULT_ATTACHMENT_SIZE_LIMIT } from '../domain/invocation/build-interaction';
import { UnknownInteractionError } from '../domain/callbacks';
import type { PermissionsClient } from '../clients/permissions-client';
import { assertMaySend } from '../domain/channel-messages';
import type { AttachmentStore } from '../store/attachment-rows';
import type { FollowOnSourcesStore } from '../store/follow-on-sources-store';
import type { InteractionRecord } from '../store/interaction-record';
import type { ResponseStore } from '../store/response-store';
import { readRefreshUrlsBody } from '../domain/messages/read-refresh-urls-body';
import type { AttachmentSigner } from '../domain/messages';
import { findAnswerable } from './responder';
import { authenticateWebhook } from './webhook-message-handlers';

/** What the attachment RPCs need. */
export interface AttachmentHandlerDeps {
  responses: ResponseStore;
  attachments: AttachmentStore;
  /** The open modals a user's modal submit (with files) names. */
  sources: Pick<FollowOnSourcesStore, 'findComponentSource' | 'findOpenModal'>;
  /** Where a channel message's files go, and what the caller may do there. */
  permissions: PermissionsClient;
  /** Checks and renews attachment URLs' signatures. */
  signer: Pick<AttachmentSigner, 'check' | 'refresh'>;
}

/** 404 for an attachment that is not (or no longer) there, as Discord's CDN answers. */
class UnknownAttachmentError extends NotFoundError {}

/** The interaction's `attachment_size_limit`, as its object told the app. */
function uploadLimitOf(record: Pick<InteractionRecord, 'payload'>): number {
  const limit = record.payload.attachment_size_limit;
  return typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0
    ? limit
    : DEFAULT_ATTACHMENT_SIZE_LIMIT;
}

/** The RPCs api-gateway needs around files: before streaming them, and to serve them. */
export function createAttachmentHandlers({
  responses,
  attachments,
  sources,
  permissions,
  signer,
}: AttachmentHandlerDeps) {
  return {
    async DescribeUpload(req: interactions.DescribeUploadRequest__Output) {
      if (req.channel_id !== '') {
        // A channel message's files: only for a caller who may send files there. ACS's
        // default limit (guilds' own limits are an interaction's only, for now).
        const channelId = readPathSnowflake('channel_id', req.channel_id);
        const access = await permissions.describeChannelAccess(
          channelId,
          readPathSnowflake('user_id', req.user_id),
        );
        assertMaySend(access, { hasEmbeds: false, hasFiles: true, isReply: false });
        return { attachment_size_limit: DEFAULT_ATTACHMENT_SIZE_LIMIT };
      }
      if (req.user_id !== '') {
        // A user's modal submit: the modal the user may still submit, in the place it was
        // opened (its opening interaction's limit).
        const userId = readPathSnowflake('user_id', req.user_id);
        const open = await sources.findOpenModal(readPathSnowflake('interaction_id', req.interaction_id));
        if (!open || open.userId !== userId || open.submitted || open.expired) {
          throw new UnknownInteractionError();
        }
        return { attachment_size_limit: uploadLimitOf(open.origin) };
      }
      const record =
        req.interaction_id !== ''
          ? await findAnswerable(responses, {
              interactionId: readPathSnowflake('interaction_id', req.interaction_id),
              token: req.token,
              body: undefined,
              withResponse: false,
            })
          : await authenticateWebhook(responses, req);
      return { attachment_size_limit: uploadLimitOf(record) };
    },

    async GetAttachment(req: interactions.GetAttachmentRequest__Output) {
      const channelId = readPathSnowflake('channel_id', req.channel_id);
      const attachmentId = readPathSnowflake('attachment_id', req.attachment_id);
      // Stored filenames are cleaned to letters, digits, `.`, `-` and `_`: anything else names nothing.
      if (!/^[A-Za-z0-9._-]{1,1024}$/.test(req.filename)) throw new UnknownAttachmentError();
      // The signature first: without a valid one the id names nothing, not even to the database.
      const path = { channelId, attachmentId, filename: req.filename };
      if (signer.check(path, { ex: req.ex, is: req.is, hm: req.hm }) !== 'valid') {
        throw new UnknownAttachmentError();
      }
      const found = await attachments.find(channelId, attachmentId, req.filename);
      if (!found) throw new UnknownAttachmentError();
      return {
        blob_key: found.blobKey,
        content_type: found.contentType,
        size: found.size,
        ephemeral: found.ephemeral,
        expires_at: parseInt(req.ex, 16),
      };
    },

    async RefreshAttachmentUrls(req: interactions.RefreshAttachmentUrlsRequest__Output) {
      const urls = readRefreshUrlsBody(req.body_json);
      const refreshed = urls.flatMap((original) => {
        const fresh = signer.refresh(original);
        return fresh === undefined ? [] : [{ original, refreshed: fresh }];
      });
      return { body_json: JSON.stringify({ refreshed_urls: refreshed }) };
    },
  };
}
