import { publicOrigin } from '@/lib/http/respond';
import { DIRECTIONS, KARATS, CONVERTER_CSS, renderConverter, type ConverterOptions } from '@/widgets/converter';
import { spotForWidget } from '@/widgets/data';
import { boundedNumber, parseCommon, pick } from '@/widgets/options';
import { widgetPage, widgetResponse } from '@/widgets/page';

export async function GET(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const karat = Number(q.get('karat'));
  const opts: ConverterOptions = {
    ...parseCommon(q),
    amount: boundedNumber(q.get('amount'), 0, 1e12, 1000),
    direction: pick(q.get('direction'), DIRECTIONS, 'money-to-gold'),
    karat: (KARATS as readonly number[]).includes(karat) ? (karat as ConverterOptions['karat']) : 24,
  };
  const origin = publicOrigin(req);
  const { spot, state, currency, codes } = await spotForWidget(opts.currency, opts.unit, origin, { withCodes: true });
  opts.currency = currency;
  const view = { opts, codes, spotUsdOz: spot?.spot_usd_oz ?? null, fxRate: spot?.fx_rate ?? null, state, origin };
  const page = widgetPage({
    name: 'converter',
    title: 'Gold converter',
    theme: opts.theme,
    locale: opts.locale,
    body: renderConverter(view),
    css: CONVERTER_CSS,
    config: { locale: opts.locale, spotUsdOz: view.spotUsdOz, fxRate: view.fxRate, currency, state, everyS: 30 },
  });
  return widgetResponse(page, 'widgetConverter');
}
