// Date arithmetic on calendar dates (YYYY-MM-DD), in UTC so no time zone or daylight saving shifts a day.

/** `date` minus `days`, as YYYY-MM-DD. */
export function daysBefore(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d) - days * 86_400_000).toISOString().slice(0, 10);
}
