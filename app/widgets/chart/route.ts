import { toDataState } from '@/lib/data-state';
import { getChart } from '@/lib/chart';
import { publicOrigin } from '@/lib/http/respond';
import { CHART_CSS, CHART_WIDGET_RANGES, CHART_WIDGET_SYMBOLS, renderChart, seriesUrl, type ChartOptions } from '@/widgets/chart';
import { spotForWidget } from '@/widgets/data';
import { parseCommon, pick } from '@/widgets/options';
import { widgetPage, widgetResponse } from '@/widgets/page';

export async function GET(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const opts: ChartOptions = {
    ...parseCommon(q),
    symbol: pick(q.get('symbol'), CHART_WIDGET_SYMBOLS, 'xau'),
    range: pick(q.get('range'), CHART_WIDGET_RANGES, '1mo'),
  };
  const origin = publicOrigin(req);
  // Headline: the live spot for gold and silver (USD per troy ounce); the latest real bar for the rest.
  let latest: number | null = null;
  let currency = 'USD';
  let state = toDataState({ status: 'unavailable', asOf: null, source: null });
  if (opts.symbol === 'xau' || opts.symbol === 'silver') {
    const view = await spotForWidget('USD', 'oz', origin);
    latest = opts.symbol === 'xau' ? (view.spot?.spot_usd_oz ?? null) : (view.spot?.silver_usd_oz ?? null);
    state = opts.symbol === 'xau' ? view.state : (view.spot?.groups.silver ?? view.state);
  } else {
    const chart = await getChart({ symbol: opts.symbol, range: '5d', interval: '1d' }).catch(() => null);
    const last = chart?.points[chart.points.length - 1];
    latest = last?.c ?? null;
    currency = chart?.currency ?? 'USD';
    if (chart) state = chart.data_state;
  }
  const urls = Object.fromEntries(CHART_WIDGET_RANGES.map((r) => [r, seriesUrl(opts.symbol, r)]));
  const page = widgetPage({
    name: 'chart',
    title: 'Gold price chart',
    theme: opts.theme,
    locale: opts.locale,
    body: renderChart({ opts, latest, latestCurrency: currency, state, origin }),
    css: CHART_CSS,
    config: { locale: opts.locale, range: opts.range, urls, currency, state, decimals: opts.symbol === 'eurusd' || opts.symbol === 'dxy' ? 4 : 2 },
  });
  return widgetResponse(page, 'widgetChart');
}
