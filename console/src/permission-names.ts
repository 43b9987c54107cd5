import type { FormValues } from './form-dialog';

/**
 * The permissions the console offers when creating a role or installing an app: the
 * bits (D:topics/permissions.mdx §Bitwise Permission Flags) a bot's commands usually
 * need, and whether the install's consent step ticks them by default.
 */
export const PERMISSION_CHOICES: { name: string; label: string; bit: bigint; botDefault: boolean }[] = [
  { name: 'view_channel', label: 'View channels', bit: 1n << 10n, botDefault: true },
  { name: 'send_messages', label: 'Send messages', bit: 1n << 11n, botDefault: true },
  { name: 'embed_links', label: 'Embed links', bit: 1n << 14n, botDefault: true },
  { name: 'attach_files', label: 'Attach files', bit: 1n << 15n, botDefault: true },
  { name: 'read_message_history', label: 'Read message history', bit: 1n << 16n, botDefault: true },
  { name: 'use_application_commands', label: 'Use application commands', bit: 1n << 31n, botDefault: false },
  { name: 'manage_messages', label: 'Manage messages', bit: 1n << 13n, botDefault: false },
  { name: 'manage_guild', label: 'Manage server', bit: 1n << 5n, botDefault: false },
  { name: 'administrator', label: 'Administrator', bit: 1n << 3n, botDefault: false },
];

/** The bit set of the ticked choices, as the API takes it (a decimal string). */
export function permissionBits(values: FormValues): string {
  let bits = 0n;
  for (const choice of PERMISSION_CHOICES) if (values[choice.name]) bits |= choice.bit;
  return bits.toString();
}
