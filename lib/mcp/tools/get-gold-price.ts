import { Spot, SpotQuery } from '../../schemas/spot';
import { getSpot } from '../../spot';
import { isUnavailable } from '../../unavailable';
import { fmt, freshness, tool, toolOutput } from '../tool';

export const getGoldPrice = tool({
  name: 'get_gold_price',
  title: 'Live gold price',
  description:
    'Live spot gold (XAU) in any of 160+ currencies per troy ounce, gram or kilogram, with the price of each purity from 24k to 9k ' +
    '(karats, same currency and unit), silver (USD/oz), the gold/silver ratio, ' +
    'tokenized gold (PAXG, XAUT), Bitcoin measured in gold, market caps and supply statistics. Indicative mid-market reference rates. ' +
    'The quote refreshes roughly every 30-60 seconds. data_state.status is fresh, stale (the upstream is down: the last real price, with its age) ' +
    'or unavailable (no price is known; none is invented).',
  input: SpotQuery.pick({ currency: true, unit: true }),
  output: toolOutput(Spot),
  run: async ({ currency, unit }, ctx) => {
    const body = await getSpot({ currency, unit, compact: '1' }, { origin: ctx.origin });
    if (isUnavailable(body)) return body;
    const unitName = body.xau.unit === 'troy_oz' ? 'troy ounce' : body.xau.unit;
    const summary =
      `Gold (XAU): ${fmt(body.xau.price, 4)} ${body.xau.currency} per ${unitName}; ${freshness(body.data_state)}. ` +
      `By purity, ${body.xau.currency} per ${unitName}: ${Object.entries(body.karats).map(([k, v]) => `${k} ${fmt(v, 4)}`).join(', ')}. ` +
      `Spot ${fmt(body.spot_usd_oz)} USD/oz (${body.price_source}). ` +
      `Silver ${body.silver_usd_oz === null ? 'unavailable' : `${fmt(body.silver_usd_oz)} USD/oz`}, gold/silver ratio ${fmt(body.gold_silver_ratio)}. ` +
      `Bitcoin ${body.btc_usd === null ? 'unavailable' : `${fmt(body.btc_usd)} USD = ${fmt(body.btc_gold_oz, 4)} oz of gold`}.`;
    return { body, summary };
  },
});
