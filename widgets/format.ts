import type { Strings } from './i18n';
import { UNIT_LIST, type Unit } from '../lib/reference/units';

// Formatting shared by the server render and the widget scripts, so both write the same text.

/** The chosen language's words and the locale of its relative times (see `textFor` in widgets/i18n.ts). */
export interface Words {
  t: Strings;
  lang: string;
}

/** Number formats by locale and options: making one costs about a hundred times what formatting with it does. */
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    // Bounded: the locales and currencies a process meets are few, but a query can name any.
    if (formats.size >= 500) formats.clear();
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/**
 * Spot's decimals for a price per `unit` (its id or spot's label): gram 4, every other unit 2 (lib/reference/units.ts),
 * in every currency. A price is shown exactly as spot serves it, never rounded again to the currency's own minor
 * units (a yen per gram is ¥22,798.4018, as spot says, not ¥22,798.40).
 */
export function priceDecimals(unit: string): number {
  return UNIT_LIST.find((u) => u.id === unit || u.label === unit)?.decimals ?? 2;
}

export function money(value: number, currency: string, locale: string, decimals = 2): string {
  try {
    return numberFormat(locale, { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
  } catch {
    return `${value.toFixed(decimals)} ${currency}`;
  }
}

/** A signed amount of money ("+€12.30", "−€4.10"), for a change. */
export function signedMoney(value: number, currency: string, locale: string, decimals = 2): string {
  try {
    return numberFormat(locale, {
      style: 'currency',
      currency,
      signDisplay: 'exceptZero',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(value);
  } catch {
    return `${value > 0 ? '+' : ''}${value.toFixed(decimals)} ${currency}`;
  }
}

export function number(value: number, locale: string, decimals = 2): string {
  return numberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/** A number with at most `decimals` decimals, trailing zeros left out ("12", "8.0781"): a weight as it was asked. */
export function upTo(value: number, locale: string, decimals: number): string {
  return numberFormat(locale, { maximumFractionDigits: decimals }).format(value);
}

/** A share as a percentage with one decimal, unsigned ("91.7%"): a karat's purity. */
export function share(value: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

export function percent(value: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    value / 100,
  );
}

/** The arrow beside a change: up, down, or level. */
export function arrow(change: number): string {
  return change > 0 ? '▲' : change < 0 ? '▼' : '▶';
}

/** A percentage with two decimals and no sign ("12.43%"), for words that say above or below. */
export function unsignedPercent(value: number, locale: string): string {
  return numberFormat(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Math.abs(value) / 100);
}

/** "12 seconds ago", "5 minutes ago", in the locale's words. */
export function ago(seconds: number, locale: string): string {
  const s = Math.max(0, Math.round(seconds));
  const [n, unit]: [number, Intl.RelativeTimeFormatUnit] =
    s < 60 ? [s, 'second'] : s < 3600 ? [Math.floor(s / 60), 'minute'] : s < 86400 ? [Math.floor(s / 3600), 'hour'] : [Math.floor(s / 86400), 'day'];
  return new Intl.RelativeTimeFormat(locale, { numeric: 'always' }).format(-n, unit);
}

/** Fills the `{name}` placeholders of a translated template. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

const UNIT_KEY = {
  oz: 'Oz',
  gram: 'Gram',
  kg: 'Kg',
  tola: 'Tola',
  tael: 'Tael',
  baht: 'Baht',
  chi: 'Chi',
  luong: 'Luong',
  don: 'Don',
  pavan: 'Pavan',
  dwt: 'Dwt',
  grain: 'Grain',
} as const satisfies Record<Unit, string>;

/** A unit in words: `per` ("per gram"), `unit` ("gram") or `abbr` ("g"). */
export function unitWord(t: Strings, unit: Unit, form: 'per' | 'unit' | 'abbr'): string {
  return t[`${form}${UNIT_KEY[unit]}`];
}

/** "updated 5 minutes ago" in the page's language. */
export function updated(w: Words, seconds: number): string {
  return fill(w.t.updated, { time: ago(seconds, w.lang) });
}
