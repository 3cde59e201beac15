import type { GetServerSidePropsContext } from 'next';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { answerCacheable } from './cacheable';

/** Props of a page whose code samples carry this deployment's public origin. */
export interface OriginProps {
  origin: string;
}

/** A docs page's props: cacheable, with validators of this build (site/cacheable.ts), and the public origin. */
export async function originProps(ctx: GetServerSidePropsContext): Promise<{ props: OriginProps }> {
  answerCacheable(ctx, 'docs');
  return { props: { origin: publicOrigin(ctx.req.headers) } };
}
