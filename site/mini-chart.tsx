// The landing page's small chart panel. The page's script fills it once the panel is about to be seen:
// the recorded intraday series when it holds a few hours, else the last 3 months of daily closes.

export const CHART_LABELS = {
  intraday: 'Recorded every 2 minutes, last 24 hours (USD/oz)',
  daily: 'Daily closes, last 3 months (COMEX futures, USD/oz)',
};

export function MiniChart() {
  return (
    <figure className="card" style={{ margin: 0 }} id="mini-chart">
      <figcaption className="muted">{CHART_LABELS.daily}</figcaption>
      <div className="chart" />
    </figure>
  );
}
