import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Spot } from '../../schemas/spot';
import { getSpot, goldState } from '../../spot';
import { answer, fmt, freshness, toolOutput } from '../result';
import type { ToolContext } from '../server';

const Input = z.object({
  currency: z.string({ error: 'currency must be an ISO 4217 code such as USD, EUR, GBP, JPY or INR (160+ supported)' }).default('USD').describe('ISO 4217 code, e.g. USD, EUR, JPY, INR (160+ supported; case-insensitive)'),
  unit: z.enum(['oz', 'gram', 'kg'], { error: 'unit must be one of: oz, gram, kg' }).default('oz').describe('Weight unit: oz (troy ounce), gram or kg'),
});

// Built once: a server is made per request, its schemas need not be.
const Output = toolOutput(Spot);

export function registerGetGoldPrice(server: McpServer, ctx: ToolContext) {
  server.registerTool(
    'get_gold_price',
    {
      title: 'Live gold price',
      description:
        'Live spot gold (XAU) in any of 160+ currencies per troy ounce, gram or kilogram, with silver (USD/oz), the gold/silver ratio, ' +
        'tokenized gold (PAXG, XAUT), Bitcoin measured in gold, market caps and supply statistics. Indicative mid-market reference rates. ' +
        'The quote refreshes roughly every 30-60 seconds. data_state.status is fresh, stale (the upstream is down: the last real price, with its age) ' +
        'or unavailable (no price is known; none is invented).',
      inputSchema: Input,
      outputSchema: Output,
      annotations: { readOnlyHint: true, openWorldHint: true, title: 'Live gold price' },
    },
    ({ currency, unit }) =>
      answer(async () => {
        const body = await getSpot({ currency, unit, compact: '1' }, { origin: ctx.origin });
        const unitName = body.xau.unit === 'troy_oz' ? 'troy ounce' : body.xau.unit;
        const summary =
          `Gold (XAU): ${fmt(body.xau.price, 4)} ${body.xau.currency} per ${unitName}; ${freshness(body.data_state)}. ` +
          `Spot ${fmt(body.spot_usd_oz)} USD/oz (${body.price_source}). ` +
          `Silver ${body.silver_usd_oz === null ? 'unavailable' : `${fmt(body.silver_usd_oz)} USD/oz`}, gold/silver ratio ${fmt(body.gold_silver_ratio)}. ` +
          `Bitcoin ${body.btc_usd === null ? 'unavailable' : `${fmt(body.btc_usd)} USD = ${fmt(body.btc_gold_oz, 4)} oz of gold`}.`;
        return { body, summary };
      }, goldState),
  );
}
