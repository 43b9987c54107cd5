import type { KeywordPreset } from './automod-rule';

/**
 * The words of Discord's keyword presets (D:resources/auto-moderation.mdx §Keyword Preset
 * Types). Discord's lists are not published; these are ACS's own, deliberately small
 * (a test double of Discord's, documented as such in the README): enough for a bot's test to
 * see a preset rule fire, not a moderation product. Written in keyword syntax (`word*`
 * matches the word and its inflections).
 */
export const KEYWORD_PRESET_WORDS: Readonly<Record<KeywordPreset, readonly string[]>> = {
  // 1 PROFANITY: "words that may be considered forms of swearing or cursing".
  1: [
    'fuck*',
    'shit*',
    'bullshit*',
    'motherfuck*',
    'asshole*',
    'bitch*',
    'bastard*',
    'dickhead*',
    'crap',
    'damn*',
  ],
  // 2 SEXUAL_CONTENT: "words that refer to sexually explicit behavior or activity".
  2: [
    'porn*',
    'blowjob*',
    'handjob*',
    'dildo*',
    'cumshot*',
    'nudes',
    'sexting',
    'hentai*',
    'masturbat*',
    'orgasm*',
  ],
  // 3 SLURS: "personal insults or words that may be considered hate speech". A short list of
  // well-known slurs, as found in public moderation word lists.
  3: ['fag', 'faggot*', 'retard', 'retards', 'tranny*', 'nigger*', 'kike*', 'chink*', 'spic', 'wetback*'],
};
