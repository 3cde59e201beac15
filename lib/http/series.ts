import type { z } from 'zod';
import { chartState, getChart } from '../series/chart';
import { isIntradayInterval } from '../reference/instruments';
import { CSV_TABLES } from './csv';
import { getHistoryFor, historyState } from '../series/history';
import { getIntraday, intradayState } from '../series/intraday';
import { ChartQuery } from '../schemas/chart';
import { HistoryQuery } from '../schemas/history';
import { IntradayQuery } from '../schemas/intraday';
import { refusal } from '../schemas/query-fields';
import { ApiError } from '../core/errors';
import { parseQuery } from './query';
import { sendSeries } from './respond';
import { restRoute } from './route';

// The series endpoints answer JSON, or CSV with `format=csv`, on their own path (`/api/v1/history`),
// and always CSV on a `.csv` twin (`/api/v1/history.csv`): the same bytes and headers, on a path the
// OpenAPI document can describe as an operation of its own whose answer is a string. Both routes of
// an endpoint are built here from one handler.

/** `json`: the endpoint's own path, where `format` decides; `csv`: its `.csv` twin. */
export type SeriesPath = 'json' | 'csv';

/**
 * The query of a series route. On a `.csv` path, `format` may be left out, empty or `csv` (any letter
 * case); any other value contradicts the path, which is a 400 rather than a guess at which was meant.
 */
function parseSeriesQuery<S extends z.ZodObject>(schema: S, url: URL, as: SeriesPath): z.output<S> & { format: 'json' | 'csv' } {
  const other = as === 'csv' ? url.searchParams.getAll('format').find((v) => v !== '' && v.toLowerCase() !== 'csv') : undefined;
  if (other !== undefined) {
    const conflict = `${url.pathname} always answers CSV; for JSON, ask ${url.pathname.replace(/\.csv$/, '')}`;
    throw new ApiError(400, `${refusal('format', other, 'csv')} (${conflict})`, { valid: ['csv'] });
  }
  const query = parseQuery(schema, url) as z.output<S> & { format: 'json' | 'csv' };
  return as === 'csv' ? { ...query, format: 'csv' } : query;
}

export function historyRoute(as: SeriesPath) {
  return restRoute({
    state: historyState,
    get: async (req, url) => {
      const query = parseSeriesQuery(HistoryQuery, url, as);
      // Daily data behind a 6-hour cache: five minutes at the edge keeps clients close to the source.
      const csv = query.series === 'spot' ? CSV_TABLES.spotHistory : CSV_TABLES.history;
      return sendSeries(req, await getHistoryFor(query), { cache: 'history', csv: query.format === 'csv' ? csv : undefined });
    },
  });
}

export function intradayRoute(as: SeriesPath) {
  return restRoute({
    state: intradayState,
    get: async (req, url) => {
      const query = parseSeriesQuery(IntradayQuery, url, as);
      // A new point lands every 2 minutes: a minute of caching keeps the series at most one sample behind.
      return sendSeries(req, await getIntraday(query), { cache: 'intraday', csv: query.format === 'csv' ? CSV_TABLES.intraday : undefined });
    },
  });
}

export function chartRoute(as: SeriesPath) {
  return restRoute({
    state: chartState,
    get: async (req, url) => {
      const query = parseSeriesQuery(ChartQuery, url, as);
      return sendSeries(req, await getChart(query), {
        cache: isIntradayInterval(query.interval) ? 'chartIntraday' : 'chart',
        csv: query.format === 'csv' ? CSV_TABLES.chart : undefined,
      });
    },
  });
}
