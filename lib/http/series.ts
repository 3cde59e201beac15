import type { z } from 'zod';
import { chartState, getChart } from '../series/chart';
import { isIntradayInterval } from '../reference/instruments';
import { CSV_TABLES, historyTable, toCsv } from './csv';
import { etagOf, etagOfParts } from './conditional.mjs';
import { getHistoryFor, historyGroupOf, historyJsonParts, historyState } from '../series/history';
import { bytesOfString, keptFor } from '../series/cache-budget';
import { getIntraday, intradayState } from '../series/intraday';
import { ChartQuery } from '../schemas/chart';
import { HistoryQuery, type History } from '../schemas/history';
import { IntradayQuery } from '../schemas/intraday';
import { refusal } from '../schemas/query-fields';
import { isUnavailable } from '../sources/unavailable';
import { ApiError } from '../core/errors';
import { parseQuery } from './query';
import { sendResult, sendSeries, type BodyParts } from './respond';
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
      const result = await getHistoryFor(query);
      if (isUnavailable(result)) return sendResult(req, result);
      const csv = historyTable(query.series, historyGroupOf(query), result.fx !== undefined);
      // JSON as parts, the points' bytes reused (lib/series/history.ts); errors stay JSON either way.
      if (query.format !== 'csv') {
        const { body, etag } = historyJsonAnswer(result);
        return sendResult(req, result, { cache: 'history', json: () => body, etag });
      }
      // The CSV's rows cannot say which series they are: a header does, as `series` does in JSON.
      return sendSeries(req, result, {
        cache: 'history',
        csv,
        etag: historyTag(result, 'csv', () => etagOf(toCsv(csv, result))),
        headers: { 'X-Series': result.series },
      });
    },
  });
}

/**
 * A history answer as encoded parts and its ETag: a kept list's points are the same bytes for every answer until it
 * changes (lib/series/history.ts), and the tag is hashed from the parts, never from the whole text made again.
 */
function historyJsonAnswer(result: History): { body: string | BodyParts; etag: string | undefined } {
  if (result.points.length < 2) return { body: JSON.stringify(result), etag: undefined };
  const [head, points, tail] = historyJsonParts(result);
  const tag = () => etagOfParts(head, points, tail);
  return { body: [Buffer.from(head), points, Buffer.from(tail)], etag: historyTag(result, 'json', tag) ?? tag() };
}

/**
 * The ETag of a whole history answer (etagOf of the body, lib/http/conditional.mjs), made once per kept points list
 * and freshness instead of hashing a ten-year body on every request: besides its time of answer (`updated_at`,
 * `age_seconds`), which the tag leaves out, all an answer holds is fixed by its points list (one per fetch or
 * version, with its statistics) and its data_state; it is kept beside the list, within the series budget. A list cut
 * for one request (a window of arbitrary dates, the one point of `date=`) is hashed with its body, once.
 */
function historyTag(body: History, format: 'json' | 'csv', tag: () => string): string | undefined {
  if (body.points.length < 2) return undefined;
  const { status, as_of, source } = body.data_state;
  return keptFor(body.points, `tag|${format}|${status}|${as_of}|${source}`, tag, bytesOfString);
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
