import { z } from 'zod';
import { components } from './components';
import { DataState, Timestamp } from './common';

export const ReserveRow = z
  .object({
    rank: z.number().int().positive(),
    country: z.string(),
    iso3: z.string().length(3),
    tonnes: z.number().meta({ description: 'Official gold holdings, metric tonnes (2 decimals)' }),
    change_mom_tonnes: z.number().nullable().meta({ description: 'Change from the previous month, tonnes; null when that month is not known' }),
    reporting_month: z.string().meta({ description: 'Month of the figure, YYYY-MM' }),
  })
  .register(components, { id: 'ReserveRow' });

export const Reserves = z
  .object({
    countries: z.array(ReserveRow).meta({ description: 'Ranked by tonnes, largest first' }),
    count: z.number().int(),
    total_tonnes: z.number().meta({ description: 'Sum over the listed countries (not the IMF, ECB or BIS)' }),
    as_of: z.string().meta({ description: 'Newest reporting month in the table, YYYY-MM' }),
    source: z.string(),
    data_state: DataState,
    updated_at: Timestamp,
  })
  .meta({ description: 'Central-bank gold holdings by country' })
  .register(components, { id: 'Reserves' });
export type Reserves = z.infer<typeof Reserves>;
export type ReserveRow = z.infer<typeof ReserveRow>;
