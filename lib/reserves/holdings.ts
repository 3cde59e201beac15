import snapshot from '../data/reserves-snapshot.json';
import { toDataState } from '../sources/data-state';
import { Feed } from '../sources/freshness';
import type { DataState } from '../schemas/common';
import type { ReserveRow, Reserves } from '../schemas/reserves';
import { round } from '../reference/units';
import { fetchReserves, RESERVES_API_NAME, type LiveSeries } from '../sources/upstream/reserves';

// GET /api/v1/reserves: official gold by country. The bundled snapshot (WGC, latest reported
// quarter per country) is the base; the live monthly IMF series replaces a country's figure where
// it is newer and adds month-over-month change where two consecutive months are known.

const SNAPSHOT_SOURCE = 'World Gold Council quarterly table (IMF IFS data), bundled snapshot';
const feed = new Feed<LiveSeries[]>({ name: 'reserves', ttlS: 24 * 3600, fetch: fetchReserves });

interface Row {
  country: string;
  iso3: string;
  tonnes: number;
  reporting_month: string;
  change_mom_tonnes: number | null;
}

function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

const NAMES = new Map(snapshot.countries.map((c) => [c.iso3, c.country]));

/** The snapshot with each live series merged in where it is at least as recent. */
export function mergeReserves(base: Row[], live: LiveSeries[]): Row[] {
  const rows = new Map(base.map((r) => [r.iso3, { ...r }]));
  for (const s of live) {
    const last = s.months[s.months.length - 1];
    const prev = s.months[s.months.length - 2];
    const current = rows.get(s.iso3);
    if (current && current.reporting_month > last.month) continue;
    rows.set(s.iso3, {
      country: current?.country ?? NAMES.get(s.iso3) ?? s.iso3,
      iso3: s.iso3,
      tonnes: last.tonnes,
      reporting_month: last.month,
      change_mom_tonnes: prev && prev.month === previousMonth(last.month) ? last.tonnes - prev.tonnes : null,
    });
  }
  return [...rows.values()].filter((r) => r.tonnes > 0);
}

const SNAPSHOT_ROWS: Row[] = snapshot.countries.map((c) => ({ ...c, change_mom_tonnes: null }));

export async function getReserves(): Promise<Reserves> {
  const reading = await feed.read();
  const now = Date.now();
  const live = reading.value;
  const rows = mergeReserves(SNAPSHOT_ROWS, live ?? []).sort((a, b) => b.tonnes - a.tonnes || a.country.localeCompare(b.country));
  const countries: ReserveRow[] = rows.map((r, i) => ({
    rank: i + 1,
    country: r.country,
    iso3: r.iso3,
    tonnes: round(r.tonnes, 2),
    change_mom_tonnes: r.change_mom_tonnes === null ? null : round(r.change_mom_tonnes, 2),
    reporting_month: r.reporting_month,
  }));
  const newest = countries.reduce((m, c) => (c.reporting_month > m ? c.reporting_month : m), '');
  // The bundled snapshot is real but not live: it is reported as such, never as fresh.
  const data_state: DataState = live
    ? toDataState(reading, now)
    : toDataState({ status: 'stale', asOf: Date.parse(`${newest}-01T00:00:00Z`), source: 'snapshot' }, now);
  return {
    countries,
    count: countries.length,
    total_tonnes: round(
      rows.reduce((s, r) => s + r.tonnes, 0),
      2,
    ),
    as_of: newest,
    source: live ? `${RESERVES_API_NAME}, merged into the ${SNAPSHOT_SOURCE}` : SNAPSHOT_SOURCE,
    data_state,
    updated_at: new Date(now).toISOString(),
  };
}

export async function reservesState(): Promise<DataState> {
  const r = await feed.peek();
  return r.value ? toDataState(r) : { status: 'stale', as_of: null, source: 'snapshot', age_seconds: null };
}
