/** The entry point an EMBEDDED app gets automatically (D: "Default Entry Point Command"). */
export const LAUNCH_COMMAND = {
  type: 4,
  name: 'Launch',
  handler: 2,
  integration_types: [0, 1],
  contexts: [0, 1, 2],
};
