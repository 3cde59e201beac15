// The landing page's small chart panel. The page's script fills it once the panel is about to be seen:
// the recorded intraday series when it holds a few hours, else the last 3 months of daily closes: the
// daily spot bars when they reach that far back, else COMEX futures. The caption always says which.

export const CHART_LABELS = {
  intraday: 'Spot, recorded every 2 minutes, last 24 hours (USD/oz)',
  spot: 'Daily spot closes, last 3 months (USD/oz)',
  daily: 'Daily closes, last 3 months (COMEX futures, not spot, USD/oz)',
};

export function MiniChart() {
  return (
    <figure className="card" style={{ margin: 0 }} id="mini-chart">
      <figcaption className="muted">{CHART_LABELS.daily}</figcaption>
      <div className="chart" />
    </figure>
  );
}
