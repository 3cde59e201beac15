import type { GetServerSidePropsContext, PageConfig } from 'next';
import { NotFound } from '@/site/not-found';
import { PricePage } from '@/site/price-page';
import { canonicalPage, type PriceRouteProps } from '@/site/price-route';

// A metal's price in a currency and unit (decisions §27): server-rendered, no framework code in the browser; the
// page's own script (site/scripts/price-page.ts) keeps it live.
export const config: PageConfig = { unstable_runtimeJS: false };

export const getServerSideProps = (ctx: GetServerSidePropsContext) => canonicalPage(ctx);

export default function Price(props: PriceRouteProps) {
  if ('notFound' in props) return <NotFound {...props} />;
  if ('held' in props) return null;
  return <PricePage {...props} />;
}
