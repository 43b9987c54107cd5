import { KeywordMatcher } from '../../../src/domain/automod';

const find = (keywords: string[], text: string, allow: string[] = []) => {
  const allowed = new KeywordMatcher(allow);
  return new KeywordMatcher(keywords).find(text, (span) => allowed.find(span) !== undefined);
};

describe('KeywordMatcher (Discord keyword matching strategies)', () => {
  it('matches a plain keyword as a whole word only, case-insensitively', () => {
    expect(find(['cat'], 'my CAT is here')).toEqual({ keyword: 'cat', content: 'CAT' });
    expect(find(['cat'], 'cat.')).toEqual({ keyword: 'cat', content: 'cat' });
    expect(find(['cat'], 'catch me')).toBeUndefined();
    expect(find(['cat'], 'concat')).toBeUndefined();
  });

  it('matches `cat*` at the start of a word and reports the whole word', () => {
    expect(find(['cat*'], 'a catapult flies')).toEqual({ keyword: 'cat*', content: 'catapult' });
    expect(find(['cat*'], 'concat')).toBeUndefined();
  });

  it('matches `*cat` at the end of a word', () => {
    expect(find(['*cat'], 'use concat now')).toEqual({ keyword: '*cat', content: 'concat' });
    expect(find(['*cat'], 'catapult')).toBeUndefined();
  });

  it('matches `*cat*` anywhere', () => {
    expect(find(['*cat*'], 'educational')).toEqual({ keyword: '*cat*', content: 'educational' });
    expect(find(['*cat*'], 'dog')).toBeUndefined();
  });

  it('matches phrases with spaces and keywords that overlap', () => {
    expect(find(['free nitro'], 'get FREE nitro here')).toEqual({
      keyword: 'free nitro',
      content: 'FREE nitro',
    });
    expect(find(['he', 'she', 'hers'], 'ushers')).toBeUndefined();
    expect(find(['he', 'she', 'hers'], 'is hers')).toEqual({ keyword: 'hers', content: 'hers' });
    expect(find(['abcd', 'bc'], 'x bc y')).toEqual({ keyword: 'bc', content: 'bc' });
  });

  it('lets the allow list excuse a match, not others', () => {
    expect(find(['cat*'], 'catapult', ['catapult'])).toBeUndefined();
    expect(find(['cat*'], 'catapult and cats', ['catapult'])).toEqual({ keyword: 'cat*', content: 'cats' });
  });

  it('keeps offsets of text whose lower case is longer', () => {
    expect(find(['bad'], 'İ bad')).toEqual({ keyword: 'bad', content: 'bad' });
  });

  it('ignores keywords made only of wildcards', () => {
    const matcher = new KeywordMatcher(['*', '**']);
    expect(matcher.isEmpty).toBe(true);
    expect(matcher.find('anything')).toBeUndefined();
  });

  it('finds one of 1,000 keywords in a long message', () => {
    const keywords = Array.from({ length: 1000 }, (_, i) => `word${i}x`);
    const text = `${'lorem ipsum '.repeat(150)} WORD999X`;
    expect(new KeywordMatcher(keywords).find(text)).toEqual({ keyword: 'word999x', content: 'WORD999X' });
  });
});
