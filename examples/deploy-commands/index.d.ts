/** A command of the dry run's answer (ACS-only). */
export interface DiffEntry {
  id?: string;
  name: string;
  type: number;
  changed_fields?: string[];
}

/** `PUT …/commands?dry_run=true`'s answer. */
export interface CommandDiff {
  created: DiffEntry[];
  updated: DiffEntry[];
  deleted: DiffEntry[];
  unchanged: DiffEntry[];
  creates_counted: number;
  creates_remaining: number;
}

export interface DeployResult {
  changed: boolean;
  applied: boolean;
  diff: CommandDiff;
  quota: { remaining: number; resetAfter: number };
}

/** Dry-runs the sync of `commands`, prints the diff, and applies it when something changed. */
export function deployCommands(options: {
  baseUrl: string;
  applicationId: string;
  botToken: string;
  guildId?: string;
  commands: unknown[];
  apply?: boolean;
  log?: (line: string) => void;
}): Promise<DeployResult>;
