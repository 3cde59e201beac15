import { CHART_SYMBOLS } from '../lib/reference/instruments';
import { CHART_CSS, CHART_METAL, chartTitle, isRate, renderChart, type ChartOptions } from './chart';
import { CONVERTER_CSS, converterTitle, DIRECTIONS, purityFrom, renderConverter, type ConverterOptions } from './converter';
import { chartHeadline, chartSeries, spotForWidget } from './data';
import { priceDecimals } from './format';
import { textFor } from './i18n';
import { CHART_WIDGET_RANGES } from './kinds';
import { boundedNumber, flag, parseCommon, pick } from './options';
import { widgetPage } from './page';
import { METAL_IDS, METALS, type MetalId } from '../lib/reference/metals';
import type { DataState } from '../lib/schemas/common';
import { metalState, priceTitle, renderPrice, type PriceOptions } from './price';

// Each widget page from its query and the public origin: options parsed against fixed lists, data
// read from the same lib/ functions the REST endpoints answer from, HTML rendered by the widget.

/** The whole price widget page for a query. */
export async function pricePage(q: URLSearchParams, origin: string): Promise<string> {
  const metal = pick(q.get('metal'), METAL_IDS, 'gold');
  const opts: PriceOptions = { ...parseCommon(q), metal, silver: flag(q, 'silver'), ratio: flag(q, 'ratio') };
  const { spot, state, currency } = await spotForWidget(opts.currency, opts.unit, origin);
  opts.currency = currency;
  const text = textFor(opts.locale);
  const api = `/api/v1/spot?${new URLSearchParams({ currency, unit: opts.unit, compact: '1' })}`;
  const stream = `/api/v1/stream?${new URLSearchParams({ currency, unit: opts.unit })}`;
  return widgetPage({
    name: 'price',
    title: priceTitle(metal, text.t),
    theme: opts.theme,
    text,
    body: renderPrice({ opts, spot, state, origin, words: text }),
    config: {
      api,
      stream,
      live: opts.live !== false,
      locale: opts.locale,
      unit: opts.unit,
      metal,
      silver: opts.silver,
      ratio: opts.ratio,
      state: metalState(spot, metal, state),
      everyS: 30,
    },
  });
}

/** The whole chart widget page for a query. */
export async function chartPage(q: URLSearchParams, origin: string): Promise<string> {
  const opts: ChartOptions = {
    ...parseCommon(q),
    symbol: pick(q.get('symbol'), CHART_SYMBOLS, 'xau'),
    range: pick(q.get('range'), CHART_WIDGET_RANGES, '1mo'),
  };
  const metal = CHART_METAL[opts.symbol];
  const { latest, currency, state } = await chartHeadline(opts.symbol, origin, opts.currency, opts.unit);
  // A currency spot does not take falls back to USD, for the headline and the lines alike.
  const drawn = { currency, unit: opts.unit };
  const text = textFor(opts.locale);
  const series = await chartSeries(opts.symbol, CHART_WIDGET_RANGES, drawn, text.t);
  const first = series[opts.range];
  return widgetPage({
    name: 'chart',
    title: chartTitle(opts.symbol, text.t),
    theme: opts.theme,
    text,
    body: renderChart({
      opts,
      line: first.line,
      label: first.label,
      latest,
      latestCurrency: currency,
      latestDecimals: isRate(opts.symbol) ? 4 : priceDecimals(drawn.unit),
      state,
      origin,
      words: text,
    }),
    css: CHART_CSS,
    config: {
      locale: opts.locale,
      range: opts.range,
      series,
      state,
      // One day of a metal (the first-party spot series) also follows the price stream.
      live: opts.live !== false && metal !== undefined ? metal : null,
    },
  });
}

/** The whole converter widget page for a query. */
export async function converterPage(q: URLSearchParams, origin: string): Promise<string> {
  const metal = pick(q.get('metal'), METAL_IDS, 'gold');
  const opts: ConverterOptions = {
    ...parseCommon(q),
    metal,
    amount: boundedNumber(q.get('amount'), 0, 1e12, 1000),
    direction: pick(q.get('direction'), DIRECTIONS, 'money-to-gold'),
    purity: purityFrom(metal, q.get('fineness'), q.get('karat')),
  };
  const { spot, state, currency, codes } = await spotForWidget(opts.currency, opts.unit, origin, { withCodes: true });
  opts.currency = currency;
  const text = textFor(opts.locale);
  // Every metal's USD price per troy ounce, so the script can switch metal without asking again.
  const usd = Object.fromEntries(METALS.map((m) => [m.id, spot ? (spot[m.usdField] ?? null) : null])) as Record<MetalId, number | null>;
  const states = Object.fromEntries(METALS.map((m) => [m.id, metalState(spot, m.id, state)])) as Record<MetalId, DataState>;
  const view = { opts, codes, spotUsdOz: usd[opts.metal], fxRate: spot?.fx_rate ?? null, state: states[opts.metal], origin, words: text };
  return widgetPage({
    name: 'converter',
    title: converterTitle(opts.metal, text.t),
    theme: opts.theme,
    text,
    body: renderConverter(view),
    css: CONVERTER_CSS,
    config: { locale: opts.locale, usd, fxRate: view.fxRate, currency, states, everyS: 30, live: opts.live !== false },
  });
}
