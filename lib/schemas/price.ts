import { z } from 'zod';
import { KARAT_KEYS, KARATS } from '../reference/karats';
import { METAL_IDS } from '../reference/metals';
import { oneOf, refusal } from './query-fields';
import { SpotQuery } from './spot';

// GET /api/v1/price.txt (decisions §30): one figure of spot as text. It takes spot's `currency` and `unit` as they
// are, the metal, and for gold one karat of spot's `karats`.

const KARAT_WORDS = `${KARATS.join(', ')} (or written as spot's keys: ${KARAT_KEYS.join(', ')})`;
/** What `karat` accepts: the karats of spot's `karats` table, as numbers or as its keys. */
const KARAT_VALUES = [...KARATS.map(String), ...KARAT_KEYS] as [string, ...string[]];

export const PriceTextQuery = z
  .object({
    metal: oneOf('metal', METAL_IDS).default('gold').meta({ description: 'The metal whose price is answered' }),
    currency: SpotQuery.shape.currency,
    unit: SpotQuery.shape.unit.meta({ description: 'Weight unit of the price: the units of spot (`oz` is the troy ounce)' }),
    karat: z
      .enum(KARAT_VALUES, { error: (iss) => refusal('karat', iss.input, KARAT_WORDS) })
      .optional()
      .meta({ description: 'Gold only: the price of that purity (karat ÷ 24), the figure of spot’s `karats`; left out, fine gold (`xau.price`)' }),
  })
  .superRefine((query, ctx) => {
    if (query.karat !== undefined && query.metal !== 'gold') {
      ctx.addIssue({
        code: 'custom',
        path: ['karat'],
        message: `Invalid karat with metal ${query.metal}: karats are purities of gold. Valid values: none with ${query.metal} (leave karat out); with metal=gold ${KARATS.join(', ')}`,
        params: { valid: [] },
      });
    }
  });
export type PriceTextQuery = z.infer<typeof PriceTextQuery>;
