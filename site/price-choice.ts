import { METAL_IDS, type MetalId } from '@/lib/reference/metals';
import { UNITS, type Unit } from '@/lib/reference/units';
import { LANGUAGES, type Language } from '@/widgets/i18n';

// What a price page shows when the address does not say it all (decisions §27): `/` and `/{metal}` answer in the
// visitor's choice, saved in the `pref` cookie when they pick (`eur.gram`: currency and unit, lower case), else the
// currency of their first Accept-Language tag with a region and that market's unit. The page's language: `?lang=`,
// else the `lang` cookie, else the first Accept-Language tag in a language we have. Pure functions, no I/O.

/** The cookie holding the visitor's currency and unit, `eur.gram`. */
export const PREF_COOKIE = 'pref';
/** The cookie holding the visitor's language, `de`. */
export const LANG_COOKIE = 'lang';
/** A year, in seconds: how long a choice is kept. */
export const CHOICE_MAX_AGE_S = 365 * 24 * 3600;

export interface Choice {
  currency: string;
  unit: Unit;
}

/** Each region's currency, where one is its own (ISO 3166 alpha-2 → ISO 4217). A region not here is USD. */
const REGION_CURRENCY: Record<string, string> = Object.fromEntries(
  [
    'AT,BE,CY,DE,EE,ES,FI,FR,GR,HR,IE,IT,LT,LU,LV,MT,NL,PT,SI,SK,AD,MC,SM,VA,ME,XK:EUR',
    'US,EC,SV,PA,PR:USD',
    'GB:GBP,IN:INR,JP:JPY,AE:AED,TR:TRY,CH:CHF,LI:CHF,CA:CAD,AU:AUD,NZ:NZD,PK:PKR,TH:THB,HK:HKD,CN:CNY,TW:TWD,SG:SGD',
    'SA:SAR,QA:QAR,KW:KWD,BH:BHD,OM:OMR,JO:JOD,EG:EGP,MA:MAD,DZ:DZD,TN:TND,IQ:IQD,LB:LBP,IL:ILS,IR:IRR,RU:RUB,UA:UAH',
    'PL:PLN,CZ:CZK,HU:HUF,RO:RON,BG:BGN,SE:SEK,NO:NOK,DK:DKK,IS:ISK,RS:RSD,BR:BRL,MX:MXN,AR:ARS,CL:CLP,CO:COP,PE:PEN',
    'ZA:ZAR,NG:NGN,KE:KES,GH:GHS,KR:KRW,MY:MYR,ID:IDR,PH:PHP,VN:VND,BD:BDT,LK:LKR,NP:NPR,KZ:KZT,AZ:AZN,GE:GEL,AM:AMD',
  ].flatMap((group) =>
    group.split(',').reduce<[string, string][]>((out, item, i, all) => {
      // `AT,BE,…:EUR` names one currency for several regions; `GB:GBP,IN:INR` one each.
      const [region, currency] = item.split(':');
      const shared = all[all.length - 1].split(':')[1];
      out.push([region, currency ?? shared]);
      return out;
    }, []),
  ),
);

/** The troy ounce's markets; tola, baht and tael where those are the market's unit; the gram elsewhere. */
const MARKET_UNIT: Record<string, Unit> = { USD: 'oz', GBP: 'oz', CHF: 'oz', CAD: 'oz', AUD: 'oz', PKR: 'tola', THB: 'baht', HKD: 'tael' };

export function marketUnit(currency: string): Unit {
  return MARKET_UNIT[currency] ?? 'gram';
}

/** The tags of an Accept-Language header, most wanted first (q=0 left out); at most 20 are read. */
export function acceptedTags(header: string | undefined): string[] {
  if (!header || header.length > 1000) return [];
  return header
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((x) => /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(x.tag) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}

/** The region of a tag (`de-DE` → DE, `zh-Hant-TW` → TW), or null. */
function regionOf(tag: string): string | null {
  const region = tag
    .split('-')
    .slice(1)
    .find((s) => /^[A-Za-z]{2}$/.test(s));
  return region ? region.toUpperCase() : null;
}

/** The cookies of a request, by name (the first of a name wins). */
export function cookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').slice(0, 4096).split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name && !(name in out)) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}

/** `eur.gram` → {EUR, gram}; null for anything else. Whether the currency is served is for the caller to check. */
export function parsePref(value: string | undefined): Choice | null {
  const m = /^([a-z]{3})\.([a-z]+)$/.exec(value ?? '');
  if (!m || !(UNITS as readonly string[]).includes(m[2])) return null;
  return { currency: m[1].toUpperCase(), unit: m[2] as Unit };
}

export const prefValue = (c: Choice) => `${c.currency.toLowerCase()}.${c.unit}`;

/**
 * The visitor's currency and unit: the saved choice, else their first Accept-Language tag with a region, else USD
 * per troy ounce. `served` says whether the FX table in use holds a currency.
 */
export function visitorChoice(cookieHeader: string | undefined, acceptLanguage: string | undefined, served: (code: string) => boolean): Choice {
  const saved = parsePref(cookies(cookieHeader)[PREF_COOKIE]);
  if (saved && served(saved.currency)) return saved;
  const region = acceptedTags(acceptLanguage).map(regionOf).find(Boolean);
  const currency = region ? (REGION_CURRENCY[region] ?? 'USD') : 'USD';
  const code = served(currency) ? currency : 'USD';
  return { currency: code, unit: marketUnit(code) };
}

export const isLanguage = (value: string | undefined | null): value is Language => !!value && (LANGUAGES as readonly string[]).includes(value);

/** The page's language and the locale its numbers and dates are written in. */
export interface PageLanguage {
  lang: Language;
  /** A BCP 47 tag: the visitor's own tag in that language when it names a region (de-CH), else the language. */
  locale: string;
  /** Whether `?lang=` chose it (the page then links to itself with it). */
  asked: boolean;
}

/** `?lang=`, else the `lang` cookie, else the first Accept-Language tag in a language we have, else English. */
export function pageLanguage(query: string | undefined, cookieHeader: string | undefined, acceptLanguage: string | undefined): PageLanguage {
  const tags = acceptedTags(acceptLanguage);
  const localeIn = (lang: Language) => {
    const own = tags.find((t) => t.toLowerCase().split('-')[0] === lang && regionOf(t));
    try {
      return own ? (Intl.NumberFormat.supportedLocalesOf([own])[0] ?? lang) : lang;
    } catch {
      return lang;
    }
  };
  const q = query?.toLowerCase();
  if (isLanguage(q)) return { lang: q, locale: localeIn(q), asked: true };
  const saved = cookies(cookieHeader)[LANG_COOKIE];
  if (isLanguage(saved)) return { lang: saved, locale: localeIn(saved), asked: false };
  const first = tags.map((t) => t.toLowerCase().split('-')[0]).find(isLanguage);
  return first ? { lang: first, locale: localeIn(first), asked: false } : { lang: 'en', locale: 'en', asked: false };
}

export const isMetal = (value: string): value is MetalId => (METAL_IDS as readonly string[]).includes(value);
export const isUnit = (value: string): value is Unit => (UNITS as readonly string[]).includes(value);

/** The canonical address of a page. */
export const pagePath = (metal: MetalId, currency: string, unit: Unit) => `/${metal}/${currency.toLowerCase()}/${unit}`;

/** Currencies offered first in the picker and listed in the sitemap (each where the FX table holds it). */
export const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'INR', 'AED', 'SAR', 'CNY', 'JPY', 'CHF', 'CAD', 'AUD', 'TRY', 'PKR', 'THB', 'HKD', 'SGD'];

/** Each language's own name, for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  tr: 'Türkçe',
  ar: 'العربية',
  hi: 'हिन्दी',
  zh: '中文',
  ja: '日本語',
};
