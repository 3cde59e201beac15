import { readQuery } from '@/lib/http/query';
import type { MeltFigures } from '@/lib/prices/melt';
import type { MetalReading } from '@/lib/prices/spot';
import { valueAt } from '@/lib/prices/value';
import { ITEMS } from '@/lib/reference/items';
import { metalById, type MetalId } from '@/lib/reference/metals';
import type { Unit } from '@/lib/reference/units';
import type { Spot } from '@/lib/schemas/spot';
import { MAX_QUOTE, ValueQuery } from '@/lib/schemas/value';
import { fineShare } from '@/lib/schemas/purity';
import { PURE } from '@/widgets/converter';
import type { PageStrings } from '@/widgets/i18n';
import { weightFor, type Ask } from './price-value-figures';

// What "what your metal is worth" shows (decisions §31), read on the server: the form's answer, the quantity table and
// the coins' table, each from value's own core (lib/prices/value.ts `valueAt`) at the reading of the price the page
// shows (its spot answer: the served USD price and spot's rate), so every figure is what /api/v1/value answers for that
// price. The form is read with value's own query schema and rules, under value's parameter names (`weight`, `unit`,
// `karat` or `fineness`, `item`, `qty`, `quote`), plus `money` for what an amount buys; the converter's older names
// (`w`, `wu`, `k`, `m`) still work. A refused field is said in words; nothing asked is 1 of the page's unit, pure.

/** Words of a refused form, by the parameter refused first. */
export type WorthError = Extract<
  keyof PageStrings,
  'worthBadWeight' | 'worthBadUnit' | 'worthBadPurity' | 'worthBadItem' | 'worthBadQty' | 'worthBadQuote' | 'worthBadMoney' | 'worthOneThing'
>;

const REFUSED: Record<string, WorthError> = {
  weight: 'worthBadWeight',
  unit: 'worthBadUnit',
  karat: 'worthBadPurity',
  fineness: 'worthBadPurity',
  item: 'worthBadItem',
  // An item of another metal than the page's.
  metal: 'worthBadItem',
  qty: 'worthBadQty',
  quote: 'worthBadQuote',
};

/** A row of a table: what is valued and its metal value (null without a price). */
export interface WorthRow {
  weight: number;
  unit: Unit;
  value: number | null;
}

export interface WorthCoin {
  id: string;
  fine_oz: number;
  fine_g: number;
  value: number | null;
}

export interface WorthProps {
  /** What the answer answers: the form's ask, the default one, or null when the form was refused. */
  ask: Ask | null;
  /** Value's figures for a weight or coins; null for money, a refusal or no price. */
  figures: MeltFigures | null;
  /** The weight an amount of money buys; null otherwise. */
  bought: number | null;
  error: WorthError | null;
  /** The forms' fields as the page shows them again. */
  form: {
    weight: string;
    unit: Unit;
    purity: string;
    quote: string;
    item: string;
    qty: string;
    coinQuote: string;
    money: string;
    moneyUnit: Unit;
    moneyPurity: string;
  };
  /** The metal's value for 1 g, 8 g, 10 g, 100 g, 1 troy oz and 1 kg (and 1, 5 and 10 of a local unit), pure. */
  rows: WorthRow[];
  /** The bullion coins of the page's metal. */
  coins: WorthCoin[];
  /** Whether a price is known: without one, no figure is shown. */
  priced: boolean;
}

/** The quantity table's weights (decisions §31); a page in another unit adds 1, 5 and 10 of it. */
const QUANTITIES: [number, Unit][] = [
  [1, 'gram'],
  [8, 'gram'],
  [10, 'gram'],
  [100, 'gram'],
  [1, 'oz'],
  [1, 'kg'],
];

/** The reading of the page's metal in its spot answer: the served USD price and spot's rate; null when never seen. */
export function readingOf(spot: Spot, metal: MetalId): MetalReading | null {
  const usdOz = metal === 'gold' ? spot.spot_usd_oz : spot[metalById(metal).usdField as 'silver_usd_oz'];
  if (usdOz === null || usdOz === undefined) return null;
  return { usdOz, rate: spot.fx_rate, currency: spot.xau.currency, data_state: spot.groups[metal], updated_at: spot.updated_at };
}

const NUMBER = /^\d{1,15}(\.\d{0,15})?$|^\.\d{1,15}$/;

/** The section's props for a page of `metal` in `unit`, the query asked (`given`) and the page's reading (null: no price). */
export function loadWorth(given: URLSearchParams, metal: MetalId, unit: Unit, read: MetalReading | null): WorthProps {
  const pure = metal === 'gold' ? '24k' : PURE;
  const coins = ITEMS.filter((i) => i.metal === metal);
  const value = (q: Partial<ValueQuery>) => (read ? valueAt(read, { metal, currency: read.currency, unit, ...q }) : null);
  const out: WorthProps = {
    ask: null,
    figures: null,
    bought: null,
    error: null,
    form: {
      weight: '1',
      unit,
      purity: pure,
      quote: '',
      item: coins[0]?.id ?? '',
      qty: '1',
      coinQuote: '',
      money: '',
      moneyUnit: unit,
      moneyPurity: pure,
    },
    rows: [
      ...QUANTITIES,
      ...(unit === 'gram' || unit === 'oz' || unit === 'kg' ? [] : ([1, 5, 10] as const).map((n) => [n, unit] as [number, Unit])),
    ].map(([weight, u]) => ({ weight, unit: u, value: value({ weight, unit: u })?.melt_value ?? null })),
    coins: coins.map((c) => ({ id: c.id, fine_oz: c.fine_oz, fine_g: c.fine_g, value: value({ item: c.id, qty: 1 })?.melt_value ?? null })),
    priced: read !== null,
  };

  // value's parameters, under their own names or the converter's older ones; a karat written as the purity list writes it
  // (`fineness=18k`) is gold's karat.
  const params = new URLSearchParams();
  const take = (name: string, alias?: string) => {
    const values = given.getAll(name);
    for (const v of values.length || !alias ? values : given.getAll(alias)) params.append(name, v);
  };
  for (const [name, alias] of [['weight', 'w'], ['unit', 'wu'], ['karat', 'k'], ['fineness'], ['item'], ['qty'], ['quote']]) take(name, alias);
  const asKarat = params.getAll('fineness').filter((f) => /^\d{1,2}k$/i.test(f.trim()));
  if (asKarat.length) {
    params.delete('fineness');
    for (const k of asKarat) params.append('karat', k.trim());
  }
  params.set('metal', metal);
  const money = (given.getAll('money').length ? given.getAll('money') : given.getAll('m')).filter((m) => m !== '');
  const has = (name: string) => params.getAll(name).some((v) => v !== '');
  const asked = [has('weight'), has('item'), money.length > 0].filter(Boolean).length;
  // A refused form shows the numbers it was sent again (plain digits only), so they can be put right.
  const again = (name: string, alias?: string) => {
    const v = given.get(name) ?? (alias ? given.get(alias) : null);
    return v !== null && v.length <= 32 && /^-?\d*\.?\d*$/.test(v) ? v : null;
  };
  const refuse = (error: WorthError): WorthProps => {
    const coin = has('item');
    return {
      ...out,
      error,
      form: {
        ...out.form,
        weight: again('weight', 'w') ?? out.form.weight,
        quote: (!coin && again('quote')) || '',
        qty: again('qty') ?? out.form.qty,
        coinQuote: (coin && again('quote')) || '',
        money: again('money', 'm') ?? '',
      },
    };
  };

  if (asked > 1) return refuse('worthOneThing');
  // Without a unit, the page's (value's own default is the gram).
  const unitAsked = has('unit');
  if (!unitAsked) params.set('unit', unit);
  if (money.length > 0) {
    // The unit and purity read as value reads them, with a weight that stands for the amount.
    params.set('weight', '1');
    const q = readQuery(ValueQuery, new URL(`http://page/?${params}`));
    if (!q.ok) return refuse(REFUSED[q.name] ?? 'worthBadMoney');
    const amount = money.length === 1 && NUMBER.test(money[0]) ? Number(money[0]) : NaN;
    if (!(amount > 0 && amount <= MAX_QUOTE)) return refuse('worthBadMoney');
    const fineness = fineShare(q.data) ?? 1;
    const purity = purityOf(metal, q.data);
    const ask: Ask = { kind: 'money', money: amount, unit: q.data.unit, purity, fineness };
    return {
      ...out,
      ask,
      bought: read && weightFor(amount, read.usdOz, read.rate, q.data.unit, fineness),
      form: { ...out.form, money: money[0], moneyUnit: q.data.unit, moneyPurity: purity },
    };
  }
  const anything = unitAsked || ['weight', 'karat', 'fineness', 'item', 'qty', 'quote'].some(has);
  if (!anything) params.set('weight', '1');
  const q = readQuery(ValueQuery, new URL(`http://page/?${params}`));
  if (!q.ok) return refuse(REFUSED[q.name] ?? 'worthBadWeight');
  const v = q.data;
  const figures = read && valueAt(read, { ...v, currency: read.currency });
  // Props are JSON: an absent quote is left out, never undefined.
  const quote = v.quote === undefined ? {} : { quote: v.quote };
  const fig: MeltFigures | null = figures && {
    fine_weight: figures.fine_weight,
    melt_value: figures.melt_value,
    ...(figures.quote ? { quote: figures.quote } : {}),
    price: figures.price.value,
  };
  if (v.item !== undefined) {
    const coin = ITEMS.find((i) => i.id === v.item)!;
    const ask: Ask = { kind: 'item', item: coin.id, qty: v.qty ?? 1, unit: v.unit, coin: { fine_oz: coin.fine_oz, fine_g: coin.fine_g }, ...quote };
    return {
      ...out,
      ask,
      figures: fig,
      form: { ...out.form, item: coin.id, qty: String(ask.qty), coinQuote: v.quote === undefined ? '' : String(v.quote) },
    };
  }
  const purity = purityOf(metal, v);
  const ask: Ask = { kind: 'weight', weight: v.weight!, unit: v.unit, purity, fineness: fineShare(v) ?? 1, ...quote };
  return {
    ...out,
    ask,
    figures: fig,
    form: { ...out.form, weight: String(v.weight), unit: v.unit, purity, quote: v.quote === undefined ? '' : String(v.quote) },
  };
}

/** The purity asked, as the purity list writes it (`18k`, `925`, `999.9`; pure when none), to 0.00001 per thousand. */
function purityOf(metal: MetalId, q: { karat?: string; fineness?: number }): string {
  if (q.karat !== undefined) return `${parseInt(q.karat, 10)}k`;
  const f = fineShare(q) ?? 1;
  return f === 1 ? (metal === 'gold' ? '24k' : PURE) : String(Math.round(f * 1e8) / 1e5);
}
