import { describe, expect, it } from 'vitest';
import type { MetalReading } from '@/lib/prices/spot';
import { ITEMS } from '@/lib/reference/items';
import { loadWorth } from '@/site/price-value-data';
import { coinName, moneyTexts, valueTexts, type WorthPage } from '@/site/price-value-figures';
import { LANGUAGES, PAGE_STRINGS, STRINGS } from '@/widgets/i18n';
import { fixture } from '../../support/fake-upstream';

// "What your metal is worth" on a price page (decisions §31), read from a page's query without an app: value's own
// parameters and rules (and the converter's older names), every refusal said in the page's words and never echoed, the
// quantity and coin tables, and the honest words. Expected figures are this file's arithmetic on the fixtures' prices
// (the built page against /api/v1/value itself: tests/integration/site/price-pages.test.ts).

const GOLD = fixture('goldapi-price-XAU.json').price as number;
const SILVER = fixture('goldapi-price-XAG.json').price as number;
const EUR = fixture('er-api-latest-USD.json').rates.EUR as number;
const G_PER_OZ = 31.1034768;
/** Half away from zero, as the service rounds. */
const rounded = (v: number, dp: number) => (v < 0 ? -1 : 1) * (Math.round(Math.abs(v) * 10 ** dp * (1 + Number.EPSILON)) / 10 ** dp);
const state = { status: 'fresh', as_of: '2026-04-16T13:00:00.000Z', source: 'cache', age_seconds: 0 } as const;
const reading = (usdOz: number): MetalReading => ({ usdOz, rate: EUR, currency: 'EUR', data_state: state, updated_at: '2026-04-16T13:00:01.000Z' });
const query = (q: string) => new URLSearchParams(q);
const gold = (q: string, unit: Parameters<typeof loadWorth>[2] = 'gram') => loadWorth(query(q), 'gold', unit, reading(GOLD));
/** Euros for `grams` of fine gold (or silver), unrounded. */
const euros = (grams: number, usdOz = GOLD) => (grams / G_PER_OZ) * usdOz * EUR;
const en: WorthPage = { metal: 'gold', currency: 'EUR', words: { t: STRINGS.en, p: PAGE_STRINGS.en, lang: 'en', locale: 'en' } };

describe('the form, read with value’s rules', () => {
  it('nothing asked: one of the page’s unit, pure, with the quantity table and the gold coins', () => {
    const w = gold('', 'tola');
    expect(w.error).toBeNull();
    expect(w.ask).toEqual({ kind: 'weight', weight: 1, unit: 'tola', purity: '24k', fineness: 1 });
    expect(w.figures!.melt_value).toBe(rounded(euros(11.6638038), 2));
    // 1 g, 8 g, 10 g, 100 g, 1 troy oz, 1 kg, and 1, 5 and 10 of the page's local unit.
    expect(w.rows.map((r) => `${r.weight} ${r.unit}`)).toEqual([
      '1 gram',
      '8 gram',
      '10 gram',
      '100 gram',
      '1 oz',
      '1 kg',
      '1 tola',
      '5 tola',
      '10 tola',
    ]);
    expect(w.rows.find((r) => r.unit === 'kg')!.value).toBe(rounded(32.1507466 * GOLD * EUR, 2));
    expect(w.rows.find((r) => r.weight === 8)!.value).toBe(rounded(euros(8), 2));
    expect(w.coins.map((c) => c.id)).toEqual(ITEMS.filter((i) => i.metal === 'gold').map((i) => i.id));
    expect(w.coins.find((c) => c.id === 'sovereign')!.value).toBe(rounded(0.2354 * GOLD * EUR, 2));
    // A metric page has no local rows; platinum has no coins in the list.
    expect(gold('').rows).toHaveLength(6);
    expect(loadWorth(query(''), 'platinum', 'gram', reading(1000)).coins).toEqual([]);
  });

  it('a karat weight with a quote above; the converter’s older names; a karat as the purity list writes it', () => {
    const w = gold('weight=12&unit=gram&karat=14&quote=1000');
    const exact = euros(12 * (14 / 24));
    expect(w.figures).toEqual({
      fine_weight: { g: 7, oz: rounded((12 * (14 / 24)) / G_PER_OZ, 6) },
      melt_value: rounded(exact, 2),
      quote: { amount: 1000, premium: rounded(1000 - exact, 2), premium_pct: rounded((1000 / exact - 1) * 100, 2) },
      price: rounded(euros(1), 4),
    });
    expect(gold('w=12&wu=gram&k=14&quote=1000').figures).toEqual(w.figures);
    expect(gold('weight=12&fineness=14k&quote=1000').figures).toEqual(w.figures);
    expect(w.form).toMatchObject({ weight: '12', unit: 'gram', purity: '14k', quote: '1000' });
  });

  it('a fineness in a local unit, either form; coins with a count; what money buys', () => {
    const silver = (q: string) => loadWorth(query(q), 'silver', 'tola', reading(SILVER));
    const sterling = silver('weight=3&unit=tola&fineness=925');
    expect(sterling.ask).toMatchObject({ kind: 'weight', purity: '925', fineness: 0.925 });
    expect(sterling.figures!.melt_value).toBe(rounded(euros(3 * 11.6638038 * 0.925, SILVER), 2));
    expect(silver('weight=3&unit=tola&fineness=0.925').figures).toEqual(sterling.figures);
    const dimes = silver('item=us-90-dime&qty=10&quote=20');
    const exact = 10 * ITEMS.find((i) => i.id === 'us-90-dime')!.fine_oz * SILVER * EUR;
    expect(dimes.figures!.melt_value).toBe(rounded(exact, 2));
    expect(dimes.figures!.quote!.premium_pct).toBe(rounded((20 / exact - 1) * 100, 2));
    expect(dimes.form).toMatchObject({ item: 'us-90-dime', qty: '10', coinQuote: '20', quote: '' });
    const bought = gold('money=1000&unit=oz&fineness=22k');
    expect(bought.ask).toEqual({ kind: 'money', money: 1000, unit: 'oz', purity: '22k', fineness: 22 / 24 });
    expect(bought.bought! * GOLD * EUR * (22 / 24)).toBeCloseTo(1000, 9);
    expect(gold('m=1000&wu=oz&k=22').bought).toBe(bought.bought);
    // Without a unit, every form asks in the page's.
    expect(gold('money=1000', 'tola').ask).toMatchObject({ kind: 'money', unit: 'tola' });
    expect(gold('weight=2', 'tola').ask).toMatchObject({ kind: 'weight', unit: 'tola' });
  });

  it('every refusal in words, the numbers sent shown again and nothing else', () => {
    const CASES: [string, string][] = [
      ['weight=0', 'worthBadWeight'],
      ['weight=-3', 'worthBadWeight'],
      ['weight=1e3', 'worthBadWeight'],
      ['weight=2000000000', 'worthBadWeight'],
      ['weight=1&weight=2', 'worthBadWeight'],
      ['weight=1&unit=stone', 'worthBadUnit'],
      ['weight=1&fineness=1001', 'worthBadPurity'],
      ['weight=1&karat=23', 'worthBadPurity'],
      ['weight=1&karat=18&fineness=750', 'worthBadPurity'],
      ['item=doubloon', 'worthBadItem'],
      ['item=american-silver-eagle', 'worthBadItem'],
      ['item=krugerrand&qty=1.5', 'worthBadQty'],
      ['item=krugerrand&qty=0', 'worthBadQty'],
      ['weight=1&quote=0', 'worthBadQuote'],
      ['money=0', 'worthBadMoney'],
      ['money=lots', 'worthBadMoney'],
      ['weight=1&item=krugerrand', 'worthOneThing'],
      ['weight=1&money=100', 'worthOneThing'],
      ['quote=100', 'worthBadWeight'],
    ];
    for (const [q, error] of CASES) {
      const w = gold(q);
      expect(w.error, q).toBe(error);
      expect(w.ask, q).toBeNull();
      expect(w.figures, q).toBeNull();
      // The tables stand whatever the form says.
      expect(w.rows[0].value, q).toBe(rounded(euros(1), 2));
    }
    expect(gold('weight=0').form.weight).toBe('0');
    expect(gold('weight=%3Cscript%3E').form.weight).toBe('1');
    expect(gold('weight=%3Cscript%3E').error).toBe('worthBadWeight');
    // Karats are gold's.
    expect(loadWorth(query('weight=1&karat=18'), 'silver', 'gram', reading(SILVER)).error).toBe('worthBadPurity');
  });

  it('no price: no figure anywhere, the form still read', () => {
    const w = loadWorth(query('weight=2&karat=18'), 'silver', 'gram', null);
    expect(w.error).toBe('worthBadPurity');
    const none = loadWorth(query('weight=2'), 'silver', 'gram', null);
    expect(none).toMatchObject({ priced: false, figures: null, ask: { kind: 'weight', weight: 2 } });
    expect(none.rows.every((r) => r.value === null)).toBe(true);
  });
});

describe('honest words', () => {
  it('metal value, the quote above or below it in words, in English and German', () => {
    const w = gold('weight=12&karat=14&quote=1000');
    const f = w.figures!;
    const texts = valueTexts(w.ask as never, f, en);
    expect(texts.main).toBe(`Metal value of 12 g of 14k gold: €${f.melt_value.toLocaleString('en', { minimumFractionDigits: 2 })}`);
    const pct = Math.abs(f.quote!.premium_pct).toFixed(2);
    expect(texts.quote).toMatch(
      f.quote!.premium > 0
        ? new RegExp(`^The price you were quoted, €1,000\\.00, is ${pct}% above the metal’s value \\(€[\\d,.]+ more\\)\\.$`)
        : new RegExp(`^The price you were quoted, €1,000\\.00, is ${pct}% below the metal’s value \\(€[\\d,.]+ less\\)\\.$`),
    );
    // A quote far under the value is below it; one far over, above, whatever the fixture's price.
    const below = gold(`weight=12&karat=14&quote=${Math.floor(f.melt_value / 2)}`);
    expect(valueTexts(below.ask as never, below.figures!, en).quote).toContain('below the metal’s value');
    const de: WorthPage = { ...en, words: { t: STRINGS.de, p: PAGE_STRINGS.de, lang: 'de', locale: 'de' } };
    const above = gold(`weight=12&karat=14&quote=${Math.ceil(f.melt_value * 2)}`);
    const words = valueTexts(above.ask as never, above.figures!, de);
    expect(words.main).toMatch(/^Metallwert von 12 g Gold \(14 Karat\): [\d.]+,\d\d\s€$/);
    expect(words.quote).toMatch(/^Der Ihnen genannte Preis, .*, liegt [\d,]+\s%\süber dem Metallwert \(.* mehr\)\.$/);
    const money = gold('money=1000&unit=oz');
    expect(moneyTexts(money.ask as never, money.bought!, en).main).toMatch(/^€1,000\.00 is the metal value of [\d.]+ troy oz of 24k gold$/);
  });

  it('no word of the section calls a value a price; each coin has a name in every language', () => {
    for (const lang of LANGUAGES) {
      const p = PAGE_STRINGS[lang];
      for (const c of ITEMS) expect(coinName(c.id, p, ''), `${lang} ${c.id}`).not.toBe('');
    }
    const en = PAGE_STRINGS.en;
    for (const key of ['worthTitle', 'worthByWeight', 'worthCoins', 'worthValue', 'worthOfCoins'] as const) expect(en[key]).not.toMatch(/price/i);
    expect(STRINGS.en.meltNote).toMatch(/dealers and jewellers sell above it and buy below it; making charges and taxes are not included/);
  });
});
