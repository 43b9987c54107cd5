import { randomBytes } from 'node:crypto';
import { fieldError, readPathSnowflake } from '@acs/discord-errors';
import type { interactions } from '@acs/protos';
import { currentDeadline, PeerTimeoutError, type Logger } from '@acs/service-kit';
import type { SnowflakeGenerator } from '@acs/snowflake';
import type { CommandRegistryClient } from '../clients/command-registry-client';
import type { OAuthClient } from '../clients/oauth-client';
import type { PermissionsClient } from '../clients/permissions-client';
import type { AttachmentSigner } from '../domain/messages';
import { activityInstanceId } from '../domain/callbacks';
import { CommandType, InteractionType } from '../domain/interaction-enums';
import { formatInteractionToken, hashInteractionToken } from '../domain/interaction-token';
import {
  buildInteraction,
  candidateUserIds,
  checkCommandIdentity,
  idsToResolve,
  invocationLocale,
  planInvocation,
  readCommandSpec,
  readInteractionRequest,
  renderLaunchMessage,
  isFinalAnswer,
  renderFinalOutcome,
  renderOutcome,
  withoutToken,
  type CommandSpec,
  type ComponentBody,
  type InteractionRequest,
  type ModalSubmitBody,
  type InvocationBody,
  type InvocationParties,
  type InvocationPlace,
  type SettledInteraction,
} from '../domain/invocation';
import type { HttpTarget } from '../delivery/http-delivery';
import type { InteractionStore, Launch, NewInteraction } from '../store/interaction-store';
import type { FollowOnSourcesStore } from '../store/follow-on-sources-store';
import type { ApplicationFactsMemo } from './application-facts';
import { deliverInteraction, type DeliveryDeps } from './deliver-interaction';
import { invokeComponent, invokeModalSubmit, type SubmittedFiles } from './follow-on-invocation';
import { uploadedFilesOf } from './uploaded-files';

/** What the invocation RPC needs. */
export interface InteractionHandlerDeps {
  oauth: OAuthClient;
  registry: CommandRegistryClient;
  permissions: PermissionsClient;
  interactions: Pick<InteractionStore, 'findByNonce' | 'record' | 'recordModalSubmit' | 'findTargetMessage'>;
  /** The stored messages and modals components and modal submits are judged against. */
  sources: Pick<FollowOnSourcesStore, 'findComponentSource' | 'findOpenModal'>;
  ids: SnowflakeGenerator;
  /** Where each invocation leaves its application's facts for the callback that answers it. */
  applications: ApplicationFactsMemo;
  /** Signed POSTs to interactions endpoints (started in the background). */
  http: { start(target: HttpTarget, bodyJson: string): void };
  deadlines: DeliveryDeps['deadlines'];
  outcomes: {
    wait(interactionId: string, untilMs: number): Promise<SettledInteraction | undefined>;
    waitUntil(
      interactionId: string,
      untilMs: number,
      done: (settled: SettledInteraction) => boolean,
    ): Promise<SettledInteraction | undefined>;
  };
  /** INTERACTION_RESPONSE_DEADLINE_MS and the sweep's interval: by then every outcome is known. */
  windows: { deadlineMs: number; sweepIntervalMs: number };
  /** Signs the URLs of a modal submit's files. */
  signer: Pick<AttachmentSigner, 'sign'>;
  logger: Logger;
}

/** How long past the deadline a `wait` keeps waiting before it gives up (the sweep's lag, a slow commit). */
const WAIT_MARGIN_MS = 2000;
/** `?wait=final`: how long it waits for a deferral to be filled, by default and at most. */
export const WAIT_FINAL_MS = { default: 15_000, max: 60_000 } as const;
/** How long before the caller's deadline `?wait=final` answers what it has. */
const FINAL_ANSWER_MARGIN_MS = 1000;

/** `CreateInteraction`: a user invokes a command (or its autocomplete), uses a component, submits a modal. */
export function createInteractionHandlers(deps: InteractionHandlerDeps) {
  return {
    async CreateInteraction(
      request: interactions.CreateInteractionRequest__Output,
    ): Promise<interactions.CreateInteractionResponse> {
      const userId = readPathSnowflake('user_id', request.user_id);
      const body = readInteractionRequest(request.body_json);
      const files = uploadedFilesOf(request.files);
      // Only a modal submit carries files (its FILE_UPLOAD answers name them).
      if (files.length > 0 && body.type !== InteractionType.MODAL_SUBMIT) {
        throw fieldError('files', 'ATTACHMENTS_NOT_SUPPORTED', 'Only a modal submit (type 5) carries files');
      }
      // A replayed nonce does not invoke again (the same user, within the token's lifetime):
      // its files, named by no attachment, are left to the sweep of orphan blobs.
      const replayed =
        body.nonce === null ? undefined : await deps.interactions.findByNonce(userId, body.nonce);
      const uploaded = { files, baseUrl: request.attachment_base_url };
      const interactionId = replayed ?? (await start(deps, userId, body, request.locale, uploaded));
      if (request.wait_final)
        return { outcome_json: JSON.stringify(await waitForFinal(deps, interactionId, request)) };
      if (!request.wait) return { outcome_json: '' };
      return { outcome_json: JSON.stringify(renderOutcome(await waitForOutcome(deps, interactionId))) };
    },
  };
}

/** Starts the interaction a request asks for, by its type. */
function start(
  deps: InteractionHandlerDeps,
  userId: string,
  body: InteractionRequest,
  locale: string,
  uploaded: SubmittedFiles,
): Promise<string> {
  if (body.type === InteractionType.MESSAGE_COMPONENT)
    return invokeComponent(deps, userId, body as ComponentBody, locale);
  if (body.type === InteractionType.MODAL_SUBMIT)
    return invokeModalSubmit(deps, userId, body as ModalSubmitBody, locale, uploaded);
  return invoke(deps, userId, body as InvocationBody, locale);
}

/**
 * Judges, records and delivers one invocation; answers the interaction's id (the first
 * one's, when the nonce turns out replayed while this one was judged).
 */
async function invoke(
  deps: InteractionHandlerDeps,
  userId: string,
  body: InvocationBody,
  requestLocale: string,
): Promise<string> {
  const [parties, found] = await Promise.all([
    deps.oauth.describeInvocation({
      applicationId: body.applicationId,
      userId,
      guildId: body.guildId,
      resolveUserIds: candidateUserIds(body.data),
    }),
    deps.registry.invocableCommand(body.applicationId, body.guildId, body.data.id, body.data.version),
  ]);
  const command = checkCommandIdentity(body.type, body.data, found && readCommandSpec(found));
  const place = await describePlace(deps, userId, body, command);
  const targetMessage =
    command.type === CommandType.MESSAGE && body.data.targetId !== null
      ? await deps.interactions.findTargetMessage(body.channelId, body.data.targetId, userId)
      : null;
  const plan = planInvocation({ body, userId, command, parties, place, targetMessage });

  const id = deps.ids.next();
  const token = formatInteractionToken(id, randomBytes(32).toString('hex'));
  const interaction = buildInteraction({
    id,
    token,
    type: body.type,
    applicationId: body.applicationId,
    guildId: body.guildId,
    channelId: body.channelId,
    data: plan.data,
    parties,
    place,
    access: plan.access,
    locale: invocationLocale(requestLocale, parties.userLocale),
  });
  const payload = withoutToken(interaction);
  const record: NewInteraction = {
    id,
    applicationId: body.applicationId,
    type: body.type,
    userId,
    guildId: body.guildId,
    channelId: body.channelId,
    commandId: command.id,
    commandName: command.name,
    commandType: command.type,
    messageId: null,
    sessionId: body.sessionId,
    nonce: body.nonce,
    tokenHash: hashInteractionToken(token),
    delivery: plan.delivery,
    userInstallOnly: plan.access.userInstallOnly,
    recipientIds: place.recipientIds,
    payload,
    botPayload: plan.delivery === 'gateway' ? interaction : null,
  };
  const launch = plan.delivery === 'activity' ? launchOf(deps, record, parties) : undefined;
  const recorded = await deps.interactions.record(record, launch);
  if (!recorded.recorded) return recorded.interactionId;

  if (plan.delivery === 'activity') return id;
  deliverInteraction(deps, record, parties, interaction);
  return id;
}

/** permissions' view of the place, asked once the command (and so what its options name) is known. */
function describePlace(
  deps: InteractionHandlerDeps,
  userId: string,
  body: InvocationBody,
  command: CommandSpec,
): Promise<InvocationPlace> {
  const ids = idsToResolve(body.data, command);
  return deps.permissions.describeInvocationContext({
    channelId: body.channelId,
    guildId: body.guildId,
    userId,
    applicationId: body.applicationId,
    command: {
      applicationId: command.applicationId,
      commandId: command.id,
      name: command.name,
      defaultMemberPermissions: command.defaultMemberPermissions,
      version: command.version,
      namedVersion: command.namedVersion,
    },
    resolveUserIds: ids.users,
    resolveRoleIds: ids.roles,
    resolveChannelIds: ids.channels,
  });
}

/** An entry point Discord launches (handler 2): its Activity instance and launch message. */
function launchOf(deps: InteractionHandlerDeps, record: NewInteraction, parties: InvocationParties): Launch {
  const messageId = deps.ids.next();
  return {
    activityInstanceId: activityInstanceId(record.id, record.guildId, record.channelId),
    messageId,
    message: { ...renderLaunchMessage(record.payload, parties.botUser, messageId, new Date()) },
  };
}

/**
 * The outcome of an interaction, waited for until it has one: by the response deadline
 * (and the sweep's lag) at most, and no longer than the caller waits.
 */
async function waitForOutcome(
  deps: InteractionHandlerDeps,
  interactionId: string,
): Promise<SettledInteraction> {
  const { deadlineMs, sweepIntervalMs } = deps.windows;
  const ownLimit = Date.now() + deadlineMs + sweepIntervalMs + WAIT_MARGIN_MS;
  const settled = await deps.outcomes.wait(interactionId, Math.min(ownLimit, currentDeadline() ?? Infinity));
  if (!settled) throw new PeerTimeoutError();
  return settled;
}

/**
 * `?wait=final`: the outcome, then past a deferral until its original response is filled
 * (or, after a deferred update, the message edited), by `wait_timeout_ms` (default 15 s, at
 * most 60 s) from now and no longer than the caller waits; answers the outcome with the
 * follow-ups posted meanwhile, `final: false` when the deadline came first.
 */
async function waitForFinal(
  deps: InteractionHandlerDeps,
  interactionId: string,
  request: Pick<interactions.CreateInteractionRequest__Output, 'wait_timeout_ms'>,
) {
  const given = request.wait_timeout_ms;
  if (!Number.isInteger(given) || given < 0 || given > WAIT_FINAL_MS.max) {
    throw fieldError(
      'timeout_ms',
      'NUMBER_TYPE_MAX',
      `int value should be less than or equal to ${WAIT_FINAL_MS.max}.`,
    );
  }
  // Answered before the caller's deadline, not cut by it.
  const callerLimit = (currentDeadline() ?? Infinity) - FINAL_ANSWER_MARGIN_MS;
  const until = Math.min(Date.now() + (given || WAIT_FINAL_MS.default), callerLimit);
  const settled = await waitForOutcome(deps, interactionId);
  if (isFinalAnswer(settled)) return renderFinalOutcome(settled, true);
  const filled = await deps.outcomes.waitUntil(interactionId, until, isFinalAnswer);
  const last = filled ?? settled;
  return renderFinalOutcome(last, isFinalAnswer(last));
}
