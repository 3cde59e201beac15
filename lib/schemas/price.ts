import { z } from 'zod';
import { FINENESS_WORDS } from '../reference/fineness';
import { METAL_IDS } from '../reference/metals';
import { FinenessField, KaratField, purityRules } from './purity';
import { oneOf } from './query-fields';
import { SpotQuery } from './spot';

// GET /api/v1/price.txt (decisions §30, §31): one figure of spot as text. It takes spot's `currency` and `unit` as they
// are, the metal, and a purity: for gold one karat of spot's `karats`, for any metal a fineness.

export const PriceTextQuery = z
  .object({
    metal: oneOf('metal', METAL_IDS).default('gold').meta({ description: 'The metal whose price is answered' }),
    currency: SpotQuery.shape.currency,
    unit: SpotQuery.shape.unit.meta({ description: 'Weight unit of the price: the units of spot (`oz` is the troy ounce)' }),
    karat: KaratField.optional().meta({
      description: 'Gold only: the price of that purity (karat ÷ 24), the figure of spot’s `karats`; left out, fine gold (`xau.price`)',
    }),
    fineness: FinenessField.optional().meta({
      description: `Any metal: the price of metal of that fineness, ${FINENESS_WORDS}; rounded as spot rounds. Not with \`karat\``,
    }),
  })
  .superRefine((query, ctx) => purityRules(query, query.metal, ctx));
export type PriceTextQuery = z.infer<typeof PriceTextQuery>;
