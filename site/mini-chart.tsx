import { UNIT_LIST } from '@/lib/reference/units';
import { CHART_CURRENCIES, type ChartPlan } from './chart-plan';

// The landing page's small chart panel. The server decides what its daily line is (site/landing-chart.ts:
// the daily spot bars when they cover the last 3 months, else COMEX futures) and hands the request and its
// caption to the page's script, which fills the panel once it is about to be seen: the recorded intraday
// series when it holds a few hours, else those daily closes; MAX draws the World Bank's monthly averages
// since 1960. Any currency and unit: each daily or monthly point at its own day's (month's) reference rate.
// The caption always says which, and each request asks only for the window it draws.

export function MiniChart({ plan }: { plan: ChartPlan }) {
  return (
    <figure className="card" style={{ margin: 0 }} id="mini-chart" data-plan={JSON.stringify(plan)}>
      <figcaption className="muted">{plan.daily.label}</figcaption>
      <div className="chart" />
      <div className="ranges">
        <span role="group" aria-label="Range">
          <button type="button" data-range="latest" aria-pressed="true">
            Latest
          </button>{' '}
          <button type="button" data-range="max" aria-pressed="false">
            MAX
          </button>
        </span>{' '}
        <label>
          Currency{' '}
          <select name="currency" defaultValue="USD">
            {CHART_CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>{' '}
        <label>
          Unit{' '}
          <select name="unit" defaultValue="oz">
            {UNIT_LIST.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </select>
        </label>
      </div>
    </figure>
  );
}
