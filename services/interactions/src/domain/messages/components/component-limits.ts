// The limits of components (D:components/reference.mdx; D:components/overview.mdx "Messages
// allow up to 40 total components"; D:interactions/receiving-and-responding.mdx §Modal).

/** Every component of a components-v2 message, nested ones included. */
export const MAX_V2_COMPONENTS = 40;
/** The action rows of a legacy message. */
export const MAX_LEGACY_ROWS = 5;
/** The width of an action row: a button takes 1, a select all 5. */
export const MAX_ROW_WIDTH = 5;
/** `custom_id` of a component or modal: 1-100 characters. */
export const MAX_CUSTOM_ID_LENGTH = 100;
/** A component's optional `id`: a positive 32-bit integer (0 reads as "assign one"). */
export const MAX_COMPONENT_ID = 2 ** 31 - 1;
/** A button's `label`. */
export const MAX_BUTTON_LABEL_LENGTH = 80;
/** A link button's `url`. */
export const MAX_BUTTON_URL_LENGTH = 512;
/** A select's `placeholder`. */
export const MAX_SELECT_PLACEHOLDER_LENGTH = 150;
/** A string select's `options`, and `min_values` / `max_values` of every select. */
export const MAX_SELECT_OPTIONS = 25;
export const MAX_SELECT_VALUES = 25;
/** An option's `label`, `value` and `description` (selects, radio and checkbox groups). */
export const MAX_OPTION_TEXT_LENGTH = 100;
/** A section's texts: one to three. */
export const MAX_SECTION_TEXTS = 3;
/** A text display's `content`. */
export const MAX_TEXT_DISPLAY_LENGTH = 4000;
/** Alt text of a thumbnail or gallery item. */
export const MAX_MEDIA_DESCRIPTION_LENGTH = 1024;
/** A media gallery's `items`: one to ten. */
export const MAX_GALLERY_ITEMS = 10;
/** A media URL (as an embed's). */
export const MAX_MEDIA_URL_LENGTH = 2048;
/** A container's `accent_color`: 24-bit RGB. */
export const MAX_ACCENT_COLOR = 0xffffff;
/** A modal: `title` ≤ 45, 1-5 components. */
export const MAX_MODAL_TITLE_LENGTH = 45;
export const MAX_MODAL_COMPONENTS = 5;
/** A label's `label` and `description`. */
export const MAX_LABEL_LENGTH = 45;
export const MAX_LABEL_DESCRIPTION_LENGTH = 100;
/** A text input's lengths, `value` and `placeholder`. */
export const MAX_TEXT_INPUT_LENGTH = 4000;
export const MAX_TEXT_INPUT_PLACEHOLDER_LENGTH = 100;
/** A file upload: 0-10 files, at most 10 file type filters. */
export const MAX_UPLOAD_FILES = 10;
export const MAX_UPLOAD_FILE_TYPES = 10;
/** Radio groups: 2-10 options; checkbox groups: 1-10. */
export const MIN_RADIO_OPTIONS = 2;
export const MAX_GROUP_OPTIONS = 10;
