// Locales of localization dictionaries and of the requester (facts §5).

/**
 * The 34 locales of the OAS `AvailableLocalesEnum`: the 32 of the docs in the docs' order
 * (the order BASE_TYPE_CHOICES messages list them in), then `ar` and `he`.
 */
export const SUPPORTED_LOCALES = [
  'id',
  'da',
  'de',
  'en-GB',
  'en-US',
  'es-ES',
  'es-419',
  'fr',
  'hr',
  'it',
  'lt',
  'hu',
  'nl',
  'no',
  'pl',
  'pt-BR',
  'ro',
  'fi',
  'sv-SE',
  'vi',
  'tr',
  'cs',
  'el',
  'bg',
  'ru',
  'uk',
  'hi',
  'th',
  'zh-CN',
  'ja',
  'zh-TW',
  'ko',
  'ar',
  'he',
] as const;

export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** A localization dictionary: locale → localized value. */
export type Localizations = Partial<Record<Locale, string>>;

const LOCALE_SET: ReadonlySet<string> = new Set(SUPPORTED_LOCALES);
const LOCALE_BY_LOWER: ReadonlyMap<string, Locale> = new Map(
  SUPPORTED_LOCALES.map((l) => [l.toLowerCase(), l]),
);

/** Command-localization fallbacks: a missing locale falls back to this one (D: §Locale fallbacks). */
export const LOCALE_FALLBACKS: Readonly<Partial<Record<Locale, Locale>>> = {
  'en-US': 'en-GB',
  'en-GB': 'en-US',
  'es-419': 'es-ES',
};

// Bare language tags (and the regions we can place) mapped to the locale a requester most likely means.
const LANGUAGE_DEFAULTS: ReadonlyMap<string, Locale> = new Map([
  ['en', 'en-US'],
  ['es', 'es-ES'],
  ['pt', 'pt-BR'],
  ['sv', 'sv-SE'],
  ['zh', 'zh-CN'],
  ['zh-hans', 'zh-CN'],
  ['zh-sg', 'zh-CN'],
  ['zh-hant', 'zh-TW'],
  ['zh-hk', 'zh-TW'],
  ['zh-mo', 'zh-TW'],
  ['nb', 'no'],
  ['nn', 'no'],
  ['iw', 'he'],
]);

/** Whether a string is exactly one of the supported locales (case-sensitive, as in dictionaries). */
export function isLocale(value: string): value is Locale {
  return LOCALE_SET.has(value);
}

/** The `('id', 'da', …)` list that BASE_TYPE_CHOICES messages show for a bad locale key. */
export function formatLocaleChoices(): string {
  return `(${SUPPORTED_LOCALES.map((l) => `'${l}'`).join(', ')})`;
}

/**
 * The localized value a requester in `locale` sees: the locale's own entry, else its
 * fallback's (en-US↔en-GB, es-419→es-ES), else undefined (the default applies).
 */
export function pickLocalization(
  localizations: Localizations | null | undefined,
  locale: Locale | undefined,
): string | undefined {
  if (!localizations || locale === undefined) return undefined;
  const own = localizations[locale];
  if (own !== undefined) return own;
  const fallback = LOCALE_FALLBACKS[locale];
  return fallback === undefined ? undefined : localizations[fallback];
}

/** Maps one language tag (e.g. `fr-CA`, `en`, `zh-Hant-TW`) to a supported locale, if any. */
export function matchLocale(tag: string): Locale | undefined {
  const lower = tag.trim().toLowerCase().replace(/_/g, '-');
  if (lower === '') return undefined;
  const exact = LOCALE_BY_LOWER.get(lower);
  if (exact) return exact;
  const [language, second] = lower.split('-');
  if (language === undefined) return undefined;
  const withSecond = second === undefined ? undefined : LANGUAGE_DEFAULTS.get(`${language}-${second}`);
  if (withSecond) return withSecond;
  // Any Spanish region other than Spain is Latin American Spanish.
  if (language === 'es' && second !== undefined && /^[a-z]{2}$|^\d{3}$/.test(second)) return 'es-419';
  return LOCALE_BY_LOWER.get(language) ?? LANGUAGE_DEFAULTS.get(language);
}

/** Parses an Accept-Language value into tags, best first (q=0 entries dropped). */
export function parseAcceptLanguage(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';').map((s) => s.trim());
      const qParam = params.find((p) => p.toLowerCase().startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { tag, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/**
 * The requester's locale from candidates in priority order: `X-Discord-Locale`, then
 * `Accept-Language`, then the user's setting (D: §Retrieving localized commands). Each
 * candidate may be a single tag or an Accept-Language list; the first that maps to a
 * supported locale wins.
 */
export function resolveLocale(candidates: readonly (string | null | undefined)[]): Locale | undefined {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const tag of parseAcceptLanguage(candidate)) {
      const locale = matchLocale(tag);
      if (locale) return locale;
    }
  }
  return undefined;
}
