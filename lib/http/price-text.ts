import { goldState, priceFigure } from '../prices/spot';
import type { DataState } from '../schemas/common';
import { PriceTextQuery } from '../schemas/price';
import { fineShare } from '../schemas/purity';
import { isUnavailable } from '../sources/unavailable';
import { etagOf, newestDataTime } from './conditional.mjs';
import { errorBody } from './errors';
import { parseQuery } from './query';
import { send } from './respond';
import { restRoute, type ErrorAnswer } from './route';

// GET /api/v1/price.txt (decisions §30): one figure of spot as one line of text (`142.85\n`), for a spreadsheet cell
// (`=IMPORTDATA`, `=WEBSERVICE`), a Home Assistant REST sensor or a shell. Its freshness rides in headers, as on the
// CSV answers: `X-Data-State` (the status of the metal's data_state) and `X-Updated-At`. Cached and revalidated as
// spot. Never seen: 503 `unavailable`; a bad parameter: 400 with one line naming the valid values. A 405 is JSON, as
// on every REST path.

export const TEXT = 'text/plain; charset=utf-8';

/** The freshness headers of a text answer (the CSV answers' pair, lib/http/respond.ts sendSeries). */
function stateHeaders(state: DataState, updatedAt: string): Record<string, string> {
  return { 'X-Data-State': state.status, 'X-Updated-At': updatedAt };
}

/**
 * An error as one line of text: the message of the JSON body, with the valid values it lists (`valid`, or the
 * `supported` currencies) when the message does not already name them. Never more than one line, whatever the input.
 */
export const textError: ErrorAnswer = (req, err, state) => {
  const { status, body, headers } = errorBody(err, state);
  const listed = (body.valid as string[] | undefined) ?? (body.supported as string[] | undefined);
  const line = listed?.length && !body.error.includes('Valid values') ? `${body.error}. Valid values: ${listed.join(', ')}` : body.error;
  return send(req, `${line.replace(/[\r\n]+/g, ' ')}\n`, {
    status,
    contentType: TEXT,
    headers: { ...headers, ...stateHeaders(body.data_state, body.updated_at) },
  });
};

export function priceTextRoute() {
  return restRoute({
    state: goldState,
    errorAs: textError,
    get: async (req, url) => {
      const query = parseQuery(PriceTextQuery, url);
      const result = await priceFigure({ metal: query.metal, currency: query.currency, unit: query.unit, fineness: fineShare(query) });
      const headers = stateHeaders(result.data_state, result.updated_at);
      if (isUnavailable(result)) return send(req, 'unavailable\n', { status: 503, contentType: TEXT, headers });
      // The number as spot's JSON writes it. The ETag counts the state too: a price turning stale is a new answer.
      const text = `${result.price}\n`;
      return send(req, text, {
        cache: 'spot',
        dataTime: newestDataTime(result),
        contentType: TEXT,
        headers,
        etag: etagOf(`${result.data_state.status}:${text}`),
      });
    },
  });
}
