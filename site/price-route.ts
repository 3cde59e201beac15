import type { GetServerSidePropsContext, GetServerSidePropsResult } from 'next';
import { fxInUse } from '@/lib/prices/spot';
import type { MetalId } from '@/lib/reference/metals';
import type { Unit } from '@/lib/reference/units';
import { feeds } from '@/lib/sources/feeds';
import { notFoundProps, type NotFoundProps } from './not-found-props';
import { isMetal, isUnit, visitorChoice } from './price-choice';
import { loadPricePage, type PricePageProps } from './price-page-data';
import { DEFAULT_PRICE_CHART_RANGE, pickRange } from './price-chart-plan';

// How the price pages answer (decisions §27): `/{metal}/{currency}/{unit}` in lower case (another case is a 308 to
// it, the query kept); `/` (gold) and `/{metal}` in the visitor's choice, without a redirect; anything unknown is
// the site's 404 page.

export type PriceRouteProps = (PricePageProps & { range: string }) | NotFoundProps | { held: true };

const param = (ctx: GetServerSidePropsContext, name: string) => String(ctx.params?.[name] ?? '');
const queryOf = (ctx: GetServerSidePropsContext) => {
  const q = ctx.resolvedUrl.indexOf('?');
  return q < 0 ? '' : ctx.resolvedUrl.slice(q);
};

/** The range `?range=` opens (read as the chart's script reads it: site/price-chart-plan.ts). */
function rangeOf(ctx: GetServerSidePropsContext): string {
  return pickRange(String(ctx.query.range ?? '')) ?? DEFAULT_PRICE_CHART_RANGE;
}

async function page(
  ctx: GetServerSidePropsContext,
  metal: MetalId,
  currency: string,
  unit: Unit,
): Promise<GetServerSidePropsResult<PriceRouteProps>> {
  const loaded = await loadPricePage(ctx, metal, currency, unit);
  if (loaded === 'unknown') return notFoundProps(ctx);
  if (loaded === 'held') return { props: { held: true } };
  return { props: { ...loaded.props, range: rangeOf(ctx) } };
}

/** `/{metal}/{currency}/{unit}`. */
export async function canonicalPage(ctx: GetServerSidePropsContext): Promise<GetServerSidePropsResult<PriceRouteProps>> {
  const [metal, currency, unit] = ['metal', 'currency', 'unit'].map((n) => param(ctx, n));
  const lower = [metal, currency, unit].map((s) => s.toLowerCase());
  if (lower.join('/') !== [metal, currency, unit].join('/') && isMetal(lower[0]) && isUnit(lower[2]) && /^[a-z]{3}$/.test(lower[1]))
    return { redirect: { destination: `/${lower.join('/')}${queryOf(ctx)}`, statusCode: 308 } };
  if (!isMetal(metal) || !isUnit(unit) || !/^[a-z]{3}$/.test(currency)) return notFoundProps(ctx);
  return page(ctx, metal, currency.toUpperCase(), unit);
}

/** `/` (gold) and `/{metal}`: the visitor's currency and unit. */
export async function choicePage(ctx: GetServerSidePropsContext, asked: string): Promise<GetServerSidePropsResult<PriceRouteProps>> {
  if (!isMetal(asked)) {
    const lower = asked.toLowerCase();
    if (isMetal(lower)) return { redirect: { destination: `/${lower}${queryOf(ctx)}`, statusCode: 308 } };
    return notFoundProps(ctx);
  }
  const table = fxInUse(await feeds.fx.read(), Date.now()).table;
  const choice = visitorChoice(ctx.req.headers.cookie, ctx.req.headers['accept-language'], (code) => code in table);
  return page(ctx, asked, choice.currency, choice.unit);
}
