// Component interactions (type 3) and modal submits (type 5): judged against the stored
// message or modal, then built, recorded and delivered as a command's invocation is.
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '@acs/validation';
import {
  buildComponentData,
  buildModalData,
  judgeComponentUse,
  judgeModalSubmit,
  type OriginInteraction,
  type SelectIds,
  type SelectLookups,
} from '../domain/follow-ons';
import { formatInteractionToken, hashInteractionToken } from '../domain/interaction-token';
import {
  buildInteraction,
  checkGuildPresence,
  invocationLocale,
  withoutToken,
  type ComponentBody,
  type InvocationParties,
  type InvocationPlace,
  type ModalSubmitBody,
} from '../domain/invocation';
import {
  type AttachmentSigner,
  cleanFilename,
  makeAttachments,
  SPOILER_PREFIX,
  type MadeAttachment,
  type MessageAttachment,
  type UploadedFile,
} from '../domain/messages';
import type { NewInteraction, RecordResult } from '../store/interaction-store';
import type { FollowOnSourcesStore } from '../store/follow-on-sources-store';
import { deliverInteraction, type DeliveryDeps } from './deliver-interaction';

/** What follow-on invocations need beyond a command's. */
export interface FollowOnDeps extends DeliveryDeps {
  sources: Pick<FollowOnSourcesStore, 'findComponentSource' | 'findOpenModal'>;
  /** Signs the URLs of a modal submit's files. */
  signer: Pick<AttachmentSigner, 'sign'>;
}

/** A user clicks a button or picks select values on a message (A8 type 3); answers the interaction's id. */
export async function invokeComponent(
  deps: FollowOnDeps,
  userId: string,
  body: ComponentBody,
  requestLocale: string,
): Promise<string> {
  const source = await deps.sources.findComponentSource(body.messageId);
  const use = judgeComponentUse(body, userId, source);
  const origin = (source as NonNullable<typeof source>).origin;
  const { parties, place } = await describe(deps, userId, body, origin, use.ids);
  const data = buildComponentData(use, lookupsOf(parties, place));
  const extra = { message: (source as NonNullable<typeof source>).message };
  return record(deps, {
    userId,
    body,
    origin,
    parties,
    place,
    data,
    extra,
    messageId: body.messageId,
    requestLocale,
  });
}

/** A modal submit's files (multipart `files[n]`), already in the blob store. */
export interface SubmittedFiles {
  files: readonly UploadedFile[];
  /** Where api-gateway serves attachments: their `url`. */
  baseUrl: string;
}

/**
 * A user submits a modal an app opened for them (A8 type 5); answers the interaction's id.
 * Files its FILE_UPLOAD answers name become ephemeral attachments of the submit's
 * interaction (rows written with it), which the app receives in `data.resolved.attachments`.
 */
export async function invokeModalSubmit(
  deps: FollowOnDeps,
  userId: string,
  body: ModalSubmitBody,
  requestLocale: string,
  uploaded: SubmittedFiles = { files: [], baseUrl: '' },
): Promise<string> {
  const open = await deps.sources.findOpenModal(body.data.id);
  const judged = judgeModalSubmit(body, userId, open, uploaded.files);
  const modal = open as NonNullable<typeof open>;
  const { parties, place } = await describe(deps, userId, body, modal.origin, judged.ids);
  const made = new Map<string, MadeAttachment[]>();
  for (const [customId, files] of judged.uploads) {
    const added = files.map((file) => {
      const filename = cleanFilename(file.filename);
      return { file, filename, spoiler: filename.startsWith(SPOILER_PREFIX) };
    });
    made.set(
      customId,
      makeAttachments(added, {
        nextId: () => deps.ids.next(),
        channelId: body.channelId,
        baseUrl: uploaded.baseUrl,
        ephemeral: true,
        signer: deps.signer,
      }),
    );
  }
  const attachments = new Map<string, MessageAttachment[]>(
    [...made].map(([customId, list]) => [customId, list.map((item) => item.attachment)]),
  );
  const data = buildModalData(modal, judged, lookupsOf(parties, place), attachments);
  // A modal opened from a component carries that component's message (A1 `message`).
  const message = modal.origin.payload.message;
  const extra = message !== undefined ? { message } : {};
  return record(
    deps,
    {
      userId,
      body,
      origin: modal.origin,
      parties,
      place,
      data,
      extra,
      messageId: modal.messageId,
      requestLocale,
    },
    { modalInteractionId: body.data.id, attachments: [...made.values()].flat() },
  );
}

/**
 * oauth's and permissions' view of the user and the place, with the ids the values name;
 * in a guild the user must be a member now who sees the channel, as for a command
 * (checkGuildPresence, the rule decideAccess applies first).
 */
async function describe(
  deps: FollowOnDeps,
  userId: string,
  body: ComponentBody | ModalSubmitBody,
  origin: OriginInteraction,
  ids: SelectIds,
): Promise<{ parties: InvocationParties; place: InvocationPlace }> {
  const [parties, place] = await Promise.all([
    deps.oauth.describeInvocation({
      applicationId: body.applicationId,
      userId,
      guildId: body.guildId,
      resolveUserIds: ids.users,
    }),
    deps.permissions.describeInvocationContext({
      channelId: body.channelId,
      guildId: body.guildId,
      userId,
      applicationId: body.applicationId,
      // The place is asked about with the origin's command; its decision is not this
      // interaction's to apply (a member who sees a message may use its components).
      command: {
        applicationId: body.applicationId,
        commandId: origin.commandId ?? '0',
        name: origin.commandName,
        defaultMemberPermissions: null,
        version: '0',
        namedVersion: '0',
      },
      resolveUserIds: ids.users,
      resolveRoleIds: ids.roles,
      resolveChannelIds: ids.channels,
    }),
  ]);
  checkGuildPresence(body.guildId, place);
  return { parties, place };
}

function lookupsOf(parties: InvocationParties, place: InvocationPlace): SelectLookups {
  return {
    users: parties.resolvedUsers,
    members: place.resolvedMembers,
    roles: place.resolvedRoles,
    channels: place.resolvedChannels,
  };
}

interface FollowOn {
  userId: string;
  body: ComponentBody | ModalSubmitBody;
  origin: OriginInteraction;
  parties: InvocationParties;
  place: InvocationPlace;
  data: JsonObject;
  /** Fields the interaction object adds after `data` (`message`). */
  extra: JsonObject;
  messageId: string | null;
  requestLocale: string;
}

/**
 * Builds, records and delivers the interaction. Who authorized the app and in which
 * context are the origin's (the message is where the app was invoked); a modal submit
 * also marks its modal submitted, in the same transaction.
 */
async function record(
  deps: FollowOnDeps,
  input: FollowOn,
  submit?: { modalInteractionId: string; attachments: MadeAttachment[] },
): Promise<string> {
  const { body, origin, parties, place } = input;
  const id = deps.ids.next();
  const token = formatInteractionToken(id, randomBytes(32).toString('hex'));
  const owners = (origin.payload.authorizing_integration_owners ?? {}) as Record<string, string>;
  const built = buildInteraction({
    id,
    token,
    type: body.type,
    applicationId: body.applicationId,
    guildId: body.guildId,
    channelId: body.channelId,
    data: input.data,
    parties,
    place,
    access: {
      authorizingIntegrationOwners: owners,
      context: typeof origin.payload.context === 'number' ? origin.payload.context : 0,
      userInstallOnly: origin.userInstallOnly,
    },
    locale: invocationLocale(input.requestLocale, parties.userLocale),
  });
  const interaction = { ...built, ...input.extra };
  const delivery = parties.interactionsEndpointUrl !== null ? 'http' : 'gateway';
  const row: NewInteraction = {
    id,
    applicationId: body.applicationId,
    type: body.type,
    userId: input.userId,
    guildId: body.guildId,
    channelId: body.channelId,
    commandId: origin.commandId,
    commandName: origin.commandName,
    commandType: origin.commandType,
    messageId: input.messageId,
    sessionId: body.sessionId,
    nonce: body.nonce,
    tokenHash: hashInteractionToken(token),
    delivery,
    userInstallOnly: origin.userInstallOnly,
    recipientIds: place.recipientIds,
    payload: withoutToken(interaction),
    botPayload: delivery === 'gateway' ? interaction : null,
  };
  const recorded: RecordResult =
    submit === undefined
      ? await deps.interactions.record(row)
      : await deps.interactions.recordModalSubmit(row, submit.modalInteractionId, submit.attachments);
  if (!recorded.recorded) return recorded.interactionId;
  deliverInteraction(deps, row, parties, interaction);
  return id;
}
