import type { GetServerSidePropsContext } from 'next';
import { publicOrigin } from '@/lib/http/public-origin.mjs';

/** Props of a page whose code samples carry this deployment's public origin. */
export interface OriginProps {
  origin: string;
}

export async function originProps({ req }: GetServerSidePropsContext): Promise<{ props: OriginProps }> {
  return { props: { origin: publicOrigin(req.headers) } };
}
