import { listed, OTHER_METALS } from '../../reference/metals';
import { Spot, SpotQuery } from '../../schemas/spot';
import { UNIT_LIST, type UnitEntry } from '../../reference/units';
import { getSpot } from '../../prices/spot';
import { isUnavailable } from '../../sources/unavailable';
import { QUOTES_API_NAME } from '../../sources/upstream/quotes';
import { fmt, freshness, tool, toolOutput } from '../tool';

const UNITS_IN_WORDS = listed(
  UNIT_LIST.map((u: UnitEntry) => (u.note ? `${u.name} (${u.note})` : u.name)),
  'or',
);
const OTHERS_IN_WORDS = listed(OTHER_METALS.map((m) => `${m.name.toLowerCase()} (${m.symbol})`));

export const getGoldPrice = tool({
  name: 'get_gold_price',
  title: 'Live gold price',
  description:
    `Live spot gold (XAU) in any of 160+ currencies per ${UNITS_IN_WORDS}, with the price of each purity from 24k to 9k ` +
    `(karats, same currency and unit), ${OTHERS_IN_WORDS} (USD per troy ounce), the gold/silver ratio, tokenized gold (PAXG, XAUT), ` +
    'Bitcoin measured in gold, market caps and supply statistics. Indicative mid-market reference rates. ' +
    'Each metal refreshes roughly every 30-60 seconds from two independent sources (gold-api.com, else the swissquote.com bid/ask mid; ' +
    `price_source names the one served for gold, ${listed(OTHER_METALS.map((m) => m.sourceField))} for the others, cross_check says whether gold's agree); ` +
    'each metal degrades on its own in groups, and only gold decides data_state. ' +
    'data_state.status is fresh, stale (both sources are down: the last real price, with its age) ' +
    'or unavailable (no price is known; none is invented). market says whether spot gold is trading now (closed on weekends, ' +
    'in the daily 17:00-18:00 New York break and on holidays) and when that changes: while closed, a fresh price does not move. ' +
    `change (gold), ${listed(OTHER_METALS.map((m) => m.changeField))}: the move since the previous session's close, with the session's open, high and low, in the ` +
    'requested currency and unit, from the daily spot bars this service records (never from futures); state unavailable with nulls ' +
    "until the deployment has a bar before the current session. Each change says why the price moved: from_metal is what the metal's own " +
    "move in US dollars made of it, from_currency what the currency's move against the dollar made (the two add up to change and change_pct; " +
    "in USD all of it is the metal's; null in another currency when the exchange rate at that close is not known).",
  input: SpotQuery.pick({ currency: true, unit: true }),
  output: toolOutput(Spot),
  view: 'price',
  run: async ({ currency, unit }, ctx) => {
    const body = await getSpot({ currency, unit, compact: '1' }, { origin: ctx.origin });
    return isUnavailable(body) ? body : { body, summary: priceSummary(body) };
  },
});

/** "65.78 USD/oz", with its state when not fresh, or "unavailable": never a number for a metal not seen. */
function metalText(price: number | null | undefined, state: Spot['data_state'] | undefined): string {
  if (price === null || price === undefined) return 'unavailable';
  return `${fmt(price)} USD/oz${state?.status === 'stale' ? ` (${freshness(state)})` : ''}`;
}

const REASON: Record<NonNullable<Spot['market']['reason']>, string> = { weekend: 'weekend', daily_break: 'daily break', holiday: 'holiday' };

/** The text block of get_gold_price: price, purities, freshness, the source served and, when closed, when trading resumes. */
export function priceSummary(body: Spot): string {
  const unitName = UNIT_LIST.find((u) => u.label === body.xau.unit)!.name;
  const source = body.price_source === QUOTES_API_NAME ? `${QUOTES_API_NAME}, mid of bid and ask` : body.price_source;
  const m = body.market;
  const market =
    m.status === 'closed' ? ` Market closed (${REASON[m.reason!]}) until ${m.next_change}: the price does not move until it reopens.` : '';
  const karats = Object.entries(body.karats)
    .map(([k, v]) => `${k} ${fmt(v, 4)}`)
    .join(', ');
  return (
    `Gold (XAU): ${fmt(body.xau.price, 4)} ${body.xau.currency} per ${unitName}; ${freshness(body.data_state)}. ` +
    `${changeSummary(body.change, body.xau.currency)} ` +
    `By purity, ${body.xau.currency} per ${unitName}: ${karats}. ` +
    `Spot ${fmt(body.spot_usd_oz)} USD/oz (${source}).${market} ` +
    `${OTHER_METALS.map((m) => `${m.name} ${metalText(body[m.usdField], body.groups?.[m.id])}`).join('; ')}. ` +
    `Gold/silver ratio ${fmt(body.gold_silver_ratio)}. ` +
    `Bitcoin ${body.btc_usd === null ? 'unavailable' : `${fmt(body.btc_usd)} USD = ${fmt(body.btc_gold_oz, 4)} oz of gold`}.`
  );
}

/** A currency's English name ("Indian Rupee"), or its code where none is known. */
const currencyNames = new Intl.DisplayNames('en', { type: 'currency' });

/**
 * "+12.3 EUR (+0.45%) since the previous close of 2026-11-17 (4,120.5): gold −0.2% in US dollars (−8.2 EUR), +0.65% from
 * the Euro's fall against the US dollar (+20.5 EUR).", or why there is no change yet.
 */
export function changeSummary(c: Spot['change'], currency: string, metal = 'gold'): string {
  if (c.state !== 'ok' || c.change === null || c.change_pct === null) {
    return 'Change since the previous close: not known yet (this service has no daily spot bar before the current session).';
  }
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '−' : '±');
  const signed = (n: number, digits = 2) => `${sign(n)}${fmt(Math.abs(n), digits)}`;
  const session =
    c.high === null || c.low === null ? '' : ` Session ${c.session_date}: open ${fmt(c.open, 4)}, high ${fmt(c.high, 4)}, low ${fmt(c.low, 4)}.`;
  return (
    `Change ${signed(c.change, 4)} ${currency} (${signed(c.change_pct)}%) since the ` +
    `previous close of ${c.previous_close_date} (${fmt(c.previous_close, 4)})${whyItMoved(c, currency, metal, signed)}.${session}`
  );
}

/** The change split into the metal's move and the currency's (decisions §32), in words, from the figures the answer holds. */
function whyItMoved(c: Spot['change'], currency: string, metal: string, signed: (n: number, digits?: number) => string): string {
  const name = currencyNames.of(currency) ?? currency;
  const m = c.from_metal;
  const f = c.from_currency;
  if (currency === 'USD' && m) return `: all of it ${metal}'s own move, in US dollars`;
  if (!m || !f) {
    return `; how much of it came from ${metal} and how much from the ${name} is not known (the exchange rate at that close was not recorded, or the one in force now is not fresh)`;
  }
  const move = f.amount > 0 ? `'s fall against the US dollar` : f.amount < 0 ? `'s rise against the US dollar` : ' (unchanged against the US dollar)';
  return (
    `: ${metal} ${signed(m.pct)}% in US dollars (${signed(m.amount, 4)} ${currency}), ` +
    `${signed(f.pct)}% from the ${name}${move} (${signed(f.amount, 4)} ${currency})`
  );
}
