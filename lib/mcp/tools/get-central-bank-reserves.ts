import { z } from 'zod';
import { getReserves } from '../../reserves/holdings';
import { refusal } from '../../schemas/query-fields';
import { Reserves } from '../../schemas/reserves';
import { fmt, freshness, tool, toolOutput } from '../tool';

const COUNTRY_VALUES = 'part of a country name or an ISO3 code, at most 80 characters, e.g. "india" or "DEU"';

export const getCentralBankReserves = tool({
  name: 'get_central_bank_reserves',
  title: 'Central-bank gold reserves',
  description:
    'Official gold holdings by country in metric tonnes, ranked, with the month each figure is for and the month-over-month change where ' +
    'two consecutive months are known (IMF monthly data via DBnomics, merged into a World Gold Council snapshot that also serves when the ' +
    'live source fails). Monthly figures, refreshed daily; data_state is fresh from the live source, or stale with source snapshot ' +
    'when only the bundled table is available. Filter with country (name part or ISO3).',
  input: z.object({
    country: z
      .string({ error: (iss) => refusal('country', iss.input, COUNTRY_VALUES) })
      .max(80, { error: (iss) => refusal('country', iss.input, COUNTRY_VALUES) })
      .optional()
      .meta({ description: 'Optional filter: part of a country name or its ISO3 code, case-insensitive (e.g. "india", "DEU")' }),
  }),
  output: toolOutput(Reserves),
  run: async ({ country }) => {
    const full = await getReserves();
    const q = country?.trim().toLowerCase();
    const countries = q ? full.countries.filter((c) => c.country.toLowerCase().includes(q) || c.iso3.toLowerCase() === q) : full.countries;
    const body = { ...full, countries, count: countries.length };
    const line = (c: (typeof countries)[number]) =>
      `#${c.rank} ${c.country} (${c.iso3}) ${fmt(c.tonnes)} t as of ${c.reporting_month}` +
      (c.change_mom_tonnes === null ? '' : `, ${c.change_mom_tonnes >= 0 ? '+' : ''}${fmt(c.change_mom_tonnes)} t on the month`);
    const head = q
      ? `${countries.length} of ${full.count} countries match "${country}"`
      : `${full.count} countries, ${fmt(full.total_tonnes)} t in all`;
    const summary =
      `Official gold reserves (${freshness(full.data_state)}; ${full.source}): ${head}. ` +
      (countries.length ? countries.slice(0, 10).map(line).join('; ') + (countries.length > 10 ? '; …' : '.') : 'No country matches.');
    return { body, summary };
  },
});
