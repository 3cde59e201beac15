import type { GetServerSidePropsContext, PageConfig } from 'next';
import { NotFound } from '@/site/not-found';
import { notFoundProps } from '@/site/not-found-props';

// Any address that no route serves: the site's own 404 page. It answers the status itself, because
// Next hands a `notFound` (and pages/404) to its App Router default page, framework runtime included.
export const config: PageConfig = { unstable_runtimeJS: false };

export function getServerSideProps(ctx: GetServerSidePropsContext) {
  return notFoundProps(ctx);
}

export default NotFound;
