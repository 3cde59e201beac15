import { sessionNow } from '@/lib/calendar/clock';
import { daysBefore } from '@/lib/calendar/dates';
import { spotCovers } from '@/lib/series/coverage';
import { CHART_LABELS, DAILY_DAYS, type ChartPlan } from './chart-plan';

// The landing chart's plan, decided on the server (getServerSideProps only: it reads the store): whether the
// daily spot bars cover the last 3 months is lib/series/coverage.ts's answer, the one the chart widget gets.

export async function chartPlan(nowMs = Date.now()): Promise<ChartPlan> {
  const today = sessionNow(nowMs).date;
  const from = daysBefore(today, DAILY_DAYS);
  const [covered] = await spotCovers('gold', [{ from, to: today }]);
  return {
    daily: covered
      ? { url: `/api/v1/history?series=spot&symbol=xau&from=${from}`, line: 'spot', label: CHART_LABELS.spot, from }
      : { url: `/api/v1/history?series=futures&from=${from}`, line: 'daily', label: CHART_LABELS.daily, from },
    monthly: { url: '/api/v1/history?series=monthly&symbol=xau', label: CHART_LABELS.monthly },
  };
}
