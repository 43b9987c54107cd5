import type { Logger } from 'pino';

/** How a RepeatedErrorLog bounds what it writes. */
export interface RepeatedErrorLogOptions {
  /** How often repeats are summed up on one line per signature (default 60 s). */
  intervalMs?: number;
  /** Signatures tracked at once; errors of further ones are counted together (default 200). */
  maxSignatures?: number;
}

/** The levels a request-driven error is logged at. */
type Level = 'error' | 'warn';

interface Entry {
  level: Level;
  message: string;
  fields: Record<string, unknown>;
  /** Occurrences since the last line written for this signature. */
  repeated: number;
}

/** Longest message and stack a logged error keeps: an error's message may quote a huge input. */
const MAX_MESSAGE_CHARS = 1_000;
const MAX_STACK_CHARS = 4_000;

/**
 * Logs errors that requests cause, with a volume that no request rate can grow: the first
 * occurrence of an error signature (the log message, the error's class, its message with
 * numbers masked, and the frame that threw it) is written whole, stack included; later
 * ones are only counted, and at the end of each interval one line per signature says how
 * many there were. A signature quiet for a whole interval is forgotten, so its next
 * occurrence is written whole again. At most `maxSignatures` are tracked; errors of any
 * further signature are counted on one line of their own. Messages and stacks are cut
 * to a few kilobytes. So each interval adds at most about two lines per tracked
 * signature, whatever the error rate.
 */
export class RepeatedErrorLog {
  private readonly entries = new Map<string, Entry>();
  private readonly intervalMs: number;
  private readonly maxSignatures: number;
  private untracked = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    options: RepeatedErrorLogOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 60_000;
    this.maxSignatures = options.maxSignatures ?? 200;
  }

  /** Logs `error` whole if its signature is new, else counts it for the interval's summary. */
  report(level: Level, error: unknown, fields: Record<string, unknown>, message: string): void {
    const signature = signatureOf(message, error);
    const entry = this.entries.get(signature);
    if (entry) {
      entry.repeated += 1;
      entry.fields = fields;
      return;
    }
    this.schedule();
    if (this.entries.size >= this.maxSignatures) {
      this.untracked += 1;
      return;
    }
    this.entries.set(signature, { level, message, fields, repeated: 0 });
    this.logger[level]({ ...fields, err: describeError(error), signature }, message);
  }

  /** Writes the summaries of the interval that ended and forgets quiet signatures (the timer calls it). */
  flush(): void {
    for (const [signature, entry] of this.entries) {
      if (entry.repeated === 0) {
        this.entries.delete(signature);
        continue;
      }
      this.logger[entry.level](
        { ...entry.fields, signature, repeated: entry.repeated, interval_ms: this.intervalMs },
        `${entry.message} (repeated)`,
      );
      entry.repeated = 0;
    }
    if (this.untracked > 0) {
      this.logger.error(
        { repeated: this.untracked, interval_ms: this.intervalMs },
        'errors of too many different signatures to log each',
      );
      this.untracked = 0;
    }
    if (this.entries.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.flush(), this.intervalMs);
    this.timer.unref();
  }
}

/** What makes two errors "the same": where they were logged, their class, their message's shape and origin. */
function signatureOf(message: string, error: unknown): string {
  if (!(error instanceof Error)) return `${message} | ${typeof error}`;
  const origin = /\n\s+at [^\n]*/.exec(error.stack ?? '')?.[0].trim() ?? '';
  const shape = error.message.slice(0, 200).replace(/\d+/g, '#');
  return `${message} | ${error.name}: ${shape} | ${origin}`;
}

/**
 * An error as a log line holds it: of the same class (for the logger's serializer), with
 * its message and stack cut to size, its code, and its cause described the same way.
 */
function describeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return String(error).slice(0, MAX_MESSAGE_CHARS);
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error & { code?: unknown };
  copy.name = error.name;
  copy.message = error.message.slice(0, MAX_MESSAGE_CHARS);
  copy.stack = [`${error.name}: ${error.message.slice(0, 200)}`, ...frames]
    .join('\n')
    .slice(0, MAX_STACK_CHARS);
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' || typeof code === 'string') copy.code = code;
  if (error.cause !== undefined && depth < 2) copy.cause = describeError(error.cause, depth + 1);
  return copy;
}
