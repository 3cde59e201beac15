import { describe, expect, it } from 'vitest';
import { acceptedTags, marketUnit, pageLanguage, parsePref, visitorChoice } from '@/site/price-choice';
import { LANGUAGES, PAGE_STRINGS } from '@/widgets/i18n';

// Which page `/` and `/{metal}` show (decisions §27), and the price pages' words in every language.

const served = (code: string) => ['USD', 'EUR', 'INR', 'JPY', 'AED', 'TRY', 'GBP', 'THB', 'PKR', 'HKD', 'CHF'].includes(code);

describe('the visitor’s currency and unit', () => {
  it('the currency of the first Accept-Language tag with a region, with its market’s unit; none is USD per troy ounce', () => {
    const cases: [string | undefined, string, string][] = [
      ['de-DE,de;q=0.9', 'EUR', 'gram'],
      ['en-IN', 'INR', 'gram'],
      ['ja-JP', 'JPY', 'gram'],
      ['ar-AE', 'AED', 'gram'],
      ['tr-TR', 'TRY', 'gram'],
      ['en-GB', 'GBP', 'oz'],
      ['th-TH', 'THB', 'baht'],
      ['ur-PK', 'PKR', 'tola'],
      ['zh-Hant-HK', 'HKD', 'tael'],
      // The first tag WITH a region counts, whatever comes before it; weights order the tags.
      ['fr, de-CH;q=0.8', 'CHF', 'oz'],
      ['en-US;q=0.5, de-DE;q=0.9', 'EUR', 'gram'],
      ['fr', 'USD', 'oz'],
      [undefined, 'USD', 'oz'],
      // A region whose currency the FX table does not hold, or no currency of its own here: USD.
      ['es-BO', 'USD', 'oz'],
    ];
    for (const [al, currency, unit] of cases) expect(visitorChoice(undefined, al, served), String(al)).toEqual({ currency, unit });
  });

  it('the saved choice wins when spot accepts its currency; a malformed one is ignored', () => {
    expect(visitorChoice('a=b; pref=thb.baht', 'de-DE', served)).toEqual({ currency: 'THB', unit: 'baht' });
    expect(visitorChoice('pref=zzz.gram', 'de-DE', served)).toEqual({ currency: 'EUR', unit: 'gram' });
    for (const bad of ['EUR.gram', 'eur.ton', 'eur', 'eur.gram.x', '<script>']) expect(parsePref(bad), bad).toBeNull();
  });

  it('market units as the spec names them', () => {
    expect(['USD', 'GBP', 'CHF', 'CAD', 'AUD'].map(marketUnit)).toEqual(['oz', 'oz', 'oz', 'oz', 'oz']);
    expect([marketUnit('PKR'), marketUnit('THB'), marketUnit('HKD'), marketUnit('EUR'), marketUnit('INR')]).toEqual([
      'tola',
      'baht',
      'tael',
      'gram',
      'gram',
    ]);
  });

  it('Accept-Language is read defensively: q=0 left out, junk and oversized headers ignored', () => {
    expect(acceptedTags('de-DE;q=0, en-GB')).toEqual(['en-GB']);
    expect(acceptedTags('"><script>, en')).toEqual(['en']);
    expect(acceptedTags('x'.repeat(2000))).toEqual([]);
  });
});

describe('the page’s language', () => {
  it('?lang= first, then the saved language, then Accept-Language; the locale keeps the visitor’s region in that language', () => {
    expect(pageLanguage('ar', 'lang=de', 'fr-FR')).toEqual({ lang: 'ar', locale: 'ar', asked: true });
    expect(pageLanguage(undefined, 'lang=de', 'de-AT, fr')).toEqual({ lang: 'de', locale: 'de-AT', asked: false });
    expect(pageLanguage('xx', undefined, 'sv-SE, ja-JP;q=0.5')).toEqual({ lang: 'ja', locale: 'ja-JP', asked: false });
    expect(pageLanguage(undefined, undefined, undefined)).toEqual({ lang: 'en', locale: 'en', asked: false });
  });

  it('every language has every word of the pages, with the same placeholders, and writes its own h1', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const keys = Object.keys(PAGE_STRINGS.en) as (keyof typeof PAGE_STRINGS.en)[];
    for (const lang of LANGUAGES) {
      expect(Object.keys(PAGE_STRINGS[lang]).sort(), lang).toEqual([...keys].sort());
      for (const k of keys) expect(placeholders(PAGE_STRINGS[lang][k]), `${lang} ${k}`).toEqual(placeholders(PAGE_STRINGS.en[k]));
      if (lang !== 'en') expect(PAGE_STRINGS[lang].h1, lang).not.toBe(PAGE_STRINGS.en.h1);
    }
  });
});
