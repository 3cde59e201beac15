import { UNITS, type Unit } from '../lib/reference/units';

// Widget options from the query string. Every value is checked against a fixed list or a strict
// pattern; anything unknown falls back to the default, so a hostile URL renders a normal widget.

export type Theme = 'light' | 'dark' | 'auto';
const THEMES: readonly Theme[] = ['light', 'dark', 'auto'];

export interface CommonOptions {
  /** ISO 4217, upper case; checked against the FX table when the data is read. */
  currency: string;
  unit: Unit;
  theme: Theme;
  /** A BCP 47 tag the runtime supports, for number and date formatting. */
  locale: string;
  /** Follow the price stream (GET /api/v1/stream) unless false: `live=0` polls instead. */
  live?: boolean;
}

export const DEFAULT_LOCALE = 'en-US';

export function pick<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  const v = value?.toLowerCase() as T | undefined;
  return v && allowed.includes(v) ? v : fallback;
}

export function parseLocale(value: string | null): string {
  if (!value || value.length > 35 || !/^[A-Za-z0-9-]+$/.test(value)) return DEFAULT_LOCALE;
  try {
    return Intl.NumberFormat.supportedLocalesOf([value])[0] ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

export function parseCommon(q: URLSearchParams): CommonOptions {
  const currency = (q.get('currency') ?? '').toUpperCase();
  return {
    currency: /^[A-Z]{3}$/.test(currency) ? currency : 'USD',
    unit: pick(q.get('unit'), UNITS, 'oz'),
    theme: pick(q.get('theme'), THEMES, 'auto'),
    locale: parseLocale(q.get('locale')),
    live: !['0', 'false', 'no', 'off'].includes((q.get('live') ?? '').toLowerCase()),
  };
}

/** A flag such as `silver=1`. */
export function flag(q: URLSearchParams, name: string): boolean {
  return ['1', 'true', 'yes'].includes((q.get(name) ?? '').toLowerCase());
}

/** A finite number within [min, max], else the fallback. */
export function boundedNumber(value: string | null, min: number, max: number, fallback: number): number {
  if (value === null || value.length > 24) return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= min && n <= max ? n : fallback;
}
