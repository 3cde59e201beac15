// The alerts' settings from the environment, read on each use (tests change them between cases).

/** `ALERTS=off` turns the feature off: the API answers 503 and no reading is evaluated. */
export function alertsEnabled(): boolean {
  return (process.env.ALERTS ?? '').toLowerCase() !== 'off';
}

const DEFAULT_RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18000, 36000];

/** Seconds to wait before each retry of a delivery (`ALERT_RETRY_SCHEDULE_S`, comma list); its length is the retries. */
export function retryScheduleS(): number[] {
  const raw = process.env.ALERT_RETRY_SCHEDULE_S?.trim();
  if (!raw) return DEFAULT_RETRY_SCHEDULE_S;
  const list = raw.split(',').map((s) => Number(s.trim()));
  return list.every((n) => Number.isFinite(n) && n >= 0) ? list : DEFAULT_RETRY_SCHEDULE_S;
}

/** How long a target may take to answer, ms (10 s; `ALERT_TIMEOUT_MS` for tests). */
export function deliveryTimeoutMs(): number {
  const n = Number(process.env.ALERT_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : 10_000;
}

/** `ALERT_TARGETS_ALLOW`: hosts or CIDRs an operator allows beyond public https addresses (http allowed for them). */
export function targetsAllowed(): string[] {
  return (process.env.ALERT_TARGETS_ALLOW ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}
