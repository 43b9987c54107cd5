// The refusals of a component used or a modal submitted. Discord documents no answer for
// them (the official client never sends such a request); these are our names, in the style
// of the real codes, at the path of the field that names the wrong thing.
import { FormErrors, type ErrorPath } from '@acs/validation';

/** Inner codes of the 400 / 50035 answers to a component interaction or a modal submit. */
export const FollowOnErrorCode = {
  /** No component with this custom_id on the message (or a link or premium button, which send none). */
  COMPONENT_NOT_FOUND: 'INTERACTION_COMPONENT_NOT_FOUND',
  COMPONENT_DISABLED: 'INTERACTION_COMPONENT_DISABLED',
  COMPONENT_TYPE_MISMATCH: 'INTERACTION_COMPONENT_TYPE_MISMATCH',
  VALUES_INVALID: 'INTERACTION_COMPONENT_VALUES_INVALID',
  MODAL_CUSTOM_ID_MISMATCH: 'INTERACTION_MODAL_CUSTOM_ID_MISMATCH',
  MODAL_ANSWER_INVALID: 'INTERACTION_MODAL_ANSWER_INVALID',
  MODAL_ANSWER_MISSING: 'INTERACTION_MODAL_ANSWER_MISSING',
} as const;

/** Throws 400 / 50035 with one error at `path`. */
export function throwFollowOnError(path: ErrorPath, code: string, message: string): never {
  const errors = new FormErrors();
  errors.add(path, code, message);
  throw errors.toError();
}
