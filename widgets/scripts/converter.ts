import { METALS, type MetalId } from '../../lib/reference/metals';
import type { DataState } from '../../lib/schemas/common';
import type { Spot } from '../../lib/schemas/spot';
import type { Unit } from '../../lib/reference/units';
import { converterTitle, fineShareOf, PURE, purities, purityOption, rateText, resultText, unitPrice, type Direction } from '../converter';
import { updated, type Words } from '../format';
import { metalState, staleBadge } from '../price';
import type { PriceEvent } from '../../lib/schemas/stream';
import { follow } from './live';
import { config, poll, reportHeight, setText, type Answer } from './shared';

// Converts as you type. Every metal's price per ounce and the FX rate come with the page and are kept
// current by the price stream for the chosen currency (each change pushed), or with `live=0`, without
// EventSource or when the stream is refused or keeps failing, by polling the spot endpoint; without a
// price it shows no number.

interface Config extends Words {
  locale: string;
  /** USD per troy ounce of each metal, null when unavailable. */
  usd: Record<MetalId, number | null>;
  fxRate: number | null;
  currency: string;
  states: Record<MetalId, DataState>;
  everyS: number;
  live: boolean;
}

const cfg = config<Config>();
const form = document.querySelector('form')!;
const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
const rates: Record<string, number> = {};
if (cfg.fxRate !== null) rates[cfg.currency] = cfg.fxRate;
const usd = { ...cfg.usd };
const states = { ...cfg.states };
const metal = () => input('metal').value as MetalId;

/** The purity list follows the metal: gold's karats and finenesses, another metal's finenesses; a choice the new list lacks falls to pure. */
let listed = metal();
function followMetal(m: MetalId) {
  if (m === listed) return;
  listed = m;
  const select = input('fineness') as HTMLSelectElement;
  const was = select.value;
  const offered = purities(m);
  select.replaceChildren(...offered.map((p) => new Option(purityOption(p, cfg.t, cfg.locale), p)));
  select.value = offered.includes(was) ? was : m === 'gold' ? '24k' : PURE;
}

function render() {
  const currency = input('currency').value;
  const m = metal();
  followMetal(m);
  const o = {
    amount: Number(input('amount').value),
    direction: input('direction').value as Direction,
    currency,
    unit: input('unit').value as Unit,
    purity: input('fineness').value,
    locale: cfg.locale,
    metal: m,
  };
  const title = converterTitle(m, cfg.t);
  setText('title', title);
  document.title = title;
  setText('badge', staleBadge(states[m], cfg), states[m].status !== 'stale');
  const spot = usd[m];
  const rate = rates[currency];
  if (spot === null || rate === undefined) {
    setText('rate', '');
    return setText('result', spot === null ? cfg.t.noConversion : '…');
  }
  const price = unitPrice(spot, rate, o.unit, fineShareOf(o.purity));
  setText('result', Number.isFinite(o.amount) && o.amount >= 0 ? resultText(o, price, cfg) : cfg.t.enterAmount);
  setText('rate', rateText(o, price, cfg));
}

function fresh() {
  const state = states[metal()];
  if (!state.as_of) return setText('fresh', cfg.t.noPrice);
  setText('fresh', updated(cfg, (Date.now() - Date.parse(state.as_of)) / 1000));
}

let followed = cfg.currency;
let refresh: (() => Promise<void>) | null = null;
const polling = () => {
  refresh = poll(
    () => `/api/v1/spot?currency=${encodeURIComponent(followed)}&compact=1`,
    cfg.everyS,
    (status, body: Answer<Spot>) => {
      if (!body?.data_state) return;
      if (status === 200 && 'xau' in body) {
        for (const m of METALS) {
          usd[m.id] = body[m.usdField] ?? null;
          states[m.id] = metalState(body, m.id, body.data_state);
        }
        rates[body.xau.currency] = body.fx_rate;
      } else if (status === 503) {
        for (const m of METALS) {
          usd[m.id] = null;
          states[m.id] = body.data_state;
        }
      }
      render();
      fresh();
    },
  );
};
// An event carries every metal's USD price and its own state, and the rate of the currency followed.
const live = cfg.live
  ? follow(
      () => `/api/v1/stream?currency=${encodeURIComponent(followed)}`,
      (e: PriceEvent) => {
        for (const m of METALS) {
          usd[m.id] = e.metals[m.id].usd_oz;
          states[m.id] = e.metals[m.id].data_state;
        }
        rates[e.currency] = e.fx_rate;
        render();
        fresh();
      },
      polling,
    )
  : null;
if (live) live.open();
else polling();

form.addEventListener('input', () => {
  const currency = input('currency').value;
  if (currency !== followed) {
    followed = currency;
    // The stream follows one currency: the new one's, at once. A poller asks only for a rate it lacks.
    if (refresh) {
      if (!(currency in rates)) void refresh();
    } else live?.open();
  }
  render();
  fresh();
});
form.addEventListener('submit', (e) => {
  e.preventDefault();
  render();
});
setText('submit', cfg.t.submit);
setInterval(fresh, 1000);
reportHeight();
