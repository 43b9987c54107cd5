/** The installation scopes that let an app's commands exist and run in a guild. */
export const COMMAND_SCOPES: readonly string[] = ['applications.commands', 'bot'];

/** Whether an installation with these scopes lets the app's commands exist and run in the guild. */
export function allowsCommands(scopes: readonly string[]): boolean {
  return scopes.some((s) => COMMAND_SCOPES.includes(s));
}
