import type { Reading } from './freshness';
import type { DataState } from '../schemas/common';

/** The public DataState of a reading, at `now` (ms). */
export function toDataState(r: Pick<Reading<unknown>, 'status' | 'asOf' | 'source'>, now = Date.now()): DataState {
  return {
    status: r.status,
    as_of: r.asOf === null ? null : new Date(r.asOf).toISOString(),
    source: r.source,
    age_seconds: r.asOf === null ? null : Math.max(0, Math.floor((now - r.asOf) / 1000)),
  };
}
