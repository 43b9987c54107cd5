/** `npx acs`: see acs-cli.js. */
export interface CliIo {
  /** Where npm start keeps seed.json, stack.json and admin-token. */
  dataDir: string;
  env?: Record<string, string | undefined>;
  /** Receives each output line (default: stdout). */
  out?: (line: string) => void;
}

/** Runs the CLI with `argv` (without node and the script); resolves to the exit code. */
export function runCli(argv: string[], io: CliIo): Promise<number>;

export function parseArgs(argv: string[]): {
  command: string;
  line?: string;
  args: string[];
  flags: Record<string, string | true>;
  /** Each `--file custom_id=path`, in order. */
  files: string[];
};
export function describeOutcome(outcome: unknown): string;
export function describeError(answer: { status: number; body: unknown }): string;
/** `custom_id=text` and `custom_id[]=a,b` as a modal submit's `data.components`. */
export function modalAnswers(pairs: string[]): Record<string, unknown>[];
/** `--file custom_id=path` pairs as a modal submit's FILE_UPLOAD answers, and the paths to send. */
export function modalFiles(pairs: string[]): { components: Record<string, unknown>[]; paths: string[] };
export const USAGE: string;
