import type { GetServerSidePropsContext } from 'next';
import { alertsEnabled } from '@/lib/alerts/config';
import { ApiError } from '@/lib/core/errors';
import { config as settings } from '@/lib/core/config';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { fxInUse, getSpot } from '@/lib/prices/spot';
import { metalById, type MetalId } from '@/lib/reference/metals';
import { round, UNIT_DECIMALS, type Unit } from '@/lib/reference/units';
import type { History } from '@/lib/schemas/history';
import { getHistoryFor } from '@/lib/series/history';
import { isMonthlyMetal } from '@/lib/series/monthly';
import { feeds } from '@/lib/sources/feeds';
import { isUnavailable } from '@/lib/sources/unavailable';
import { PAGE_STRINGS, STRINGS, textFor } from '@/widgets/i18n';
import { answerCacheable } from './cacheable';
import { COMMON_CURRENCIES, pageLanguage, pagePath, type PageLanguage } from './price-choice';
import { figuresOfSpot, type Figures, type PageWords } from './price-figures';
import { priceChartPlan } from './price-chart';
import { loadWorth, readingOf, type WorthProps } from './price-value-data';
import type { PriceChartPlan } from './price-chart-plan';
import { loadPriceMoves, type PriceMoves } from './price-performance-data';

// Everything a price page shows (decisions §27), read on the server: spot for its metal, currency and unit (the
// function behind /api/v1/spot, so the page says what spot says), the value on a date (the function behind
// /api/v1/history's `date=`), and what metal is worth (the function behind /api/v1/value) for a form sent without script.

/** The value on a date: the last point on or before it of the first series that has one near it. */
export interface DateValue {
  asked: string;
  /** The point's own date. */
  d: string;
  value: number;
  series: 'spot' | 'futures' | 'monthly';
  source: string;
  /** From that day's value to the page's price now, in the page's currency and unit; null without a price now. */
  change: number | null;
  pct: number | null;
}

export interface PricePageProps {
  metal: MetalId;
  currency: string;
  unit: Unit;
  figures: Figures | null;
  /** The codes spot accepts, common ones first. */
  codes: string[];
  words: PageWords;
  dir: 'ltr' | 'rtl';
  language: PageLanguage;
  origin: string;
  /** The page's canonical path (the one its `<link rel=canonical>` names, without `?lang=`). */
  path: string;
  /** The date asked (`?date=`), its value when one is known, or why not. */
  date: { asked: string; value: DateValue | null } | null;
  /** "What your metal is worth": its forms' answer and tables (site/price-value-data.ts). */
  worth: WorthProps;
  /** The chart's series per range, decided here (site/price-chart.ts) and handed to its script in `data-plan`. */
  chartPlan: PriceChartPlan;
  /** The performance table's windows and the years table's years (site/price-performance-data.ts). */
  moves: PriceMoves;
  heartbeatS: number;
  /** USD per troy ounce of the page's metal, for the script's metal values. */
  usdOz: number | null;
  /** When the page was rendered (ms): a stale price's age is counted from it. */
  now: number;
  /** Whether the deployment offers price alerts (`ALERTS=off`: the page has no "Notify me"). */
  alerts: boolean;
}

/** The first value of a query parameter. */
const param = (ctx: GetServerSidePropsContext, name: string) => {
  const v = ctx.query[name];
  return typeof v === 'string' ? v : Array.isArray(v) ? v[0] : undefined;
};

const DAY_MS = 86_400_000;
/** How far before the asked day a daily series' point may be and still be that day's value (a long weekend, a holiday). */
const DAILY_SLACK_DAYS = 7;

/**
 * The value of `metal` on `date` in a currency and unit: the service's own daily spot bars where one is dated within
 * a week before it, else (gold) the COMEX futures close, else the World Bank's monthly average of that month. Each
 * from the history endpoint's own function with `date=` (its rounding, its conversion at that day's rate).
 */
export async function valueOn(metal: MetalId, currency: string, unit: Unit, date: string): Promise<Omit<DateValue, 'change' | 'pct'> | null> {
  const symbol = metalById(metal).intraday;
  const tries: { series: DateValue['series']; symbol?: typeof symbol }[] = [
    { series: 'spot', symbol },
    ...(metal === 'gold' ? [{ series: 'futures' as const }] : []),
    ...(isMonthlyMetal(metal) ? [{ series: 'monthly' as const, symbol }] : []),
  ];
  for (const t of tries) {
    let h: History | { error: string };
    try {
      h = await getHistoryFor({ ...t, currency, unit, date });
    } catch (err) {
      if (err instanceof ApiError) continue;
      throw err;
    }
    if (isUnavailable(h as History) || !('points' in h) || !h.points[0]) continue;
    const p = h.points[0];
    if (p.c === undefined) continue; // only the London-time series has no close, and it is not tried here
    const near = t.series === 'monthly' ? p.d.slice(0, 7) === date.slice(0, 7) : Date.parse(date) - Date.parse(p.d) <= DAILY_SLACK_DAYS * DAY_MS;
    if (near) return { asked: date, d: p.d, value: p.c, series: t.series, source: h.source };
  }
  return null;
}

/** A date the history endpoint takes: YYYY-MM-DD, a real day, not after today. */
function validDate(value: string | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value && t <= Date.now() ? value : null;
}

/** The codes spot accepts, common ones first: one list per FX table (a table held is never changed). */
const codeLists = new WeakMap<object, string[]>();
function codesOf(table: Record<string, number>): string[] {
  let codes = codeLists.get(table);
  if (!codes) {
    const all = Object.keys(table).sort();
    codes = [...COMMON_CURRENCIES.filter((c) => c in table), ...all.filter((c) => !COMMON_CURRENCIES.includes(c))];
    codeLists.set(table, codes);
  }
  return codes;
}

/**
 * The page's props, its caching headers and validators set; `unknown` when spot does not accept the currency,
 * `held` when the request already holds this page (answered 304). `vary` names the request headers the answer
 * follows (the language's, the choice's).
 */
export async function loadPricePage(
  ctx: GetServerSidePropsContext,
  metal: MetalId,
  currency: string,
  unit: Unit,
): Promise<{ props: PricePageProps } | 'unknown' | 'held'> {
  const origin = publicOrigin(ctx.req.headers);
  let spot;
  try {
    spot = await getSpot({ currency, unit, compact: '1' }, { origin });
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return 'unknown';
    throw err;
  }
  const codes = codesOf(fxInUse(await feeds.fx.read(), Date.now()).table);
  const language = pageLanguage(param(ctx, 'lang'), ctx.req.headers.cookie, ctx.req.headers['accept-language']);
  const text = textFor(language.locale);
  const words: PageWords = { t: STRINGS[language.lang], p: PAGE_STRINGS[language.lang], lang: text.lang, locale: language.locale };
  const figures = 'xau' in spot ? figuresOfSpot(spot, metal, unit) : null;
  const usdOz = 'xau' in spot ? ((metal === 'gold' ? spot.spot_usd_oz : spot[metalById(metal).usdField as 'silver_usd_oz']) ?? null) : null;

  const asked = validDate(param(ctx, 'date'));
  let date: PricePageProps['date'] = null;
  if (asked) {
    const found = await valueOn(metal, currency, unit, asked);
    const now = figures?.price ?? null;
    date = {
      asked,
      value: found && {
        ...found,
        change: now === null ? null : round(now - found.value, UNIT_DECIMALS[unit]),
        pct: now === null || found.value === 0 ? null : round((now / found.value - 1) * 100, 2),
      },
    };
  }

  const worth = loadWorth(new URL(ctx.resolvedUrl, 'http://page').searchParams, metal, unit, 'xau' in spot ? readingOf(spot, metal) : null);

  const chartPlan = await priceChartPlan({ metal, currency, unit, lang: language.lang });
  const moves = await loadPriceMoves({ metal, currency, unit }, chartPlan);
  const path = pagePath(metal, currency, unit);
  const alerts = alertsEnabled();
  if (!figures) {
    // No price ever seen: the page says so, as spot's 503 does, and nothing keeps it.
    ctx.res.statusCode = 503;
    ctx.res.setHeader('Cache-Control', 'no-store');
  } else if (
    answerCacheable(ctx, 'pricePage', {
      // Everything the page shows that can change: spot (its answer-time fields do not count), the language and
      // locale, the date's value, the metal values with the form's answer, and the performance and years tables.
      data: { spot, language, date, worth, path, chartPlan, moves, alerts },
      states: [figures.state],
      vary: ['Accept-Language', 'Cookie'],
    })
  )
    return 'held';
  return {
    props: {
      metal,
      currency,
      unit,
      figures,
      codes,
      words,
      dir: text.dir,
      language,
      origin,
      path,
      date,
      worth,
      chartPlan,
      moves,
      heartbeatS: settings.stream.heartbeatS(),
      usdOz,
      now: Date.now(),
      alerts,
    },
  };
}
