import { meltFigures, type Holding, type MeltFigures } from '../lib/prices/melt';
import { exactPriceIn } from '../lib/prices/price-in';
import type { MetalId } from '../lib/reference/metals';
import type { Unit } from '../lib/reference/units';
import { purityWords } from '../widgets/converter';
import { fill, money, number, priceDecimals, unitWord, unsignedPercent, upTo } from '../widgets/format';
import type { PageWords } from './price-figures';

// "What your metal is worth" on a price page (decisions §31): what was asked, its figures and their words. The server
// renders them from value's own core (site/price-value-data.ts), the page's script from each new price through the same
// arithmetic (lib/prices/melt.ts), and both write the words here, so a value on the page is value's to the digit and is
// always called the metal's value, never a price of the thing held.

/** What the section's answer answers: a weight at a purity, coins by their mint's figures, or the weight money buys. */
export type Ask =
  | {
      kind: 'weight';
      weight: number;
      unit: Unit;
      /** As the purity list writes it: `18k`, `925`, `999.9`. */
      purity: string;
      /** The fine share value uses for it (a karat ÷ 24, exactly). */
      fineness: number;
      quote?: number;
    }
  | {
      kind: 'item';
      item: string;
      qty: number;
      /** The unit of spot's price said beside it (the page's). */
      unit: Unit;
      coin: { fine_oz: number; fine_g: number };
      quote?: number;
    }
  | { kind: 'money'; money: number; unit: Unit; purity: string; fineness: number };

export type ValueAsk = Exclude<Ask, { kind: 'money' }>;

/** What value values for an ask. */
export function holdingOf(ask: ValueAsk): Holding {
  return ask.kind === 'item' ? { coin: ask.coin, qty: ask.qty } : { weight: ask.weight, unit: ask.unit, fineness: ask.fineness };
}

/** Value's figures for an ask at a price (the script's; the server takes value's own answer). */
export const figuresAt = (ask: ValueAsk, usdOz: number, rate: number): MeltFigures => meltFigures(usdOz, rate, holdingOf(ask), ask.unit, ask.quote);

/** The weight of the metal at `fineness` whose metal value is `amount`: the one price function's price per unit, divided into. */
export const weightFor = (amount: number, usdOz: number, rate: number, unit: Unit, fineness: number): number =>
  amount / exactPriceIn(usdOz, rate, unit, fineness);

/** The page a section is on. */
export interface WorthPage {
  metal: MetalId;
  currency: string;
  words: PageWords;
}

/** A coin's name in the page's language (the list's own name when a language has none). */
export function coinName(id: string, p: PageWords['p'], fallback = id): string {
  const key = `coin${id
    .split('-')
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('')}`;
  return (p as Record<string, string | undefined>)[key] ?? fallback;
}

/** A metal value: 2 decimals in every currency, as value answers it. */
export const valueText = (v: number, page: WorthPage) => money(v, page.currency, page.words.locale, 2);

/** A weight as asked: up to 6 decimals, with its unit's short name. */
export const weightText = (w: number, unit: Unit, words: PageWords, decimals = 6) =>
  `${upTo(w, words.locale, decimals)} ${unitWord(words.t, unit, 'abbr')}`;

/** The answer's words: its main line, its fine metal and spot price, how a quote compares. */
export interface WorthTexts {
  main: string;
  fine: string;
  quote: string;
}

/** The words of a value answer, from value's figures. */
export function valueTexts(ask: ValueAsk, f: MeltFigures, page: WorthPage): WorthTexts {
  const { t, p, locale } = page.words;
  const worth = valueText(f.melt_value, page);
  const main =
    ask.kind === 'item'
      ? fill(p.worthOfCoins, { qty: number(ask.qty, locale, 0), coin: coinName(ask.item, p), money: worth })
      : fill(page.metal === 'gold' ? t.meltOf : t.meltOfMetal, {
          weight: weightText(ask.weight, ask.unit, page.words),
          money: worth,
          ...purityWords(page.metal, ask.purity, t, locale),
        });
  const fine = fill(p.worthFine, {
    g: `${number(f.fine_weight.g, locale, 4)} ${t.abbrGram}`,
    oz: `${number(f.fine_weight.oz, locale, 6)} ${t.abbrOz}`,
    price: money(f.price, page.currency, locale, priceDecimals(ask.unit)),
    per: unitWord(t, ask.unit, 'per'),
  });
  const q = f.quote;
  const quote = !q
    ? ''
    : fill(q.premium > 0 ? p.worthAbove : q.premium < 0 ? p.worthBelow : p.worthEqual, {
        quote: valueText(q.amount, page),
        pct: unsignedPercent(q.premium_pct, locale),
        premium: valueText(Math.abs(q.premium), page),
      });
  return { main, fine, quote };
}

/** The words of what an amount of money buys. */
export function moneyTexts(ask: Extract<Ask, { kind: 'money' }>, weight: number, page: WorthPage): WorthTexts {
  const { t, locale } = page.words;
  const main = fill(page.metal === 'gold' ? t.meltIs : t.meltIsMetal, {
    money: valueText(ask.money, page),
    weight: weightText(weight, ask.unit, page.words, 4),
    ...purityWords(page.metal, ask.purity, t, locale),
  });
  return { main, fine: '', quote: '' };
}
