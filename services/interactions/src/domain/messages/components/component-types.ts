// Component types, button and text input styles (D:components/reference.mdx §Component
// Types, §Button Styles, §Text Input Styles), and where each may appear.

/** Every component type of the public API. */
export const ComponentType = {
  ACTION_ROW: 1,
  BUTTON: 2,
  STRING_SELECT: 3,
  TEXT_INPUT: 4,
  USER_SELECT: 5,
  ROLE_SELECT: 6,
  MENTIONABLE_SELECT: 7,
  CHANNEL_SELECT: 8,
  SECTION: 9,
  TEXT_DISPLAY: 10,
  THUMBNAIL: 11,
  MEDIA_GALLERY: 12,
  FILE: 13,
  SEPARATOR: 14,
  CONTAINER: 17,
  LABEL: 18,
  FILE_UPLOAD: 19,
  RADIO_GROUP: 21,
  CHECKBOX_GROUP: 22,
  CHECKBOX: 23,
} as const;
export type ComponentType = (typeof ComponentType)[keyof typeof ComponentType];

/** Button styles: 1-4 send an interaction (`custom_id`), 5 opens `url`, 6 buys `sku_id`. */
export const ButtonStyle = {
  PRIMARY: 1,
  SECONDARY: 2,
  SUCCESS: 3,
  DANGER: 4,
  LINK: 5,
  PREMIUM: 6,
} as const;

/** Text input styles: 1 a single line, 2 a paragraph. */
export const TEXT_INPUT_STYLES: readonly number[] = [1, 2];

/** The select menus: one fills an action row (messages) or a label (modals). */
export const SELECT_TYPES: readonly number[] = [
  ComponentType.STRING_SELECT,
  ComponentType.USER_SELECT,
  ComponentType.ROLE_SELECT,
  ComponentType.MENTIONABLE_SELECT,
  ComponentType.CHANNEL_SELECT,
];

/** The selects whose options Discord fills (users, roles, channels): their values are snowflakes. */
export const AUTO_SELECT_TYPES: readonly number[] = SELECT_TYPES.filter(
  (type) => type !== ComponentType.STRING_SELECT,
);

/** What a legacy message (no IS_COMPONENTS_V2) may hold at its top level: action rows. */
export const LEGACY_TOP_LEVEL: readonly number[] = [ComponentType.ACTION_ROW];

/** What a container may hold; a components-v2 message's top level also takes containers. */
export const CONTAINER_CHILDREN: readonly number[] = [
  ComponentType.ACTION_ROW,
  ComponentType.TEXT_DISPLAY,
  ComponentType.SECTION,
  ComponentType.MEDIA_GALLERY,
  ComponentType.SEPARATOR,
  ComponentType.FILE,
];

/** The top level of a components-v2 message. */
export const V2_TOP_LEVEL: readonly number[] = [...CONTAINER_CHILDREN, ComponentType.CONTAINER];

/** An action row of a message: buttons, or one select. */
export const MESSAGE_ROW_CHILDREN: readonly number[] = [ComponentType.BUTTON, ...SELECT_TYPES];

/** A section's text, and its accessory. */
export const SECTION_CHILDREN: readonly number[] = [ComponentType.TEXT_DISPLAY];
export const SECTION_ACCESSORIES: readonly number[] = [ComponentType.BUTTON, ComponentType.THUMBNAIL];

/** The top level of a modal: labels, text, and the deprecated action row with one text input. */
export const MODAL_TOP_LEVEL: readonly number[] = [
  ComponentType.LABEL,
  ComponentType.TEXT_DISPLAY,
  ComponentType.ACTION_ROW,
];

/** A modal's (deprecated) action row: one text input. */
export const MODAL_ROW_CHILDREN: readonly number[] = [ComponentType.TEXT_INPUT];

/** What a label wraps: every modal input. */
export const LABEL_CHILDREN: readonly number[] = [
  ComponentType.TEXT_INPUT,
  ...SELECT_TYPES,
  ComponentType.FILE_UPLOAD,
  ComponentType.RADIO_GROUP,
  ComponentType.CHECKBOX_GROUP,
  ComponentType.CHECKBOX,
];

/** The components a user interacts with in a message: they carry a `custom_id` and may be clicked. */
export const MESSAGE_INTERACTIVE_TYPES: readonly number[] = [ComponentType.BUTTON, ...SELECT_TYPES];
