import { ImageResponse } from 'next/og';
import { ApiError } from '@/lib/core/errors';
import { browserCache, sharedCache } from '@/lib/http/cache';
import { publicOrigin } from '@/lib/http/public-origin.mjs';
import { getSpot } from '@/lib/prices/spot';
import { metalById } from '@/lib/reference/metals';
import { unitEntry } from '@/lib/reference/units';
import { isMetal, isUnit } from '@/site/price-choice';
import { figuresOfSpot } from '@/site/price-figures';
import { number, priceDecimals } from '@/widgets/format';

// GET /og/{metal}/{currency}/{unit}.png: a price page's sharing image (decisions §27), 1200×630, drawn with
// next/og: the metal, its price as spot serves it, the change since the previous close, how fresh it is and when.
// Cacheable 60 s. Written with the currency's code and plain signs, which the image's font draws everywhere.

const SECONDS = 60;

const notFound = () =>
  new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

async function image(req: Request, { params }: { params: Promise<{ metal: string; currency: string; file: string }> }): Promise<Response> {
  const { metal, currency, file } = await params;
  const unit = file.endsWith('.png') ? file.slice(0, -4) : '';
  if (!isMetal(metal) || !isUnit(unit) || !/^[a-z]{3}$/.test(currency)) return notFound();
  let spot;
  try {
    spot = await getSpot({ currency: currency.toUpperCase(), unit, compact: '1' }, { origin: publicOrigin(req.headers, req.url) });
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return notFound();
    throw err;
  }
  const code = currency.toUpperCase();
  const f = 'xau' in spot ? figuresOfSpot(spot, metal, unit) : null;
  const dp = priceDecimals(unit);
  const price = f?.price == null ? 'Price unavailable' : `${number(f.price, 'en-US', dp)} ${code}`;
  const change = f?.change
    ? `${f.change.change > 0 ? 'Up +' : f.change.change < 0 ? 'Down -' : 'Unchanged '}${number(Math.abs(f.change.change), 'en-US', dp)} (${f.change.pct > 0 ? '+' : f.change.pct < 0 ? '-' : ''}${number(Math.abs(f.change.pct), 'en-US', 2)}%) since the previous close`
    : '';
  const state = f?.state ?? spot.data_state;
  // A rate that is not live (spot's `fx_stale`: the last live table past its time, or the bundled one) is named by its date.
  const rate = f?.fx && f.fx.status !== 'fresh' ? `; exchange rate of ${f.fx.as_of?.slice(0, 10) ?? 'an unknown date'}` : '';
  const fresh =
    state.status === 'fresh'
      ? rate
        ? `Live spot price in USD${rate}`
        : 'Live spot price'
      : state.status === 'stale'
        ? `Stale: the last real price${rate}`
        : 'No price received yet';
  const time = state.as_of ? `${new Date(state.as_of).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
  const colour = f?.change ? (f.change.change > 0 ? '#137a3a' : f.change.change < 0 ? '#b3261e' : '#1d1a12') : '#1d1a12';
  const res = new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: 64,
        background: '#fffdf7',
        color: '#1d1a12',
        fontSize: 36,
      }}
    >
      <div style={{ display: 'flex', fontSize: 44, color: '#8a6500' }}>
        {metalById(metal).name} per {unitEntry(unit).name} · {code}
      </div>
      <div style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ display: 'flex', fontSize: 120, fontWeight: 700 }}>{price}</div>
        <div style={{ display: 'flex', color: colour, marginTop: 12 }}>{change}</div>
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', color: '#5f584a' }}>
        <span>
          {fresh}
          {time ? ` · ${time}` : ''}
        </span>
        <span>Gold API</span>
      </div>
    </div>,
    { width: 1200, height: 630 },
  );
  res.headers.set('Cache-Control', browserCache(SECONDS));
  res.headers.set('CDN-Cache-Control', sharedCache(SECONDS));
  return res;
}

export const GET = image;
export const HEAD = image;
