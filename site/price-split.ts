import type { Spot } from '../lib/schemas/spot';
import { fill, percent } from '../widgets/format';
import type { PageStrings } from '../widgets/i18n';

// Why the price moved (decisions §32), in the page's words: the day change split into the metal's own move in US dollars
// and the currency's against the dollar, from spot's `from_metal` and `from_currency` (the stream's `metals` carry the
// same). The server and the page's script both write it through this function.

type Part = NonNullable<Spot['change']['from_metal']>;

/** The two parts of a day change, as spot answers them. */
export interface ChangeParts {
  metal: Part;
  currency: Part;
}

/** Currency names in each locale ("Indian Rupee", "Indische Rupie", "भारतीय रुपया"), one formatter per locale. */
const names = new Map<string, Intl.DisplayNames | null>();
export function currencyName(code: string, locale: string): string {
  let format = names.get(locale);
  if (format === undefined) {
    try {
      format = new Intl.DisplayNames(locale, { type: 'currency' });
    } catch {
      format = null;
    }
    if (names.size >= 50) names.clear();
    names.set(locale, format);
  }
  return format?.of(code) ?? code;
}

/**
 * The split in words: "Gold: −0.50 % in US dollars, +1.70 % from the Indian Rupee’s fall against the dollar". A
 * currency falls when its rate per dollar rises, which makes its part of the change positive. In US dollars, that the
 * whole change is the metal's; nothing while no change is known; when spot cannot tell the parts apart (no rate was
 * recorded at the previous close, or none is live now), it says so.
 */
export function whyItMoved(
  a: { currency: string; metalName: string; changePct: number | null; parts: ChangeParts | null },
  p: PageStrings,
  locale: string,
): string {
  if (a.changePct === null) return '';
  // In US dollars no rate enters: the whole change is the metal's, whatever table the previous close was recorded with.
  if (a.currency === 'USD') return fill(p.whyUsd, { metal: a.metalName, metalPct: percent(a.changePct, locale) });
  const currency = currencyName(a.currency, locale);
  if (!a.parts) return fill(p.whyUnknown, { currency });
  const { metal, currency: fx } = a.parts;
  const sign = fx.amount !== 0 ? fx.amount : fx.pct;
  const template = sign > 0 ? p.whyFall : sign < 0 ? p.whyRise : p.whyFlat;
  return fill(template, { metal: a.metalName, metalPct: percent(metal.pct, locale), fxPct: percent(fx.pct, locale), currency });
}
