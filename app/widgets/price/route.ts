import { getHistory } from '@/lib/history';
import { publicOrigin } from '@/lib/http/respond';
import { spotForWidget } from '@/widgets/data';
import { flag, parseCommon } from '@/widgets/options';
import { widgetPage, widgetResponse } from '@/widgets/page';
import { renderPrice } from '@/widgets/price';

export async function GET(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const common = parseCommon(q);
  const opts = { ...common, silver: flag(q, 'silver'), ratio: flag(q, 'ratio') };
  const origin = publicOrigin(req);
  const { spot, state, currency } = await spotForWidget(opts.currency, opts.unit, origin);
  opts.currency = currency;
  const body = renderPrice({ opts, spot, state, dayChangePct: await dayChange(), origin });
  const api = `/api/v1/spot?${new URLSearchParams({ currency, unit: opts.unit, compact: '1' })}`;
  const page = widgetPage({
    name: 'price',
    title: 'Gold price',
    theme: opts.theme,
    locale: opts.locale,
    body,
    config: { api, locale: opts.locale, unit: opts.unit, silver: opts.silver, ratio: opts.ratio, state, everyS: 30 },
  });
  return widgetResponse(page, 'widgetPrice');
}

/** The latest daily change of the history series (percent), or null when the history is unavailable. */
async function dayChange(): Promise<number | null> {
  const history = await getHistory().catch(() => null);
  const p = history?.points;
  if (!p || p.length < 2) return null;
  return (p[p.length - 1].c / p[p.length - 2].c - 1) * 100;
}
