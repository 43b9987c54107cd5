import { DmChannelType, type DmChannel } from '../dm/dm-channel-model';
import { BOT_DM_APP_PERMISSIONS, DM_APP_PERMISSIONS, DM_USER_PERMISSIONS } from '../dm/dm-permissions';
import { UnknownChannelError } from '../permissions-errors';
import { renderDmChannel } from '../render/render-dm-channel';
import type { InvocationDescription } from './invocation-description';

/**
 * Describes an invocation in a DM or group DM: the channel must exist and hold the invoker
 * (else 404 / 10003, so that a stranger learns nothing of it); the permissions are the DM
 * sets (`dm-permissions.ts`), the app's larger in the DM with its own bot user; there are
 * no roles, members or command permissions to decide with, and nothing of a guild resolves.
 */
export function describeDmInvocation(
  channel: DmChannel | null,
  userId: string,
  applicationId: string,
): InvocationDescription {
  if (!channel?.recipientIds.includes(userId)) throw new UnknownChannelError();
  const botIsMember = channel.recipientIds.includes(applicationId);
  const isBotDm = channel.type === DmChannelType.DM && botIsMember;
  return {
    channel: renderDmChannel(channel),
    guild: null,
    attachmentSizeLimit: null,
    member: null,
    userPermissions: DM_USER_PERMISSIONS,
    appPermissions: isBotDm ? BOT_DM_APP_PERMISSIONS : DM_APP_PERMISSIONS,
    botIsMember,
    allowed: true,
    reason: '',
    resolvedMembers: {},
    resolvedRoles: {},
    resolvedChannels: {},
    recipientIds: channel.recipientIds,
  };
}
