import recorded from '../data/fx-fallback-er-api-2026-06-02.json';
import { validFxTable, type FxTable } from './upstream/fx';

// The static FX table served when the live feed has never answered: a real recorded
// open.er-api.com response (lib/data/SOURCES.md), dated by the upstream's own update time.

export const FX_FALLBACK: { table: FxTable; asOf: number; label: string } = {
  table: validFxTable(recorded.rates),
  asOf: recorded.time_last_update_unix * 1000,
  label: 'static table (open.er-api.com, 2026-06-02)',
};
