import { z } from 'zod';
import { FINENESS_WORDS } from '../reference/fineness';
import { ITEM_IDS, itemById } from '../reference/items';
import { METAL_IDS } from '../reference/metals';
import { UNIT_LABELS, UNIT_LIST, UNITS } from '../reference/units';
import { DataState, Timestamp } from './common';
import { components } from './components';
import { FinenessField, KaratField, purityRules } from './purity';
import { oneOf, refusal, wholeNumber } from './query-fields';
import { SpotQuery } from './spot';

// GET /api/v1/value and /api/v1/items (decisions §31): what a weight of metal at a purity, or a number of bullion coins,
// is worth at spot, in any currency: the metal (melt) value, never a shop's price. The MCP tool get_metal_value takes
// the same query and answers the same body.

/** The largest weight valued, in any unit: far above all the gold ever mined in kilograms, small enough to stay a number. */
export const MAX_WEIGHT = 1_000_000_000;
/** The most coins valued at once. */
export const MAX_QTY = 1_000_000;
/** The largest quote compared. */
export const MAX_QUOTE = 1_000_000_000_000_000;

const UNIT_WORDS = UNIT_LIST.map((u) => (u.id === u.name ? u.id : `${u.id} (${u.name})`)).join(', ');
const ITEM_WORDS = `an id of /api/v1/items: ${ITEM_IDS.join(', ')}`;

/** A positive number up to `max`, refused in the field's own words. */
function positive(name: string, valid: string, max: number) {
  const error = (iss: { input?: unknown }) => refusal(name, iss.input, valid);
  return z.number({ error }).refine((n) => n > 0 && n <= max, { error });
}

export const ValueQuery = z
  .object({
    metal: oneOf('metal', METAL_IDS)
      .optional()
      .meta({ description: 'The metal valued: gold (the default), silver, platinum or palladium. With `item`, the item’s own (another is a 400)' }),
    currency: SpotQuery.shape.currency.meta({
      description: 'ISO 4217 code from the live FX table, case-insensitive (default USD): of the value and of `quote`',
    }),
    weight: positive('weight', `a number above 0, at most ${MAX_WEIGHT.toLocaleString('en-US')}`, MAX_WEIGHT)
      .optional()
      .meta({ description: 'How much metal (the alloy, as weighed), in `unit`. Give `weight` or `item`, not both', examples: [12] }),
    unit: oneOf('unit', UNITS, 'Unsupported unit')
      .default('gram')
      .meta({ description: `Unit of \`weight\` (and of \`price\` and the weight answered): ${UNIT_WORDS}. Default gram` }),
    karat: KaratField.optional().meta({ description: 'Gold only: the purity of `weight` as a karat (karat ÷ 24). Not with `fineness` or `item`' }),
    fineness: FinenessField.optional().meta({
      description: `Any metal: the purity of \`weight\`, ${FINENESS_WORDS}. Left out (and without \`karat\`): pure. Not with \`karat\` or \`item\``,
    }),
    item: oneOf('item', ITEM_IDS, 'Unknown item')
      .optional()
      .meta({
        description: `A bullion coin of /api/v1/items, valued by the fine metal its mint states (${ITEM_WORDS}). Give \`weight\` or \`item\`, not both`,
      }),
    qty: wholeNumber('qty', 1, MAX_QTY)
      .optional()
      .meta({ description: `With \`item\`: how many, a whole number from 1 to ${MAX_QTY.toLocaleString('en-US')} (default 1)` }),
    quote: positive('quote', 'a number above 0, in `currency`, for the whole', MAX_QUOTE).optional().meta({
      description: 'A price you were asked or offered for the whole, in `currency`: the answer says how far it is above or below the metal value',
    }),
  })
  .superRefine((q, ctx) => {
    const fail = (path: string, message: string, valid: string[]) => ctx.addIssue({ code: 'custom', path: [path], message, params: { valid } });
    if (q.weight !== undefined && q.item !== undefined) {
      return fail(
        'item',
        'weight and item both say what is valued: give one of them. Valid values: weight (with unit and a purity) or item (with qty), not both',
        ['weight', 'item'],
      );
    }
    if (q.weight === undefined && q.item === undefined) {
      return fail('weight', `weight or item is required. Valid values: weight (a number above 0, in unit) or item (${ITEM_WORDS})`, [
        'weight',
        'item',
      ]);
    }
    if (q.item === undefined) {
      if (q.qty !== undefined) return fail('qty', 'qty counts items: give item, or leave qty out. Valid values: qty only with item', ['item']);
      return purityRules(q, q.metal ?? 'gold', ctx);
    }
    const item = itemById(q.item)!;
    if (q.karat !== undefined || q.fineness !== undefined) {
      const given = q.karat !== undefined ? 'karat' : 'fineness';
      return fail(
        given,
        `Invalid ${given} with item ${item.id}: an item's purity is its mint's (${item.fineness}). Valid values: none with item (leave ${given} out)`,
        [],
      );
    }
    if (q.metal !== undefined && q.metal !== item.metal) {
      return fail('metal', `Invalid metal with item ${item.id}: it is ${item.metal}. Valid values: ${item.metal} (or leave metal out)`, [item.metal]);
    }
  });
export type ValueQuery = z.infer<typeof ValueQuery>;

const fineOz = (description: string) => z.number().meta({ description });

export const ItemSchema = z
  .object({
    id: z.string().meta({ description: 'What `item` takes' }),
    name: z.string(),
    metal: z.enum(METAL_IDS),
    issuer: z.string().meta({ description: 'The mint that strikes it (or struck it)' }),
    gross_g: z.number().meta({ description: 'Weight of one coin, grams, as the mint states it' }),
    fineness: z.number().meta({ description: 'Fine share of the alloy, a fraction (0.9167 is 22 karat)' }),
    fine_g: z.number().meta({ description: 'Fine metal in one coin, grams' }),
    fine_oz: fineOz('Fine metal in one coin, troy ounces, as the mint states it: the metal value is computed from it'),
    source: z.string().meta({ description: 'The mint’s (or, for the US circulating coins, the law’s) published specification' }),
  })
  .meta({ description: 'A bullion coin, from its mint’s published specification' })
  .register(components, { id: 'Item' });

export const Items = z
  .object({
    items: z.array(ItemSchema),
    data_state: DataState.meta({
      description: 'The list is data bundled with the release (`source` `snapshot`), checked against its sources on `as_of`',
    }),
    updated_at: Timestamp,
  })
  .meta({ description: 'The bullion coins /api/v1/value takes as `item`' })
  .register(components, { id: 'Items' });
export type Items = z.infer<typeof Items>;

const HONEST =
  'The metal (melt) value: what the fine metal is worth at spot, not a price a shop asks or pays. Dealers and jewellers sell above it and buy below it; making charges and taxes are not in it';

export const Value = z
  .object({
    metal: z.enum(METAL_IDS),
    currency: z.string().meta({ description: 'ISO 4217 code, upper case' }),
    weight: z
      .object({
        value: z.number().meta({ description: 'The weight valued (with `item`: the coins’ gross weight), in `unit`' }),
        unit: z.enum(UNIT_LABELS).meta({ description: 'The unit asked, as spot reports it: `oz` is `troy_oz`' }),
      })
      .meta({ description: 'The weight of metal valued, alloy included' }),
    fineness: z
      .number()
      .meta({ description: 'The fine share used, a fraction (a karat is karat ÷ 24, to 6 decimals here; the value uses it exactly)' }),
    fine_weight: z
      .object({
        g: z.number().meta({ description: 'Grams of fine metal, 4 decimals' }),
        oz: z.number().meta({ description: 'Troy ounces of fine metal, 6 decimals' }),
      })
      .meta({ description: 'The fine metal valued' }),
    melt_value: z.number().meta({
      description: `${HONEST}. Fine troy ounces × spot’s USD price × the rate spot uses, in \`currency\`, 2 decimals`,
    }),
    item: ItemSchema.optional().meta({ description: 'With `item`: the coin valued' }),
    qty: z.int().optional().meta({ description: 'With `item`: how many' }),
    quote: z
      .object({
        amount: z.number().meta({ description: 'The quote given, in `currency`' }),
        premium: z.number().meta({ description: 'quote − metal value, 2 decimals: negative is under the metal’s value' }),
        premium_pct: z.number().meta({ description: '(quote ÷ metal value − 1) × 100, 2 decimals' }),
      })
      .optional()
      .meta({ description: 'With `quote`: how the quote compares with the metal value' }),
    price: z
      .object({
        value: z.number().meta({ description: 'Spot’s own figure: the pure metal in `currency` per `unit`, rounded as spot rounds' }),
        unit: z.enum(UNIT_LABELS),
      })
      .meta({ description: 'The spot price of the pure metal per unit, as spot and price.txt answer it' }),
    data_state: DataState.meta({ description: 'The metal’s own state, as spot’s `groups[metal]`: stale is the last real price' }),
    updated_at: Timestamp,
  })
  .meta({ description: HONEST })
  .register(components, { id: 'MetalValue' });
export type Value = z.infer<typeof Value>;
