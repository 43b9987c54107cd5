/**
 * One keyword as Discord reads it (D:resources/auto-moderation.mdx §Keyword Matching
 * Strategies): `cat` is the whole word, `cat*` a word starting with it, `*cat` a word ending
 * with it, `*cat*` anywhere; case-insensitive.
 */
interface Keyword {
  /** The keyword as written (what `matched_keyword` reports). */
  source: string;
  /** Its text without the wildcards, lower-cased. */
  text: string;
  /** Must start a word (no leading `*`). */
  atWordStart: boolean;
  /** Must end a word (no trailing `*`). */
  atWordEnd: boolean;
}

/** A keyword found in a text: the keyword as written and the text it matched. */
export interface KeywordMatch {
  keyword: string;
  /** What of the text matched (the keyword's span, the original case). */
  content: string;
}

/** Letters, marks, numbers and `_` make words; anything else separates them. */
const WORD_CHARACTER = /[\p{L}\p{M}\p{N}_]/u;

function isWordCharacter(text: string, index: number): boolean {
  const char = text[index];
  return char !== undefined && WORD_CHARACTER.test(char);
}

interface Node {
  next: Map<string, number>;
  fail: number;
  /** Keywords ending at this node (its own, then those of its failure chain). */
  out: number[];
}

/**
 * A set of keywords compiled into one Aho-Corasick automaton: `find` reads a text once
 * (linear in its length plus the candidate matches, whatever the number of keywords), so a
 * guild's 6 rules of 1,000 keywords cost about six passes over the message, not 6,000.
 * Candidates are then checked against their wildcard's word boundaries.
 */
export class KeywordMatcher {
  private readonly keywords: Keyword[];
  private readonly nodes: Node[] = [{ next: new Map(), fail: 0, out: [] }];

  constructor(sources: readonly string[]) {
    this.keywords = sources.flatMap((source) => {
      const keyword = parseKeyword(source);
      return keyword ? [keyword] : [];
    });
    this.keywords.forEach((keyword, index) => this.insert(keyword.text, index));
    this.link();
  }

  /** Whether there is no keyword to look for. */
  get isEmpty(): boolean {
    return this.keywords.length === 0;
  }

  /**
   * The first keyword match in `text` (by where it ends) that `allowed` does not excuse,
   * or undefined. `allowed` receives the matched span.
   */
  find(text: string, allowed: (span: string) => boolean = () => false): KeywordMatch | undefined {
    const lower = lowerCaseOf(text);
    let words: WordBounds | undefined;
    let state = 0;
    for (let index = 0; index < lower.length; index += 1) {
      const char = lower[index] as string;
      state = this.step(state, char);
      for (const keywordIndex of (this.nodes[state] as Node).out) {
        const keyword = this.keywords[keywordIndex] as Keyword;
        const start = index + 1 - keyword.text.length;
        if (keyword.atWordStart && isWordCharacter(lower, start - 1)) continue;
        if (keyword.atWordEnd && isWordCharacter(lower, index + 1)) continue;
        words ??= wordBoundsOf(lower);
        const span = spanOf(text, words, start, index + 1, keyword);
        if (allowed(span)) continue;
        return { keyword: keyword.source, content: span };
      }
    }
    return undefined;
  }

  private step(state: number, char: string): number {
    let current = state;
    for (;;) {
      const next = (this.nodes[current] as Node).next.get(char);
      if (next !== undefined) return next;
      if (current === 0) return 0;
      current = (this.nodes[current] as Node).fail;
    }
  }

  private insert(text: string, keywordIndex: number): void {
    let state = 0;
    for (const char of text.split('')) {
      const node = this.nodes[state] as Node;
      let next = node.next.get(char);
      if (next === undefined) {
        next = this.nodes.length;
        this.nodes.push({ next: new Map(), fail: 0, out: [] });
        node.next.set(char, next);
      }
      state = next;
    }
    (this.nodes[state] as Node).out.push(keywordIndex);
  }

  // Breadth first: each node's failure link is the longest proper suffix that is a prefix.
  private link(): void {
    const queue: number[] = [...(this.nodes[0] as Node).next.values()];
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head] as number;
      const node = this.nodes[state] as Node;
      for (const [char, child] of node.next) {
        const childNode = this.nodes[child] as Node;
        childNode.fail = state === 0 ? 0 : this.step(node.fail, char);
        if (childNode.fail === child) childNode.fail = 0;
        childNode.out.push(...(this.nodes[childNode.fail] as Node).out);
        queue.push(child);
      }
    }
  }
}

/** A keyword's wildcards and text; undefined for one that is only wildcards. */
function parseKeyword(source: string): Keyword | undefined {
  const leading = source.startsWith('*');
  const trailing = source.length > 1 && source.endsWith('*');
  const text = lowerCaseOf(source.slice(leading ? 1 : 0, trailing ? -1 : undefined));
  if (text === '') return undefined;
  return { source, text, atWordStart: !leading, atWordEnd: !trailing };
}

/**
 * Lower case, one UTF-16 unit for one: a character whose lower case is longer (U+0130)
 * stays as it is, so that offsets in the lower-cased text are offsets in the original.
 */
function lowerCaseOf(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let result = '';
  for (const char of text) {
    const small = char.toLowerCase();
    result += small.length === char.length ? small : char;
  }
  return result;
}

/** For each offset of a text: where the word holding it starts, and where it ends. */
interface WordBounds {
  start: Int32Array;
  end: Int32Array;
}

/** The word bounds of every offset, in two passes (so that widening a match costs nothing). */
function wordBoundsOf(lower: string): WordBounds {
  const start = new Int32Array(lower.length + 1);
  const end = new Int32Array(lower.length + 1);
  for (let index = 0; index <= lower.length; index += 1) {
    start[index] = index > 0 && isWordCharacter(lower, index - 1) ? (start[index - 1] as number) : index;
  }
  for (let index = lower.length; index >= 0; index -= 1) {
    end[index] = isWordCharacter(lower, index) ? (end[index + 1] as number) : index;
  }
  return { start, end };
}

/** The matched word: the keyword's span, widened to the whole word on a wildcard's side. */
function spanOf(text: string, words: WordBounds, start: number, end: number, keyword: Keyword): string {
  const from = keyword.atWordStart ? start : (words.start[start] as number);
  const to = keyword.atWordEnd ? end : (words.end[end] as number);
  return text.slice(from, to);
}
