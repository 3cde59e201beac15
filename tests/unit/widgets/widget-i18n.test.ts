import { describe, expect, it } from 'vitest';
import { KARATS, purity } from '@/lib/reference/karats';
import { fineShareOf, purities, purityFrom, rateText, resultText, unitPrice } from '@/widgets/converter';
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

describe('converter text: the metal value, never a price of an item', () => {
  it('an unknown language: English words, numbers still in the asked locale', () => {
    const o = { amount: 1000, direction: 'money-to-gold' as const, currency: 'EUR', unit: 'gram' as const, purity: '24k', locale: 'nl-NL' };
    const price = unitPrice(spot, 1, 'gram', 1);
    const euros = new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR' }).format(1000);
    const grams = new Intl.NumberFormat('nl-NL', { minimumFractionDigits: 4, maximumFractionDigits: 4 }).format(1000 / price);
    expect(resultText(o, price, textFor('nl-NL'))).toBe(`${euros} is the metal value of ${grams} g of 24k gold`);
  });

  it('German words with German numbers', () => {
    const o = { amount: 2, direction: 'gold-to-money' as const, currency: 'EUR', unit: 'oz' as const, purity: '18k', locale: 'de-DE' };
    const price = unitPrice(spot, 0.9, 'oz', 18 / 24);
    const euros = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(2 * price);
    expect(resultText(o, price, textFor('de-DE'))).toBe(`Metallwert von 2,0000 Feinunzen Gold (18 Karat): ${euros}`);
    expect(rateText(o, price, textFor('de-DE'))).toBe(
      `1 Feinunze (18 Karat) = ${new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(price)}`,
    );
  });

  it('another metal at a fineness: its name and the fineness in the locale’s writing', () => {
    const o = {
      amount: 1,
      direction: 'gold-to-money' as const,
      currency: 'GBP',
      unit: 'oz' as const,
      purity: '958',
      locale: 'en-GB',
      metal: 'silver' as const,
    };
    const price = unitPrice(65.78, 0.8, 'oz', 0.958);
    expect(price).toBeCloseTo(65.78 * 0.8 * 0.958, 9);
    expect(resultText(o, price, textFor('en-GB'))).toBe(`Metal value of 1.0000 troy oz of Silver (958): £${(65.78 * 0.8 * 0.958).toFixed(2)}`);
    expect(resultText({ ...o, purity: '999.9', metal: 'platinum' as const, locale: 'de-DE' }, price, textFor('de-DE'))).toMatch(
      /^Metallwert von 1,0000 Feinunzen Platin \(999,9\): /,
    );
  });

  it('Arabic: the karat in the locale’s digits', () => {
    const o = { amount: 1, direction: 'gold-to-money' as const, currency: 'USD', unit: 'gram' as const, purity: '21k', locale: 'ar-EG' };
    const k = new Intl.NumberFormat('ar-EG').format(21);
    expect(k).not.toBe('21');
    expect(resultText(o, unitPrice(spot, 1, 'gram', 21 / 24), textFor('ar-EG'))).toContain(`عيار ${k}`);
  });

  it('every language says it is the metal value, not a shop’s price', () => {
    for (const lang of LANGUAGES) {
      const t = STRINGS[lang];
      expect(t.meltNote.length, lang).toBeGreaterThan(40);
      for (const k of ['meltIs', 'meltOf', 'meltIsMetal', 'meltOfMetal'] as const) expect(t[k], `${lang}.${k}`).not.toBe('');
    }
    expect(STRINGS.en.meltNote).toMatch(
      /not a shop’s price: dealers and jewellers sell above it and buy below it; making charges and taxes are not included/,
    );
  });
});

describe('converter purities', () => {
  it('gold: 24k, 22k, 21k, 18k, 14k, 10k and 9k, each karat ÷ 24 of the fine price, then the common finenesses', () => {
    expect([...KARATS]).toEqual([24, 22, 21, 18, 14, 10, 9]);
    for (const k of KARATS) {
      expect(purity(k)).toBe(k / 24);
      expect(fineShareOf(`${k}k`)).toBe(k / 24);
      expect(unitPrice(spot, 1, 'oz', fineShareOf(`${k}k`))).toBeCloseTo((spot * k) / 24, 9);
    }
    expect(purities('gold')).toEqual(['24k', '22k', '21k', '18k', '14k', '10k', '9k', '999.9', '999', '995', '965', '916', '750', '585', '375']);
    expect(purities('silver')).toEqual(['1000', '999', '958', '925', '900', '800']);
    expect(purities('platinum')).toEqual(['1000', '999.5', '950']);
    expect(fineShareOf('925')).toBe(0.925);
    expect(fineShareOf('999.9')).toBe(0.9999);
    expect(fineShareOf('1000')).toBe(1);
  });

  it('the widget’s `fineness` (a fraction, parts per thousand, or for gold a karat) and `karat`; anything else the default', () => {
    expect(purityFrom('silver', '0.925', null)).toBe('925');
    expect(purityFrom('silver', '925', null)).toBe('925');
    expect(purityFrom('gold', '999.9', null)).toBe('999.9');
    expect(purityFrom('gold', '0.9167', null)).toBe('916.7');
    expect(purityFrom('gold', '18k', null)).toBe('18k');
    expect(purityFrom('gold', null, '22')).toBe('22k');
    expect(purityFrom('gold', '1', null)).toBe('24k');
    expect(purityFrom('silver', '1', null)).toBe('1000');
    // Karats are gold's; nonsense falls back to pure.
    expect(purityFrom('silver', '18k', null)).toBe('1000');
    expect(purityFrom('silver', null, '18')).toBe('1000');
    for (const bad of ['0', '-5', '1001', 'abc', '1e3', '19k', '<b>']) expect(purityFrom('gold', bad, null), bad).toBe('24k');
  });
});

describe('fill', () => {
  it('replaces known placeholders and leaves unknown ones visible', () => {
    expect(fill('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
