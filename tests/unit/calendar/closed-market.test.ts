import { describe, expect, it } from 'vitest';
import { marketState } from '@/lib/calendar/market';
import { priceSummary } from '@/lib/mcp/tools/get-gold-price';
import type { Spot } from '@/lib/schemas/spot';
import { KARATS } from '@/lib/reference/karats';
import { textFor } from '@/widgets/i18n';
import { marketLine, renderPrice } from '@/widgets/price';
import { fixture } from '../../support/fake-upstream';
import { noChange } from '@/lib/prices/movement';

// What a reader sees on a Saturday, with a fixed clock: the MCP text and the price widget say the
// market is closed and when it reopens; on a trading day they say nothing about it.

const gold = fixture('goldapi-price-XAU.json');
const silver = fixture('goldapi-price-XAG.json');
const SATURDAY = Date.parse('2026-11-21T12:00:00-05:00');
const WEDNESDAY = Date.parse('2026-11-18T12:00:00-05:00');

function body(now: number, price_source = 'gold-api.com'): Spot {
  return {
    xau: { price: gold.price, currency: 'USD', unit: 'troy_oz' },
    karats: Object.fromEntries(KARATS.map((k) => [`${k}k`, Math.round(((gold.price * k) / 24) * 100) / 100])),
    spot_usd_oz: gold.price,
    silver_usd_oz: silver.price,
    gold_silver_ratio: Math.round((gold.price / silver.price) * 100) / 100,
    btc_usd: null,
    btc_gold_oz: null,
    price_source,
    data_state: { status: 'fresh', as_of: gold.updatedAt, source: 'upstream', age_seconds: 5 },
    market: marketState(now),
    change: noChange('2026-11-18'),
  } as Spot;
}

describe('MCP get_gold_price text', () => {
  it('on a Saturday: closed for the weekend, reopening Sunday 18:00 New York time', () => {
    const text = priceSummary(body(SATURDAY));
    expect(text).toContain('Market closed (weekend) until 2026-11-22T23:00:00.000Z');
    expect(text).toContain('(gold-api.com)');
  });

  it('in the daily break and on a holiday it names the reason', () => {
    expect(priceSummary(body(Date.parse('2026-11-18T17:10:00-05:00')))).toContain('Market closed (daily break) until 2026-11-18T23:00:00.000Z');
    expect(priceSummary(body(Date.parse('2026-12-25T09:00:00-05:00')))).toContain('Market closed (holiday) until 2026-12-27T23:00:00.000Z');
  });

  it('while open it says nothing about the market, and names the quotes feed when that is served', () => {
    const text = priceSummary(body(WEDNESDAY, 'swissquote.com'));
    expect(text).not.toMatch(/Market closed/);
    expect(text).toContain('(swissquote.com, mid of bid and ask)');
  });
});

describe('price widget', () => {
  const opts = { currency: 'USD', unit: 'oz' as const, theme: 'light' as const, locale: 'en-US', silver: false, ratio: false };
  const view = (now: number, locale = 'en-US') => {
    const spot = body(now);
    return String(renderPrice({ opts: { ...opts, locale }, spot, state: spot.data_state, origin: 'http://x', words: textFor(locale) }));
  };

  it('on a Saturday shows "Market closed" with the reopening time in the reader\'s locale', () => {
    // Punctuation between weekday and time varies with the ICU version; the words and the time do not.
    expect(view(SATURDAY)).toMatch(/<div class="row" data-f="market">Market closed · Reopens Sun,? 11:00\sPM UTC<\/div>/);
    expect(view(SATURDAY, 'de-DE')).toMatch(/Markt geschlossen · Öffnet wieder: So\.?,? 23:00 UTC/);
    // The script redraws in the reader's own zone.
    expect(marketLine(marketState(SATURDAY), textFor('en-US'), 'en-US', 'America/Los_Angeles')).toMatch(
      /^Market closed · Reopens Sun,? 3:00\sPM PST$/,
    );
  });

  it('on a trading day the line is hidden and empty', () => {
    expect(view(WEDNESDAY)).toContain('<div class="row" data-f="market" hidden></div>');
    expect(marketLine(marketState(WEDNESDAY), textFor('en-US'), 'en-US')).toBe('');
  });
});
