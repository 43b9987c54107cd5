import { RE2JS } from 're2js';
import { MAX_REGEX_PROGRAM_SIZE } from './automod-limits';

/** A compiled regex of a rule, or why it is refused. */
export type CompiledRegex = { ok: true; regex: RE2JS } | { ok: false; reason: string };

/**
 * Compiles a rule's regex pattern with RE2 semantics (re2js: a pure-JavaScript port of RE2,
 * whose matching time is linear in the text, never backtracking), case-insensitive as
 * Discord matches keywords ([Inf]: Discord documents Rust's `regex` crate, which is RE2's
 * family: no backreferences nor lookaround). A pattern that does not parse, or whose program
 * is past MAX_REGEX_PROGRAM_SIZE (nested counted repeats), is refused, so that every rule's
 * scan of a message is bounded and linear.
 */
export function compileRegex(pattern: string): CompiledRegex {
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'invalid pattern' };
  }
  if (regex.programSize() > MAX_REGEX_PROGRAM_SIZE) {
    return { ok: false, reason: 'pattern too complex' };
  }
  return { ok: true, regex };
}
