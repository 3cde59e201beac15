import { KARAT_KEYS, purity, type KaratKey } from '../lib/reference/karats';
import { METALS, metalById, type MetalId } from '../lib/reference/metals';
import { exactPriceIn, priceIn } from '../lib/prices/price-in';
import { round, type Unit } from '../lib/reference/units';
import type { DataState } from '../lib/schemas/common';
import type { Spot } from '../lib/schemas/spot';
import type { PriceEvent } from '../lib/schemas/stream';
import { ago, arrow, fill, money, percent, priceDecimals, signedMoney } from '../widgets/format';
import type { PageStrings, Strings } from '../widgets/i18n';
import { whyItMoved, type ChangeParts } from './price-split';

// The figures of a price page (decisions §27) and their words: the server renders them from a spot answer, the
// page's script (site/scripts/price-page.ts) from each price event, through the same two functions, so both write
// the same text. Every number is spot's, as spot rounds it; nothing here is fetched, and nothing is made up: a
// figure not known is shown as not known.

type Market = NonNullable<Spot['market']>;

/** The figures of one page: a metal in a currency and unit. */
export interface Figures {
  metal: MetalId;
  currency: string;
  unit: Unit;
  /** The metal's price per unit, as spot serves it; null when never seen. */
  price: number | null;
  /** The metal's own data state (spot's `groups.<metal>`). */
  state: DataState;
  /** Since the previous close (spot's `change`, `silver_change`, …); null while no earlier bar exists. */
  change: { change: number; pct: number; previousClose: number | null; previousCloseDate: string | null } | null;
  /** That change split into the metal's move and the currency's (spot's `from_metal`, `from_currency`); null when not told apart. */
  parts: ChangeParts | null;
  /** The current session's high and low, where known. */
  high: number | null;
  low: number | null;
  /** Every metal in the same currency and unit, and its change in percent. */
  metals: Record<MetalId, { price: number | null; pct: number | null }>;
  /** Gold only: spot's `karats`. */
  karats: Record<KaratKey, number> | null;
  /** Gold in a metric unit: each karat per 10 grams, rounded to 2 decimals as spot rounds a price per tola. */
  per10g: Record<KaratKey, number> | null;
  /** Gold's bid and ask of the quotes feed, in the page's currency and unit (as the stream converts them). */
  bid: number | null;
  ask: number | null;
  market: Market | null;
  /** Units of the currency per USD applied (spot's `fx_rate`). */
  fxRate: number | null;
  /**
   * The state of the FX table that rate is from (spot's `groups.fx`: stale for the last live table past its time, source
   * `snapshot` for the bundled one); null in USD, which needs no rate.
   */
  fx: DataState | null;
}

const inUnit = (usdOz: number | null | undefined, rate: number, unit: Unit) =>
  usdOz === null || usdOz === undefined ? null : priceIn(usdOz, rate, unit);

/** Karats per 10 grams from USD per troy ounce: spot's arithmetic (price per unit × purity), 2 decimals. */
function per10Of(usdOz: number | null, rate: number, unit: Unit): Figures['per10g'] {
  if (usdOz === null || (unit !== 'gram' && unit !== 'kg')) return null;
  return Object.fromEntries(KARAT_KEYS.map((k) => [k, round(exactPriceIn(usdOz, rate, 'gram', purity(parseInt(k, 10))) * 10, 2)])) as Record<
    KaratKey,
    number
  >;
}

function karatsOf(usdOz: number | null, rate: number, unit: Unit): Figures['karats'] {
  if (usdOz === null) return null;
  return Object.fromEntries(KARAT_KEYS.map((k) => [k, priceIn(usdOz, rate, unit, purity(parseInt(k, 10)))])) as Record<KaratKey, number>;
}

const USD_FIELD = Object.fromEntries(METALS.map((m) => [m.id, m.usdField])) as Record<MetalId, 'spot_usd_oz'>;

/** A page's figures from a spot answer in its currency and unit (null when spot is unavailable). */
export function figuresOfSpot(spot: Spot, metal: MetalId, unit: Unit): Figures {
  const rate = spot.fx_rate;
  const usd = (m: MetalId) => spot[USD_FIELD[m]] ?? null;
  const c = spot[metalById(metal).changeField];
  const ok = c && c.state === 'ok' && c.change !== null && c.change_pct !== null;
  return {
    metal,
    currency: spot.xau.currency,
    unit,
    price: metal === 'gold' ? spot.xau.price : inUnit(usd(metal), rate, unit),
    state: spot.groups?.[metal] ?? spot.data_state,
    change: ok ? { change: c.change!, pct: c.change_pct!, previousClose: c.previous_close, previousCloseDate: c.previous_close_date } : null,
    parts: ok && c.from_metal && c.from_currency ? { metal: c.from_metal, currency: c.from_currency } : null,
    high: c?.high ?? null,
    low: c?.low ?? null,
    metals: Object.fromEntries(
      METALS.map((m) => [
        m.id,
        { price: m.id === 'gold' ? spot.xau.price : inUnit(usd(m.id), rate, unit), pct: spot[m.changeField]?.change_pct ?? null },
      ]),
    ) as Figures['metals'],
    karats: metal === 'gold' ? spot.karats : null,
    per10g: metal === 'gold' ? per10Of(spot.spot_usd_oz, rate, unit) : null,
    bid: metal === 'gold' ? inUnit(spot.bid_usd_oz, rate, unit) : null,
    ask: metal === 'gold' ? inUnit(spot.ask_usd_oz, rate, unit) : null,
    market: spot.market ?? null,
    fxRate: rate,
    fx: spot.xau.currency === 'USD' ? null : spot.groups.fx,
  };
}

/**
 * The same figures from a price event in the page's currency and unit. What an event does not carry (the previous
 * close's amount, the session's high and low) stays as `before` had it while the previous close's date is the same.
 */
export function figuresOfEvent(e: PriceEvent, before: Figures): Figures {
  const { metal, unit } = before;
  const own = e.metals[metal];
  // The same session while the previous close is the same one (or still unknown on both sides).
  const sameClose = (before.change?.previousCloseDate ?? null) === own.previous_close_date;
  const pct = e.change_pct[metal];
  const priceOf = (m: MetalId) => (m === 'gold' ? e.price : e[m]);
  const goldUsd = e.metals.gold.usd_oz;
  const price = priceOf(metal);
  // The session's extremes fold in every fresh served price, as the service's own bar does.
  const fold = (held: number | null, pick: (a: number, b: number) => number) =>
    !sameClose ? null : held === null || price === null || own.data_state.status !== 'fresh' ? held : pick(held, price);
  return {
    ...before,
    price,
    state: own.data_state,
    change:
      own.change === null || pct === null
        ? null
        : {
            change: own.change,
            pct,
            previousClose: sameClose ? (before.change?.previousClose ?? null) : null,
            previousCloseDate: own.previous_close_date,
          },
    parts: own.change !== null && pct !== null && own.from_metal && own.from_currency ? { metal: own.from_metal, currency: own.from_currency } : null,
    high: fold(before.high, Math.max),
    low: fold(before.low, Math.min),
    metals: Object.fromEntries(METALS.map((m) => [m.id, { price: priceOf(m.id), pct: e.change_pct[m.id] }])) as Figures['metals'],
    karats: metal === 'gold' ? karatsOf(goldUsd, e.fx_rate, unit) : null,
    per10g: metal === 'gold' ? per10Of(goldUsd, e.fx_rate, unit) : null,
    bid: metal === 'gold' ? e.bid : null,
    ask: metal === 'gold' ? e.ask : null,
    market: e.market,
    fxRate: e.fx_rate,
    fx: e.currency === 'USD' ? null : e.fx_state,
  };
}

/** The page's words: the widgets' (`t`) and the page's own (`p`), in one language, with the locale of its numbers. */
export interface PageWords {
  t: Strings;
  p: PageStrings;
  lang: string;
  locale: string;
}

/** A date and time in the reader's locale (the server writes UTC, naming it; the script the reader's own zone). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
export function when(iso: string, locale: string, timeZone?: string): string {
  const key = `${locale} ${timeZone ?? ''}`;
  let format = dateFormats.get(key);
  if (!format) {
    if (dateFormats.size >= 100) dateFormats.clear();
    dateFormats.set(key, (format = dateTimeFormat(locale, timeZone)));
  }
  return format.format(new Date(iso));
}

function dateTimeFormat(locale: string, timeZone?: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: timeZone ? 'short' : undefined,
  });
}

/** A YYYY-MM-DD date in the reader's locale. */
export function day(d: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`));
}

/** What each marked element of the page says (`data-f` → text); the empty string hides it. */
export type Texts = Record<string, string>;

/** Every figure's words. `now` counts a stale price's age; `timeZone` the zone of times (the server's UTC). */
export function textsOf(f: Figures, w: PageWords, now: number, timeZone?: string): Texts {
  const { currency, unit } = f;
  const loc = w.locale;
  const dp = priceDecimals(unit);
  const cash = (n: number | null, digits = dp) => (n === null ? '—' : money(n, currency, loc, digits));
  const out: Texts = {};
  out.price = f.price === null ? w.t.priceUnavailable : cash(f.price);
  out.state = stateText(f, w, now);
  out['as-of'] = f.state.as_of ? fill(w.p.asOf, { time: when(f.state.as_of, loc, timeZone) }) : '';
  if (f.change) {
    const dir = f.change.change > 0 ? 'up' : f.change.change < 0 ? 'down' : 'flat';
    out.change = fill(w.t.sinceClose, {
      arrow: arrow(f.change.change),
      change: signedMoney(f.change.change, currency, loc, dp),
      pct: percent(f.change.pct, loc),
    });
    out['change-dir'] = dir;
  } else {
    out.change = w.p.noChange;
    out['change-dir'] = 'flat';
  }
  out.why = whyItMoved({ currency, metalName: w.t[f.metal], changePct: f.change?.pct ?? null, parts: f.parts }, w.p, loc);
  out['prev-label'] = fill(w.p.previousClose, { date: f.change?.previousCloseDate ? day(f.change.previousCloseDate, loc) : '—' });
  out.prev = cash(f.change?.previousClose ?? null);
  out.high = cash(f.high);
  out.low = cash(f.low);
  out.bid = cash(f.bid);
  out.ask = cash(f.ask);
  out.market = !f.market
    ? ''
    : f.market.status === 'open'
      ? `${w.p.marketOpen} · ${fill(w.p.closes, { time: when(f.market.next_change, loc, timeZone) })}`
      : `${w.t.marketClosed} · ${fill(w.t.reopens, { time: when(f.market.next_change, loc, timeZone) })}`;
  for (const m of METALS) {
    out[`m-${m.id}`] = f.metals[m.id].price === null ? w.t.priceUnavailable : cash(f.metals[m.id].price);
    const pct = f.metals[m.id].pct;
    out[`mc-${m.id}`] = pct === null ? '' : `${arrow(pct)} ${percent(pct, loc)}`;
  }
  for (const k of KARAT_KEYS) {
    if (f.karats) out[`k-${k}`] = cash(f.karats[k]);
    if (f.per10g) out[`t-${k}`] = cash(f.per10g[k], 2);
  }
  return out;
}

/**
 * How many characters the headline's text shows (its `--chars`, site/globals.css), the marks that steer its direction
 * (zero width) left out: the headline's size shares its card's width among them, so the longest figure fits a phone.
 */
export function headlineChars(text: string): number {
  return Math.max(1, text.replace(/\p{Cf}/gu, '').length);
}

/** Seconds from a state's `as_of` to `now` (ms); null when it has none. */
const ageOf = (s: DataState, now: number) => (s.as_of ? Math.max(0, Math.floor((now - Date.parse(s.as_of)) / 1000)) : null);

/** Whether the price is live: the metal's price fresh and, in a currency other than USD, the FX table too (spot's `fx_stale` false). */
export const isLive = (f: Figures) => f.state.status === 'fresh' && (f.fx === null || f.fx.status === 'fresh');

/**
 * The freshness pill's words. "live" only when the price is ({@link isLive}); a fresh metal price converted at a rate
 * that is not says so ("live in US dollars · exchange rate from 3 hours ago", or "… of 2 Jun 2026" for the bundled
 * table), and a stale metal price says its age, with the rate's words when the rate is not fresh either.
 */
function stateText(f: Figures, w: PageWords, now: number): string {
  if (f.state.status === 'unavailable') return w.t.noPrice;
  const fxOld = f.fx !== null && f.fx.status !== 'fresh';
  const age = ageOf(f.state, now);
  const metal = f.state.status === 'fresh' ? (fxOld ? w.p.liveUsd : w.p.live) : fill(w.t.stale, { time: age === null ? '—' : ago(age, w.lang) });
  if (!fxOld) return metal;
  const fx = f.fx!;
  const fxAge = ageOf(fx, now);
  const rate =
    fx.source === 'snapshot' || fxAge === null
      ? fill(w.p.fxOf, { date: fx.as_of ? day(fx.as_of.slice(0, 10), w.locale) : '—' })
      : fill(w.p.fxAgo, { time: ago(fxAge, w.lang) });
  return `${metal} · ${rate}`;
}

/** Each figure's number for the `data-v` of its element: what tests and readers of the markup compare with the API. */
export function valuesOf(f: Figures): Record<string, number | null> {
  const out: Record<string, number | null> = {
    price: f.price,
    change: f.change?.change ?? null,
    'change-pct': f.change?.pct ?? null,
    // The split's two percents: the metal's on the element (`data-v`), the currency's beside it (`data-fx`).
    why: f.parts?.metal.pct ?? null,
    'why-fx': f.parts?.currency.pct ?? null,
    prev: f.change?.previousClose ?? null,
    high: f.high,
    low: f.low,
    bid: f.bid,
    ask: f.ask,
  };
  for (const m of METALS) {
    out[`m-${m.id}`] = f.metals[m.id].price;
    out[`mc-${m.id}`] = f.metals[m.id].pct;
  }
  for (const k of KARAT_KEYS) {
    if (f.karats) out[`k-${k}`] = f.karats[k];
    if (f.per10g) out[`t-${k}`] = f.per10g[k];
  }
  return out;
}
