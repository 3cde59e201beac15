import type { GetServerSidePropsContext, PageConfig } from 'next';
import { choicePage } from '@/site/price-route';

// A metal's price in the visitor's currency and unit (decisions §27), without a redirect.
export const config: PageConfig = { unstable_runtimeJS: false };

export const getServerSideProps = (ctx: GetServerSidePropsContext) => choicePage(ctx, String(ctx.params?.metal ?? ''));

export { default } from './[currency]/[unit]';
