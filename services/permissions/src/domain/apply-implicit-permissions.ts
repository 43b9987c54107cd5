import { hasPermissions, NO_PERMISSIONS, PERMISSION_FLAGS as P } from './permission-flags';

// D:topics/permissions.mdx §Implicit Permissions: these need the base action of sending.
const SENDING_DEPENDENT = P.MENTION_EVERYONE | P.SEND_TTS_MESSAGES | P.ATTACH_FILES | P.EMBED_LINKS;

/**
 * Applies the two documented implicit denials to channel permissions: without
 * VIEW_CHANNEL nothing in the channel is usable; without the right to send (SEND_MESSAGES,
 * or SEND_MESSAGES_IN_THREADS in a thread, §Inherited Permissions) MENTION_EVERYONE,
 * SEND_TTS_MESSAGES, ATTACH_FILES and EMBED_LINKS are ignored. Administrators are not
 * affected: they have every bit, so neither condition holds.
 */
export function applyImplicitPermissions(permissions: bigint, isThread: boolean): bigint {
  if (!hasPermissions(permissions, P.VIEW_CHANNEL)) return NO_PERMISSIONS;
  const send = isThread ? P.SEND_MESSAGES_IN_THREADS : P.SEND_MESSAGES;
  if (!hasPermissions(permissions, send)) return permissions & ~SENDING_DEPENDENT;
  return permissions;
}
