import type { GetServerSidePropsContext, PageConfig } from 'next';
import Head from 'next/head';
import { config as settings } from '@/lib/core/config';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { getSpot } from '@/lib/prices/spot';
import { answerCacheable } from '@/site/cacheable';
import { PageHead } from '@/site/layout';
import { LivePrice } from '@/site/live-price';
import { liveView, type LiveView } from '@/site/live-price-view';
import type { ChartPlan } from '@/site/chart-plan';
import { chartPlan } from '@/site/landing-chart';
import { MiniChart } from '@/site/mini-chart';
import { PageScript } from '@/site/page-script';

// Server-rendered with the current price, cacheable for spot's time with validators from that price (a
// revalidation is a 304 while it stands); the page's own script keeps it live.
export const config: PageConfig = { unstable_runtimeJS: false };

export async function getServerSideProps(ctx: GetServerSidePropsContext) {
  const origin = publicOrigin(ctx.req.headers);
  const [spot, plan] = await Promise.all([getSpot({ compact: '1' }, { origin }), chartPlan()]);
  const heartbeatS = settings.stream.heartbeatS();
  answerCacheable(ctx, 'landing', {
    data: { spot, heartbeatS, plan },
    states: [spot.data_state, ...('groups' in spot ? Object.values(spot.groups ?? {}) : [])],
  });
  return { props: { origin, live: liveView(spot), heartbeatS, plan } };
}

export default function Home({ origin, live, heartbeatS, plan }: { origin: string; live: LiveView; heartbeatS: number; plan: ChartPlan }) {
  return (
    <>
      <PageHead />
      <Head>
        {/* The price stream's heartbeat, for the page's script (widgets/scripts/live.ts): two without an event mean poll. */}
        <meta name="stream-heartbeat-s" content={String(heartbeatS)} />
      </Head>
      <h1>Gold market data you can trust</h1>
      <p className="lead">
        Free and keyless: live spot gold in 160+ currencies, a first-party intraday series, daily history since 2000 and monthly since 1960 in any
        currency, charts and central-bank reserves, for developers, AI agents and publishers. A price is never simulated: when a source is down you
        get the last real price marked <strong>stale</strong>, or an honest <strong>unavailable</strong>.
      </p>
      <div className="cta">
        <a className="primary" href="/docs">
          Get started
        </a>
        <a href="/docs/api">API reference</a>
        <a href="/docs/mcp">Connect an AI agent</a>
        <a href="/docs/widgets">Embed a widget</a>
      </div>
      <div className="grid2">
        <LivePrice view={live} />
        <MiniChart plan={plan} />
      </div>
      <h2>One request</h2>
      <pre tabIndex={0}>
        <code>{`curl '${origin}/api/v1/spot?currency=EUR&unit=gram&compact=1'`}</code>
      </pre>
      <PageScript name="landing" />
    </>
  );
}
