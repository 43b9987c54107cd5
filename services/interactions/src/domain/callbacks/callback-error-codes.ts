/**
 * Inner `_errors[].code` strings of the 50035 answers about a callback's `type`. Discord
 * documents no answer for a type the interaction does not take (A3: "no real sample was
 * found"); this is our name for it, in the style of the real codes.
 */
export const CallbackErrorCode = {
  INTERACTION_CALLBACK_TYPE_INVALID: 'INTERACTION_CALLBACK_TYPE_INVALID',
} as const;
