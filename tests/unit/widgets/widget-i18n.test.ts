import { describe, expect, it } from 'vitest';
import { KARATS, purity } from '@/lib/reference/karats';
import { rateText, resultText, unitPrice } from '@/widgets/converter';
import { fill } from '@/widgets/format';
import { LANGUAGES, languageOf, STRINGS, textFor, type Language } from '@/widgets/i18n';

// The widgets' words: every language complete, nothing left in English, the right language for a locale.

const en = STRINGS.en;
const keys = Object.keys(en) as (keyof typeof en)[];
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/**
 * Where a language really writes what English writes: unit symbols, names (tola, tael and baht are their own names, as are the
 * Vietnamese chỉ and lượng, the Korean don and pennyweight in the languages that borrow it), and range abbreviations that coincide.
 */
const NAMES = ['unitTola', 'unitTael', 'unitBaht', 'abbrTola', 'abbrTael', 'abbrBaht', 'unitChi', 'unitLuong', 'unitDon', 'unitDwt'] as const;
const ABBREVIATIONS = ['abbrChi', 'abbrLuong', 'abbrDon', 'abbrPavan', 'abbrDwt'] as const;
const SAME_AS_ENGLISH: Record<Exclude<Language, 'en'>, (keyof typeof en)[]> = {
  de: ['gold', 'bitcoin', 'palladium', 'r1mo', 'r3mo', 'r6mo', 'abbrGram', 'abbrKg', 'abbrDwt'],
  fr: ['bitcoin', 'palladium', 'r1mo', 'r3mo', 'r6mo', 'abbrGram', 'abbrKg', ...NAMES, ...ABBREVIATIONS, 'unitGrain', 'abbrGrain'],
  es: ['bitcoin', 'r1d', 'r5d', 'r1mo', 'r3mo', 'r6mo', 'abbrGram', 'abbrKg', 'metal', ...NAMES, ...ABBREVIATIONS],
  it: ['bitcoin', 'r1mo', 'r3mo', 'r6mo', 'abbrGram', 'abbrKg', ...NAMES, ...ABBREVIATIONS],
  pt: ['bitcoin', 'r1d', 'r5d', 'r1mo', 'r3mo', 'r6mo', 'abbrGram', 'abbrKg', 'metal', ...NAMES, ...ABBREVIATIONS],
  tr: ['bitcoin', 'r1y', 'r5y', 'r10y', 'unitGram', 'unitKg', 'abbrGram', 'abbrKg', 'metal', ...NAMES, ...ABBREVIATIONS],
  ar: [],
  hi: [],
  zh: [],
  ja: ['abbrGram', 'abbrKg', 'abbrDwt'],
};

/** English words that must not appear inside any other language's strings. */
const ENGLISH_WORDS = [
  'price',
  'gold',
  'silver',
  'updated',
  'ago',
  'stale',
  'unavailable',
  'received',
  'market',
  'closed',
  'reopens',
  'convert',
  'amount',
  'currency',
  'weight',
  'purity',
  'money',
  'buys',
  'worth',
  'chart',
  'range',
  'samples',
  'recorded',
  'troy oz',
  'ounce',
  'per',
  'day',
  'enter',
  'index',
  'crude',
  'latest',
  'change',
  'series',
  'needs',
  'right now',
];
/** Words that are also words of that language. */
const SHARED_WORDS: Partial<Record<Language, string[]>> = { de: ['gold', 'index'], fr: ['change'] /* taux de change */ };

describe('widget translations', () => {
  it('cover the eleven languages', () => {
    expect(LANGUAGES.sort()).toEqual(['ar', 'de', 'en', 'es', 'fr', 'hi', 'it', 'ja', 'pt', 'tr', 'zh']);
  });

  it('include the market-hours strings the price widget shows when the market is closed', () => {
    expect(en.marketClosed).toBe('Market closed');
    expect(en.reopens).toBe('Reopens {time}');
  });

  for (const lang of LANGUAGES) {
    it(`${lang}: every key, non-empty, with the same placeholders as English`, () => {
      const t = STRINGS[lang];
      expect(Object.keys(t).sort()).toEqual([...keys].sort());
      for (const k of keys) {
        expect(t[k].trim().length, k).toBeGreaterThan(0);
        expect(placeholders(t[k]), `${lang}.${k}`).toEqual(placeholders(en[k]));
      }
    });
  }

  for (const lang of LANGUAGES.filter((l): l is Exclude<Language, 'en'> => l !== 'en')) {
    it(`${lang}: no English string or word left`, () => {
      const t = STRINGS[lang];
      const same = keys.filter((k) => t[k] === en[k]);
      expect(same.sort()).toEqual([...SAME_AS_ENGLISH[lang]].sort());
      for (const k of keys) {
        if (SAME_AS_ENGLISH[lang].includes(k)) continue;
        const words = t[k].replace(/\{\w+\}/g, ' ');
        for (const word of ENGLISH_WORDS.filter((w) => !SHARED_WORDS[lang]?.includes(w))) {
          expect(new RegExp(`(?<!\\p{L})${word}(?!\\p{L})`, 'iu').test(words), `${lang}.${k} = "${t[k]}" contains "${word}"`).toBe(false);
        }
      }
    });
  }
});

describe('the language of a locale', () => {
  it('is picked by the primary subtag, in any case', () => {
    expect(languageOf('de-DE')).toBe('de');
    expect(languageOf('de-CH')).toBe('de');
    expect(languageOf('pt-BR')).toBe('pt');
    expect(languageOf('zh-CN')).toBe('zh');
    expect(languageOf('zh-TW')).toBe('zh');
    expect(languageOf('zh-Hant-TW')).toBe('zh');
    expect(languageOf('AR-eg')).toBe('ar');
    expect(languageOf('ja')).toBe('ja');
  });

  it('is none for a language without translations, or a look-alike', () => {
    expect(languageOf('ko-KR')).toBeNull();
    expect(languageOf('nl')).toBeNull();
    expect(languageOf('deu')).toBeNull();
    expect(languageOf('constructor')).toBeNull();
    expect(languageOf('')).toBeNull();
  });

  it('sets the page language and direction: the asked locale when translated, right to left for Arabic', () => {
    expect(textFor('de-DE')).toEqual({ lang: 'de-DE', dir: 'ltr', t: STRINGS.de });
    expect(textFor('ar-EG')).toEqual({ lang: 'ar-EG', dir: 'rtl', t: STRINGS.ar });
    expect(textFor('hi-IN').dir).toBe('ltr');
    expect(textFor('zh-CN').lang).toBe('zh-CN');
    // Simplified characters under a Taiwanese locale: the script is named so fonts and relative times match the words.
    expect(textFor('zh-TW')).toEqual({ lang: 'zh-Hans-TW', dir: 'ltr', t: STRINGS.zh });
    expect(textFor('zh-Hant-HK').lang).toBe('zh-Hans-HK');
  });

  it('falls back to English words (and lang="en") for an unknown language', () => {
    expect(textFor('ko-KR')).toEqual({ lang: 'en', dir: 'ltr', t: STRINGS.en });
  });
});

/** Any spot price will do: these tests check words and arithmetic, not data. */
const spot = 4123.45;

describe('converter text', () => {
  it('an unknown language: English words, numbers still in the asked locale', () => {
    const o = { amount: 1000, direction: 'money-to-gold' as const, currency: 'EUR', unit: 'gram' as const, karat: 24, locale: 'nl-NL' };
    const price = unitPrice(spot, 1, 'gram', 24);
    const euros = new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR' }).format(1000);
    const grams = new Intl.NumberFormat('nl-NL', { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(1000 / price);
    expect(resultText(o, price, textFor('nl-NL'))).toBe(`${euros} buys ${grams} g of 24k gold`);
  });

  it('German words with German numbers', () => {
    const o = { amount: 2, direction: 'gold-to-money' as const, currency: 'EUR', unit: 'oz' as const, karat: 18, locale: 'de-DE' };
    const price = unitPrice(spot, 0.9, 'oz', 18);
    const euros = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(2 * price);
    expect(resultText(o, price, textFor('de-DE'))).toBe(`2,0000 Feinunzen Gold (18 Karat) sind ${euros} wert`);
    expect(rateText(o, price, textFor('de-DE'))).toBe(
      `1 Feinunze (18 Karat) = ${new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(price)}`,
    );
  });

  it('Arabic: the karat in the locale’s digits', () => {
    const o = { amount: 1, direction: 'gold-to-money' as const, currency: 'USD', unit: 'gram' as const, karat: 21, locale: 'ar-EG' };
    const k = new Intl.NumberFormat('ar-EG').format(21);
    expect(k).not.toBe('21');
    expect(resultText(o, unitPrice(spot, 1, 'gram', 21), textFor('ar-EG'))).toContain(`عيار ${k}`);
  });
});

describe('converter purities', () => {
  it('are 24k, 22k, 21k, 18k, 14k, 10k and 9k, each karat ÷ 24 of the fine price', () => {
    expect([...KARATS]).toEqual([24, 22, 21, 18, 14, 10, 9]);
    for (const k of KARATS) {
      expect(purity(k)).toBe(k / 24);
      expect(unitPrice(spot, 1, 'oz', k)).toBeCloseTo((spot * k) / 24, 9);
    }
  });
});

describe('fill', () => {
  it('replaces known placeholders and leaves unknown ones visible', () => {
    expect(fill('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
