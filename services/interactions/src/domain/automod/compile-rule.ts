import { RE2JS } from 're2js';
import { TriggerType, type AutoModRule } from './automod-rule';
import { compileRegex } from './compile-regex';
import { KeywordMatcher } from './keyword-matcher';
import { KEYWORD_PRESET_WORDS } from './keyword-presets';

/** What a rule found in a message: the keyword (or pattern) and the text it matched. */
export interface RuleMatch {
  /** The keyword or regex pattern as written; null for MENTION_SPAM. */
  keyword: string | null;
  /** The text that matched; null for MENTION_SPAM. */
  content: string | null;
}

/** What a message is judged on: its text and whom it mentions. */
export interface JudgedMessage {
  content: string;
  /** Distinct users mentioned by `<@id>`/`<@!id>` in the content. */
  mentionedUserIds: ReadonlySet<string>;
  /** Distinct roles mentioned by `<@&id>` in the content. */
  mentionedRoleIds: ReadonlySet<string>;
}

/** A rule ready to judge messages: its object and its matcher. */
export interface CompiledRule {
  rule: AutoModRule;
  match(message: JudgedMessage): RuleMatch | undefined;
}

/**
 * Compiles a stored rule (its patterns were accepted at creation, so each compiles):
 * KEYWORD's keywords into one automaton and its patterns into RE2 programs (linear time),
 * excused by the allow list; KEYWORD_PRESET's preset words the same way; MENTION_SPAM
 * counts unique user and role mentions past `mention_total_limit`. SPAM (Discord's ML
 * classifier) and MEMBER_PROFILE (no profile edits in ACS) never match a message.
 */
export function compileRule(rule: AutoModRule): CompiledRule {
  const metadata = rule.trigger_metadata;
  switch (rule.trigger_type) {
    case TriggerType.KEYWORD: {
      const keywords = new KeywordMatcher(metadata.keyword_filter ?? []);
      const patterns = (metadata.regex_patterns ?? []).flatMap((source) => {
        const compiled = compileRegex(source);
        return compiled.ok ? [{ source, regex: compiled.regex }] : [];
      });
      const allowed = allowedBy(metadata.allow_list ?? []);
      const anyPattern = combinedOf(patterns.map((pattern) => pattern.source));
      return {
        rule,
        match: ({ content }) => {
          const found = keywords.isEmpty ? undefined : keywords.find(content, allowed);
          if (found) return { keyword: found.keyword, content: found.content };
          // One scan for all the rule's patterns; which one matched is asked only on a hit.
          if (anyPattern && !anyPattern.test(content)) return undefined;
          return matchPatterns(patterns, content, allowed);
        },
      };
    }
    case TriggerType.KEYWORD_PRESET: {
      const words = (metadata.presets ?? []).flatMap((preset) => KEYWORD_PRESET_WORDS[preset]);
      const matcher = new KeywordMatcher(words);
      const allowed = allowedBy(metadata.allow_list ?? []);
      return {
        rule,
        match: ({ content }) => {
          const found = matcher.isEmpty ? undefined : matcher.find(content, allowed);
          return found ? { keyword: found.keyword, content: found.content } : undefined;
        },
      };
    }
    case TriggerType.MENTION_SPAM: {
      const limit = metadata.mention_total_limit ?? 0;
      return {
        rule,
        match: ({ mentionedUserIds, mentionedRoleIds }) =>
          limit > 0 && mentionedUserIds.size + mentionedRoleIds.size > limit
            ? { keyword: null, content: null }
            : undefined,
      };
    }
    case TriggerType.SPAM:
    case TriggerType.MEMBER_PROFILE:
      return { rule, match: () => undefined };
  }
}

/**
 * The rule's patterns as one alternation (RE2 scans a text once for all of them, about ten
 * times less work than ten scans); undefined for none, or should the union not compile.
 */
function combinedOf(sources: readonly string[]): RE2JS | undefined {
  if (sources.length === 0) return undefined;
  try {
    return RE2JS.compile(sources.map((source) => `(?:${source})`).join('|'), RE2JS.CASE_INSENSITIVE);
  } catch {
    return undefined;
  }
}

/** Whether the allow list excuses a matched span: one of its entries is found in the span. */
function allowedBy(allowList: readonly string[]): (span: string) => boolean {
  if (allowList.length === 0) return () => false;
  const matcher = new KeywordMatcher(allowList);
  return (span) => matcher.find(span) !== undefined;
}

/** The first pattern with a match the allow list does not excuse (each scan linear: RE2). */
function matchPatterns(
  patterns: readonly { source: string; regex: RE2JS }[],
  content: string,
  allowed: (span: string) => boolean,
): RuleMatch | undefined {
  for (const { source, regex } of patterns) {
    const matcher = regex.matcher(content);
    // find() goes on after the previous match (past an empty one): one pass over the content.
    while (matcher.find()) {
      const span = matcher.group() ?? '';
      if (span !== '' && !allowed(span)) return { keyword: source, content: span };
    }
  }
  return undefined;
}
