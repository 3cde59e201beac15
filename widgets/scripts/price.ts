import type { MetalId } from '../../lib/reference/metals';
import type { DataState } from '../../lib/schemas/common';
import type { Spot } from '../../lib/schemas/spot';
import type { PriceEvent } from '../../lib/schemas/stream';
import { roundOrNull, type Unit } from '../../lib/reference/units';
import { money, number, priceDecimals, updated, type Words } from '../format';
import { changeLine, changeText, marketLine, metalPrice, metalState, staleBadge } from '../price';
import { follow } from './live';
import { config, poll, reportHeight, setText, type Answer } from './shared';

// Keeps the server-rendered price widget live: it follows the price stream (each change pushed as it
// happens), or with `live=0`, without EventSource or when the stream is refused or keeps failing, polls
// the spot endpoint at its cache cadence; either way it ages the freshness line every second. A failed
// poll changes nothing; an unavailable price shows "unavailable".

interface Config extends Words {
  api: string;
  stream: string;
  live: boolean;
  locale: string;
  unit: Unit;
  metal: MetalId;
  silver: boolean;
  ratio: boolean;
  state: DataState;
  everyS: number;
}

const cfg = config<Config>();
let state = cfg.state;

/** What the widget shows, from a spot answer or a price event alike. */
interface Shown {
  price: number | null;
  currency: string;
  silverUsd: number | null;
  ratio: number | null;
  change: ReturnType<typeof changeLine>;
  market: Spot['market'];
}

function fresh() {
  if (!state.as_of) return setText('fresh', cfg.t.noPrice);
  const age = (Date.now() - Date.parse(state.as_of)) / 1000;
  setText('fresh', updated(cfg, age));
  if (state.status === 'stale') setText('badge', staleBadge({ ...state, age_seconds: Math.floor(age) }, cfg));
}

/** Draws `s`; null: no price is held; undefined: the figures stay, only the state moves. */
function draw(s?: Shown | null) {
  if (s) {
    setText('price', s.price === null ? cfg.t.priceUnavailable : money(s.price, s.currency, cfg.locale, priceDecimals(cfg.unit)));
    if (cfg.silver) setText('silver', s.silverUsd === null ? '—' : money(s.silverUsd, 'USD', cfg.locale));
    if (cfg.ratio) setText('ratio', s.ratio === null ? '—' : number(s.ratio, cfg.locale));
    const el = document.querySelector<HTMLElement>('[data-f="change"]');
    if (el) {
      el.className = s.change?.dir ?? '';
      el.title = s.change?.title ?? '';
    }
    setText('change', s.change?.text ?? '', !s.change);
    const closed = marketLine(s.market, cfg, cfg.locale);
    setText('market', closed, !closed);
  } else if (s === null) {
    setText('price', cfg.t.priceUnavailable);
    setText('change', '', true);
  }
  setText('badge', staleBadge(state, cfg), state.status !== 'stale');
  fresh();
}

function show(status: number, body: Answer<Spot>) {
  if (!body?.data_state) return;
  state = body.data_state;
  if (status === 200 && 'xau' in body) {
    state = metalState(body, cfg.metal, body.data_state);
    draw({
      price: metalPrice(body, cfg.metal, cfg.unit),
      currency: body.xau.currency,
      silverUsd: body.silver_usd_oz,
      ratio: body.gold_silver_ratio,
      change: changeLine(body, cfg.metal, cfg, cfg.locale, cfg.unit),
      market: body.market,
    });
  } else draw(status === 503 ? null : undefined);
}

function showLive(e: PriceEvent) {
  const gold = e.metals.gold.usd_oz;
  // No gold price ever seen: what spot's 503 says, and no more.
  if (gold === null) {
    state = e.data_state;
    return draw(null);
  }
  const m = e.metals[cfg.metal];
  state = m.data_state;
  const silver = e.metals.silver.usd_oz;
  draw({
    price: cfg.metal === 'gold' ? e.price : e[cfg.metal],
    currency: e.currency,
    silverUsd: silver,
    // Spot's gold_silver_ratio: gold ÷ silver, 2 decimals.
    ratio: roundOrNull(silver === null ? null : gold / silver, 2),
    change: changeText({ ...m, change_pct: e.change_pct[cfg.metal] }, e.currency, cfg, cfg.locale, cfg.unit),
    market: e.market,
  });
}

const polling = () => poll(() => cfg.api, cfg.everyS, show);

fresh();
setInterval(fresh, 1000);
const live = cfg.live ? follow(() => cfg.stream, showLive, polling) : null;
if (live) live.open();
else polling();
reportHeight();
