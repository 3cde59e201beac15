import type { GetServerSidePropsContext, PageConfig } from 'next';
import { choicePage } from '@/site/price-route';

// The site's home (decisions §27): gold in the visitor's currency and unit, without a redirect. The developer home
// is /developers.
export const config: PageConfig = { unstable_runtimeJS: false };

export const getServerSideProps = (ctx: GetServerSidePropsContext) => choicePage(ctx, 'gold');

export { default } from './[metal]/[currency]/[unit]';
