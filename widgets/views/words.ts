import type { Strings } from '../i18n';

// The widgets' words (widgets/i18n.ts) each view shows. A widget page carries one language, picked
// by the server from its URL; a view learns the reader's locale from the host only once it runs, so
// its document carries these keys in every language the widgets speak, and nothing else of them.

export const PRICE_WORDS = [
  'gold',
  'priceTitle',
  'priceUnavailable',
  'sinceClose',
  'changeTitle',
  'updated',
  'noPrice',
  'stale',
  'marketClosed',
  'reopens',
  'perOz',
  'perGram',
  'perKg',
  'perTola',
  'perTael',
  'perBaht',
] as const satisfies readonly (keyof Strings)[];

export const CHART_WORDS = [
  'gold',
  'silver',
  'platinum',
  'palladium',
  'bitcoin',
  'dxy',
  'oil',
  'chartTitle',
  'range',
  'r1mo',
  'r3mo',
  'r1y',
  'r5y',
  'rMax',
  'chartUnavailable',
  'recording',
  'updated',
  'stale',
  // What the line is, and the units it is in (decisions §25).
  'lineIntraday',
  'lineSpot',
  'lineFutures',
  'lineMonthly',
  'abbrOz',
  'abbrGram',
  'abbrKg',
  'abbrTola',
  'abbrTael',
  'abbrBaht',
] as const satisfies readonly (keyof Strings)[];

/** One language's words for a view, and its direction. */
export interface LanguageText {
  dir: 'ltr' | 'rtl';
  t: Partial<Strings>;
}

/** What a view's document hands its script (`#gw-config`): the service's version and the words of every language, by language. */
export interface ViewConfig {
  version: string;
  text: Record<string, LanguageText>;
}
