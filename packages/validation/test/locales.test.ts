import {
  LOCALE_FALLBACKS,
  SUPPORTED_LOCALES,
  isLocale,
  matchLocale,
  parseAcceptLanguage,
  pickLocalization,
  resolveLocale,
} from '../src';

describe('SUPPORTED_LOCALES', () => {
  it('holds the 34 locales of the OAS, docs order first, then ar and he', () => {
    expect(SUPPORTED_LOCALES).toHaveLength(34);
    expect(new Set(SUPPORTED_LOCALES).size).toBe(34);
    expect(SUPPORTED_LOCALES.slice(0, 7)).toEqual(['id', 'da', 'de', 'en-GB', 'en-US', 'es-ES', 'es-419']);
    expect(SUPPORTED_LOCALES.slice(-4)).toEqual(['zh-TW', 'ko', 'ar', 'he']);
  });

  it('isLocale is exact and case-sensitive', () => {
    expect(isLocale('pt-BR')).toBe(true);
    expect(isLocale('pt-br')).toBe(false);
    expect(isLocale('pt_BR')).toBe(false);
    expect(isLocale('toString')).toBe(false);
  });
});

describe('pickLocalization', () => {
  const dict = { 'en-GB': 'colour', 'es-ES': 'color ES', fr: 'couleur' };

  it.each([
    ['fr', 'couleur'],
    ['en-GB', 'colour'],
    ['en-US', 'colour'],
    ['es-419', 'color ES'],
    ['de', undefined],
  ] as const)('%s → %p', (locale, expected) => {
    expect(pickLocalization(dict, locale)).toBe(expected);
  });

  it('prefers the own locale over the fallback', () => {
    expect(pickLocalization({ 'en-US': 'color', 'en-GB': 'colour' }, 'en-US')).toBe('color');
  });

  it('has exactly the documented fallbacks', () => {
    expect(LOCALE_FALLBACKS).toEqual({ 'en-US': 'en-GB', 'en-GB': 'en-US', 'es-419': 'es-ES' });
  });

  it('answers undefined without a dictionary or a locale', () => {
    expect(pickLocalization(null, 'fr')).toBeUndefined();
    expect(pickLocalization(dict, undefined)).toBeUndefined();
  });
});

describe('resolveLocale', () => {
  it.each([
    ['fr', 'fr'],
    ['pt-br', 'pt-BR'],
    ['en', 'en-US'],
    ['en-AU', 'en-US'],
    ['es-MX', 'es-419'],
    ['es', 'es-ES'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-TW', 'zh-TW'],
    ['zh', 'zh-CN'],
    ['nb-NO', 'no'],
    ['sv', 'sv-SE'],
    ['fr-CA', 'fr'],
    ['ja_JP', 'ja'],
    ['xx', undefined],
  ])('matchLocale(%p) → %p', (tag, expected) => {
    expect(matchLocale(tag)).toBe(expected);
  });

  it('orders Accept-Language by quality, dropping q=0 and *', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de, *;q=0.1, it;q=0, ja;q=0.8')).toEqual(['de', 'ja', 'fr']);
  });

  it('takes X-Discord-Locale first, then Accept-Language, then the user setting', () => {
    expect(resolveLocale(['ko', 'fr', 'de'])).toBe('ko');
    expect(resolveLocale([undefined, 'xx-YY, de;q=0.9', 'fr'])).toBe('de');
    expect(resolveLocale([null, '', 'fr'])).toBe('fr');
    expect(resolveLocale(['bogus', 'qq', 'zz'])).toBeUndefined();
    expect(resolveLocale([])).toBeUndefined();
  });
});
