import type { GetServerSidePropsContext, PageConfig } from 'next';
import { PageHead } from '@/site/layout';

// Any address that no route serves: the site's own 404 page. It answers the status itself, because
// Next hands a `notFound` (and pages/404) to its App Router default page, framework runtime included.
export const config: PageConfig = { unstable_runtimeJS: false };

export function getServerSideProps({ res }: GetServerSidePropsContext) {
  res.statusCode = 404;
  return { props: {} };
}

export default function NotFound() {
  return (
    <>
      <PageHead title="Page not found" />
      <h1>Page not found</h1>
      <p>
        There is no page at this address. The <a href="/docs">documentation</a> starts here, and the API lives under <code>/api/v1/</code> (see the{' '}
        <a href="/docs/api">API reference</a>).
      </p>
    </>
  );
}
