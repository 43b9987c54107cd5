import type { NormalizedCommand } from './normalized-command';
import { isJsonObject } from '@acs/validation';

/**
 * The body to validate for an edit (PATCH): the stored command with the patch's fields laid
 * over it. Every field is optional in a patch, a null resets a field to its default, and
 * `type` cannot change (the PATCH schema has none). A patch that is not an object is
 * returned as is, so validation reports it.
 */
export function mergeCommandPatch(existing: NormalizedCommand, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  return { ...existing, ...patch, type: existing.type };
}
