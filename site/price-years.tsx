import type { Unit } from '@/lib/reference/units';
import { arrow, fill, money, number, percent, priceDecimals, signedMoney, unitWord } from '@/widgets/format';
import type { PageWords } from './price-figures';
import { direction, pointDate, seriesName, yearOf } from './price-moves-format';
import type { PriceMoves, YearRow } from './price-performance-data';

// The years table of a price page (decisions §32), server-rendered: each calendar year's first, last, high, low and
// average close and its change on the year before, history's yearly bars (`group=year`) in the page's currency and
// unit, each point at its own date's rate. The rows come in runs of one series each, under a heading naming it (the
// World Bank's monthly averages before 2000, or where no daily series covers a year). Each row's numbers are in its
// `data-v`, as history answers them.

/** The year's name, with what it covers when it is not a whole year of its series. */
function yearLabel(y: YearRow, w: PageWords): string {
  const year = yearOf(y.year, w.locale);
  if (y.partial) return fill(w.p.yearDays, { year, n: number(y.count, w.locale, 0) });
  if (y.to) return fill(w.p.yearTo, { year, date: pointDate(y.to, y.series, w.locale) });
  if (y.series === 'monthly' && y.count < 12) return fill(w.p.yearMonths, { year, n: number(y.count, w.locale, 0) });
  return year;
}

/** A row's numbers as history answers them, in its columns' order (first, last, high, low, average, change, change %; "" for none). */
const numbersOf = (y: YearRow) => [y.first, y.last, y.high, y.low, y.avg, y.change ?? '', y.pct ?? ''].join(' ');

/** Consecutive years of one series. */
function runsOf(years: YearRow[]): YearRow[][] {
  const runs: YearRow[][] = [];
  for (const y of years) {
    const run = runs.at(-1);
    if (run && run[0].series === y.series) run.push(y);
    else runs.push([y]);
  }
  return runs;
}

export function PriceYears(props: { moves: PriceMoves; metal: string; currency: string; unit: Unit; words: PageWords }) {
  const { moves, currency, unit, words: w } = props;
  const loc = w.locale;
  const dp = priceDecimals(unit);
  const cash = (n: number) => money(n, currency, loc, dp);
  const columns = [w.p.yearsYear, w.p.yearsFirst, w.p.yearsLast, w.p.yearsHigh, w.p.yearsLow, w.p.yearsAvg, w.p.yearsChange];
  return (
    <section aria-labelledby="pp-years" className="pp-moves">
      <h2 id="pp-years">{fill(w.p.yearsTitle, { metal: w.t[props.metal as 'gold'], currency, unit: unitWord(w.t, unit, 'unit') })}</h2>
      {moves.years.length === 0 ? (
        <p>{fill(w.p.yearsNone, { currency })}</p>
      ) : (
        // Wider than a phone: it scrolls within its own box, which a keyboard can reach.
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="pp-years">
          <table id="years">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            {runsOf(moves.years).map((run) => (
              <tbody key={run[0].year} data-series={run[0].series}>
                <tr>
                  <th scope="rowgroup" colSpan={columns.length} className="pp-run">
                    {seriesName(run[0].series, w.t)}
                  </th>
                </tr>
                {run.map((y) => (
                  <tr key={y.year} data-year={y.year} data-series={y.series} data-v={numbersOf(y)}>
                    <th scope="row">{yearLabel(y, w)}</th>
                    <td>{cash(y.first)}</td>
                    <td>{cash(y.last)}</td>
                    <td>{cash(y.high)}</td>
                    <td>{cash(y.low)}</td>
                    <td>{cash(y.avg)}</td>
                    <td className={y.pct === null ? undefined : direction(y.pct)}>
                      {y.change === null || y.pct === null
                        ? '—'
                        : `${arrow(y.pct)} ${signedMoney(y.change, currency, loc, dp)} (${percent(y.pct, loc)})`}
                    </td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
      <p className="muted pp-note">
        {w.p.yearsNote}
        {moves.years.some((y) => y.stale) && ` ${w.p.tableStale}`}
      </p>
    </section>
  );
}
