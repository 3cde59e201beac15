import type { MetalId } from '../../lib/reference/metals';
import type { DataState } from '../../lib/schemas/common';
import type { Spot } from '../../lib/schemas/spot';
import type { Unit } from '../../lib/reference/units';
import { money, number, priceDecimals, updated, type Words } from '../format';
import { changeLine, marketLine, metalPrice, metalState, staleBadge } from '../price';
import { config, poll, reportHeight, setText, type Answer } from './shared';

// Keeps the server-rendered price widget live: polls the spot endpoint at its cache cadence and
// ages the freshness line every second. A failed poll changes nothing; a 503 shows "unavailable".

interface Config extends Words {
  api: string;
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

function fresh() {
  if (!state.as_of) return setText('fresh', cfg.t.noPrice);
  const age = (Date.now() - Date.parse(state.as_of)) / 1000;
  setText('fresh', updated(cfg, age));
  if (state.status === 'stale') setText('badge', staleBadge({ ...state, age_seconds: Math.floor(age) }, cfg));
}

function show(status: number, body: Answer<Spot>) {
  if (!body?.data_state) return;
  state = body.data_state;
  if (status === 200 && 'xau' in body) {
    state = metalState(body, cfg.metal, body.data_state);
    const price = metalPrice(body, cfg.metal, cfg.unit);
    setText(
      'price',
      price === null ? cfg.t.priceUnavailable : money(price, body.xau.currency, cfg.locale, priceDecimals(body.xau.currency, cfg.unit)),
    );
    if (cfg.silver) setText('silver', body.silver_usd_oz === null ? '—' : money(body.silver_usd_oz, 'USD', cfg.locale));
    if (cfg.ratio) setText('ratio', body.gold_silver_ratio === null ? '—' : number(body.gold_silver_ratio, cfg.locale));
    const change = changeLine(body, cfg.metal, cfg, cfg.locale, cfg.unit);
    const el = document.querySelector<HTMLElement>('[data-f="change"]');
    if (el) {
      el.className = change?.dir ?? '';
      el.title = change?.title ?? '';
    }
    setText('change', change?.text ?? '', !change);
    const closed = marketLine(body.market, cfg, cfg.locale);
    setText('market', closed, !closed);
  } else if (status === 503) {
    setText('price', cfg.t.priceUnavailable);
    setText('change', '', true);
  }
  setText('badge', staleBadge(state, cfg), state.status !== 'stale');
  fresh();
}

fresh();
setInterval(fresh, 1000);
poll(() => cfg.api, cfg.everyS, show);
reportHeight();
