import type { Unit } from '@/lib/reference/units';
import { arrow, fill, percent, priceDecimals, signedMoney, unitWord } from '@/widgets/format';
import type { PageWords } from './price-figures';
import { direction, pointDates, seriesName } from './price-moves-format';
import type { MoveRow, MoveWindow, PriceMoves } from './price-performance-data';

// The performance table of a price page (decisions §32), server-rendered: the change over each window, in the page's
// currency and unit, each history's `period.change_pct` for the same series and window (its `data-v`), with the dates it
// runs between (the last is its "as of") and the series it is of. Closes: no script moves it.

const LABEL: Record<MoveWindow, keyof PageWords['p']> = {
  '1w': 'perf1w',
  '1m': 'perf1m',
  '6m': 'perf6m',
  ytd: 'perfYtd',
  '1y': 'perf1y',
  '5y': 'perf5y',
  '10y': 'perf10y',
  max: 'perfMax',
};

/** What a row says under its window's name: its dates and series, or why it has no figure. */
function under(r: MoveRow, w: PageWords, currency: string): string {
  if (r.series && r.failed) return fill(w.p.perfNoData, { currency });
  if (!r.series || r.pct === null || r.from === null || r.to === null) return w.p.perfNoDaily;
  return `${pointDates(r.from, r.to, r.series, w.locale)} · ${seriesName(r.series, w.t)}`;
}

export function PricePerformance(props: { moves: PriceMoves; metal: string; currency: string; unit: Unit; words: PageWords }) {
  const { moves, currency, unit, words: w } = props;
  const loc = w.locale;
  const dp = priceDecimals(unit);
  return (
    <section aria-labelledby="pp-perf" className="pp-moves">
      <h2 id="pp-perf">{fill(w.p.perfTitle, { metal: w.t[props.metal as 'gold'], currency, unit: unitWord(w.t, unit, 'unit') })}</h2>
      <table id="performance">
        <thead>
          <tr>
            <th scope="col">{w.p.perfPeriod}</th>
            <th scope="col">{w.p.perfPct}</th>
            <th scope="col">{fill(w.p.perfChange, { unit: unitWord(w.t, unit, 'unit') })}</th>
          </tr>
        </thead>
        <tbody>
          {moves.rows.map((r) => (
            <tr key={r.window} data-window={r.window} data-series={r.series ?? ''} data-v={r.pct ?? ''}>
              <th scope="row">
                {w.p[LABEL[r.window]]}
                <span className="pp-sub muted">{under(r, w, currency)}</span>
              </th>
              <td className={r.pct === null ? undefined : direction(r.pct)}>{r.pct === null ? '—' : `${arrow(r.pct)} ${percent(r.pct, loc)}`}</td>
              <td>{r.change === null || r.pct === null ? '—' : signedMoney(r.change, currency, loc, dp)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted pp-note">
        {w.p.perfNote}
        {moves.rows.some((r) => r.stale) && ` ${w.p.tableStale}`}
      </p>
    </section>
  );
}
