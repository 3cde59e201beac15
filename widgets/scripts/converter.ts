import type { DataState } from '../../lib/schemas/common';
import type { Spot } from '../../lib/schemas/spot';
import type { Unit } from '../../lib/units';
import { rateText, resultText, unitPrice, type Direction } from '../converter';
import { updated, type Words } from '../format';
import { staleBadge } from '../price';
import { config, poll, reportHeight, setText, type Answer } from './shared';

// Converts as you type. The price per ounce and the FX rate come with the page and are refreshed
// from the spot endpoint for the chosen currency; without a price it shows no number.

interface Config extends Words {
  locale: string;
  spotUsdOz: number | null;
  fxRate: number | null;
  currency: string;
  state: DataState;
  everyS: number;
}

const cfg = config<Config>();
const form = document.querySelector('form')!;
const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
const rates: Record<string, number> = {};
if (cfg.fxRate !== null) rates[cfg.currency] = cfg.fxRate;
let spot = cfg.spotUsdOz;
let state = cfg.state;

function render() {
  const currency = input('currency').value;
  const o = {
    amount: Number(input('amount').value),
    direction: input('direction').value as Direction,
    currency,
    unit: input('unit').value as Unit,
    karat: Number(input('karat').value),
    locale: cfg.locale,
  };
  const rate = rates[currency];
  if (spot === null || rate === undefined) return setText('result', spot === null ? cfg.t.noConversion : '…');
  const price = unitPrice(spot, rate, o.unit, o.karat);
  setText('result', Number.isFinite(o.amount) && o.amount >= 0 ? resultText(o, price, cfg) : cfg.t.enterAmount);
  setText('rate', rateText(o, price, cfg));
}

function fresh() {
  if (!state.as_of) return;
  setText('fresh', updated(cfg, (Date.now() - Date.parse(state.as_of)) / 1000));
}

let followed = cfg.currency;
const refresh = poll(
  () => `/api/v1/spot?currency=${encodeURIComponent(followed)}&compact=1`,
  cfg.everyS,
  (status, body: Answer<Spot>) => {
    if (!body?.data_state) return;
    state = body.data_state;
    if (status === 200 && 'xau' in body) {
      spot = body.spot_usd_oz;
      rates[body.xau.currency] = body.fx_rate;
    } else if (status === 503) spot = null;
    setText('badge', staleBadge(state, cfg), state.status !== 'stale');
    render();
    fresh();
  },
);

form.addEventListener('input', () => {
  const currency = input('currency').value;
  if (currency !== followed) {
    followed = currency;
    if (!(currency in rates)) void refresh();
  }
  render();
});
form.addEventListener('submit', (e) => {
  e.preventDefault();
  render();
});
setText('submit', cfg.t.submit);
setInterval(fresh, 1000);
reportHeight();
