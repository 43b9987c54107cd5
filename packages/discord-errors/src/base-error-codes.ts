// Inner `_errors[].code` strings of 50035 answers that every resource shares, as the
// real API sends them (facts §3.3, the docs' examples, observed answers). Services add
// their own resource-specific codes next to these.

/** The type- and length-level codes of Discord's validators. */
export const BaseErrorCode = {
  BASE_TYPE_REQUIRED: 'BASE_TYPE_REQUIRED',
  BASE_TYPE_STRING: 'BASE_TYPE_STRING',
  BASE_TYPE_BOOLEAN: 'BASE_TYPE_BOOLEAN',
  BASE_TYPE_CHOICES: 'BASE_TYPE_CHOICES',
  BASE_TYPE_BAD_LENGTH: 'BASE_TYPE_BAD_LENGTH',
  BASE_TYPE_MAX_LENGTH: 'BASE_TYPE_MAX_LENGTH',
  BASE_TYPE_MIN_LENGTH: 'BASE_TYPE_MIN_LENGTH',
  NUMBER_TYPE_COERCE: 'NUMBER_TYPE_COERCE',
  NUMBER_TYPE_MIN: 'NUMBER_TYPE_MIN',
  NUMBER_TYPE_MAX: 'NUMBER_TYPE_MAX',
  MODEL_TYPE_CONVERT: 'MODEL_TYPE_CONVERT',
  DICT_TYPE_CONVERT: 'DICT_TYPE_CONVERT',
  LIST_TYPE_CONVERT: 'LIST_TYPE_CONVERT',
  SET_TYPE_ALREADY_CONTAINS_VALUE: 'SET_TYPE_ALREADY_CONTAINS_VALUE',
  TAG_FIELD_MISSING: 'TAG_FIELD_MISSING',
  // Our name, in the same style, for a rule whose real code is not public: text holding
  // U+0000, which no PostgreSQL text column stores.
  STRING_TYPE_NUL_CHARACTER: 'STRING_TYPE_NUL_CHARACTER',
} as const;
export type BaseErrorCode = (typeof BaseErrorCode)[keyof typeof BaseErrorCode];
