import type { CallToolResult } from '@modelcontextprotocol/server';
import { UNIT_LIST, type Unit } from '../../lib/reference/units';
import type { DataState } from '../../lib/schemas/common';
import type { Spot } from '../../lib/schemas/spot';
import { money, priceDecimals, unitWord, updated } from '../format';
import { changeLine, marketLine, metalPrice, priceTitle, staleBadge } from '../price';
import { field, setText } from '../scripts/shared';
import { app, connect, reader } from './host';

// The price view (ui://gold/price): a get_gold_price result drawn as the price widget draws spot,
// from the result the host hands over and never from the network. The price in its currency and
// unit, the change since the previous close with its sign and arrow, whether the market is closed,
// and how fresh the figure is; an unavailable result or a failed call says so and shows no number.

let result: CallToolResult | undefined;

/** The spot body of the result; null when it is not one (unavailable, refused, failed). */
function spotOf(r: CallToolResult | undefined): Spot | null {
  const body = r?.structuredContent as Partial<Spot> | undefined;
  return !r?.isError && typeof body?.xau?.price === 'number' && body.data_state ? (body as Spot) : null;
}

function stateOf(r: CallToolResult | undefined): DataState | null {
  const state = (r?.structuredContent as { data_state?: DataState } | undefined)?.data_state;
  return !r?.isError && state?.status ? state : null;
}

function draw(): void {
  const { t, locale, timeZone } = reader;
  document.title = priceTitle('gold', t);
  field('main')?.setAttribute('aria-label', document.title);
  if (!result) return;
  const spot = spotOf(result);
  const state = stateOf(result);
  const unit: Unit = UNIT_LIST.find((u) => u.label === spot?.xau.unit)?.id ?? 'oz';
  setText('head', `${t.gold} · ${unitWord(t, unit, 'per')}`);
  const price = spot && metalPrice(spot, 'gold', unit);
  setText('price', spot && typeof price === 'number' ? money(price, spot.xau.currency, locale, priceDecimals(unit)) : t.priceUnavailable);
  const change = changeLine(spot, 'gold', reader, locale, unit);
  const el = field('change');
  if (el) {
    el.className = change?.dir ?? '';
    el.title = change?.title ?? '';
  }
  setText('change', change?.text ?? '', !change);
  const closed = marketLine(spot?.market, reader, locale, timeZone);
  setText('market', closed, !closed);
  fresh(state);
}

/** The freshness line and the stale badge, aged from the figure's own time. */
function fresh(state: DataState | null): void {
  const age = state?.as_of ? Math.max(0, (Date.now() - Date.parse(state.as_of)) / 1000) : null;
  setText('fresh', !state ? '' : age === null ? reader.t.noPrice : updated(reader, age));
  const badge = state?.status === 'stale' && age !== null ? staleBadge({ ...state, age_seconds: Math.floor(age) }, reader) : '';
  setText('badge', badge, !badge);
}

app.ontoolresult = (r) => {
  result = r;
  draw();
};
setInterval(() => fresh(stateOf(result)), 1000);
void connect(draw);
