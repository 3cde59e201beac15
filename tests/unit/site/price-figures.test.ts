import { describe, expect, it } from 'vitest';
import type { DataState } from '@/lib/schemas/common';
import { headlineChars, isLive, textsOf, type Figures, type PageWords } from '@/site/price-figures';
import { LANGUAGES, PAGE_STRINGS, STRINGS } from '@/widgets/i18n';
import { fixture } from '../../support/fake-upstream';

// A price page's freshness pill (decisions §33): "live" only when the metal's price is fresh and, in a currency other
// than USD, the exchange rate is too (spot's `fx_stale` false); otherwise it says in words how old the rate is, in every
// language. And the headline in spot's own decimals. The figures are the fixtures' real numbers.

const gold = fixture('goldapi-price-XAU.json');
const fx = fixture('er-api-latest-USD.json');
/** The bundled table's date: the recorded FX body's own. */
const SNAPSHOT_AS_OF = new Date(fx.time_last_update_unix * 1000).toISOString();
const NOW = Date.parse(gold.updatedAt) + 8_000;

const state = (status: DataState['status'], asOf: number | string | null, source: DataState['source'] = 'cache'): DataState => ({
  status,
  as_of: asOf === null ? null : new Date(asOf).toISOString(),
  source: status === 'unavailable' ? null : source,
  age_seconds: null,
});
const words = (lang: (typeof LANGUAGES)[number], locale = lang): PageWords => ({ t: STRINGS[lang], p: PAGE_STRINGS[lang], lang, locale });

/** Gold per gram in `currency` at the fixture's rate, with the metal's and the rate's states. */
function figures(currency: string, metal: DataState, rate: DataState | null): Figures {
  const price = Math.round(((gold.price * fx.rates[currency]) / 31.1034768) * 1e4) / 1e4;
  const none = { price: null, pct: null };
  return {
    metal: 'gold',
    currency,
    unit: 'gram',
    price,
    state: metal,
    change: null,
    parts: null,
    high: null,
    low: null,
    metals: { gold: { price, pct: null }, silver: none, platinum: none, palladium: none },
    karats: null,
    per10g: null,
    bid: null,
    ask: null,
    market: null,
    fxRate: fx.rates[currency],
    fx: currency === 'USD' ? null : rate,
  };
}

const fresh = state('fresh', gold.updatedAt, 'upstream');
const threeHoursOld = state('stale', NOW - 3 * 3600_000);
const bundled = state('stale', SNAPSHOT_AS_OF, 'snapshot');

describe('the freshness pill', () => {
  it('"live" when the metal and the rate are fresh; in USD whatever the rate', () => {
    const en = words('en');
    expect(textsOf(figures('EUR', fresh, state('fresh', SNAPSHOT_AS_OF, 'upstream')), en, NOW).state).toBe('live');
    expect(isLive(figures('EUR', fresh, state('fresh', SNAPSHOT_AS_OF, 'upstream')))).toBe(true);
    expect(textsOf(figures('USD', fresh, bundled), en, NOW).state).toBe('live');
    expect(isLive(figures('USD', fresh, bundled))).toBe(true);
  });

  it('a rate from the last live table past its time: not live, its age in words', () => {
    const f = figures('EUR', fresh, threeHoursOld);
    expect(isLive(f)).toBe(false);
    expect(textsOf(f, words('en'), NOW).state).toBe('live in US dollars · exchange rate from 3 hours ago');
  });

  it('the bundled table: not live, its date in words; with a stale metal price, both said', () => {
    expect(textsOf(figures('JPY', fresh, bundled), words('en'), NOW).state).toBe('live in US dollars · exchange rate of Jun 2, 2026');
    const stale = figures('JPY', state('stale', NOW - 5 * 60_000), bundled);
    expect(isLive(stale)).toBe(false);
    expect(textsOf(stale, words('en'), NOW).state).toBe('Stale · 5 minutes ago · exchange rate of Jun 2, 2026');
  });

  it('in every language: a stale rate is never called live, and its date or age is written in the page’s locale', () => {
    for (const lang of LANGUAGES) {
      const w = words(lang);
      const live = textsOf(figures('INR', fresh, state('fresh', SNAPSHOT_AS_OF, 'upstream')), w, NOW).state;
      expect(live, lang).toBe(PAGE_STRINGS[lang].live);
      const old = textsOf(figures('INR', fresh, bundled), w, NOW).state;
      expect(old, lang).not.toBe(live);
      expect(old, lang).toContain(new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(SNAPSHOT_AS_OF)));
      const aged = textsOf(figures('INR', fresh, threeHoursOld), w, NOW).state;
      expect(aged, lang).toContain(new Intl.RelativeTimeFormat(lang, { numeric: 'always' }).format(-3, 'hour'));
    }
  });
});

describe('the headline', () => {
  it('is spot’s number with spot’s decimals (gram 4) in every currency: a yen per gram keeps its four', () => {
    for (const currency of ['JPY', 'KRW', 'EUR', 'INR', 'VND']) {
      const f = figures(currency, fresh, fresh);
      const text = textsOf(f, words('en'), NOW).price;
      expect(text.replace(/[^\d.]/g, ''), currency).toBe(f.price!.toFixed(4));
    }
  });

  it('counts the characters it shows, not the marks that steer its direction', () => {
    const f = figures('AED', fresh, fresh);
    const text = textsOf(f, words('ar'), NOW).price;
    expect(headlineChars(text)).toBe([...text].filter((c) => !['\u200e', '\u200f', '\u061c'].includes(c)).length);
    expect(headlineChars('')).toBe(1);
  });
});
