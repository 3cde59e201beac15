import { describe, expect, it } from 'vitest';
import { intradayAtRateNow, lineLabel, rangeSeries } from '@/widgets/chart';
import { STRINGS } from '@/widgets/i18n';
import { PRICE_CHART_RANGES } from '@/widgets/kinds';
import { changeWords, linePoints } from '@/widgets/scripts/chart-line';
import { pickRange } from '@/site/price-chart-plan';

// The price pages' chart, planned (decisions §27): which series each range draws and over which window, how a
// page's `?range=` is read, and the range's change in words from the first and last point drawn.

const t = STRINGS.en;
const today = '2026-04-16';
const eurGram = { currency: 'EUR', unit: 'gram' } as const;
const usdOz = { currency: 'USD', unit: 'oz' } as const;

describe('what each range of a price page draws', () => {
  it('gold in euros per gram: 1D the recorded series (USD per ounce, said so), the daily ranges futures from their window, MAX monthly', () => {
    const plan = Object.fromEntries(PRICE_CHART_RANGES.map((r) => [r, rangeSeries('xau', r, false, today, eurGram, t)]));
    expect(plan['1d']).toMatchObject({ url: '/api/v1/intraday?symbol=xau&hours=24', line: 'intraday', currency: 'USD' });
    expect(plan['1d'].label).toBe(lineLabel('intraday', t, usdOz));
    const from = { '5d': '2026-04-09', '1mo': '2026-03-16', '6mo': '2025-10-15', '1y': '2025-04-15', '5y': '2021-04-15', '10y': '2016-04-15' };
    for (const [r, day] of Object.entries(from)) {
      expect(plan[r], r).toMatchObject({
        url: `/api/v1/history?series=futures&from=${day}&currency=EUR&unit=gram`,
        line: 'futures',
        label: `${t.lineFutures} · EUR/${t.abbrGram}`,
        currency: 'EUR',
        decimals: 4,
        from: day,
      });
    }
    expect(plan.max).toMatchObject({ url: '/api/v1/history?series=monthly&symbol=xau&currency=EUR&unit=gram', line: 'monthly' });
  });

  it('a range the spot bars cover draws them, in the page’s currency and unit, from its window', () => {
    expect(rangeSeries('silver', '6mo', true, today, eurGram, t)).toMatchObject({
      url: '/api/v1/history?series=spot&symbol=xag&from=2025-10-15&currency=EUR&unit=gram',
      line: 'spot',
      label: `${t.lineSpot} · EUR/${t.abbrGram}`,
    });
  });

  it('in USD per ounce, gold’s futures are the chart endpoint’s bars of the range; 6M daily, 10Y weekly', () => {
    expect(rangeSeries('xau', '6mo', false, today, usdOz, t).url).toBe('/api/v1/chart?symbol=xau&range=6mo&interval=1d');
    expect(rangeSeries('xau', '10y', false, today, usdOz, t).url).toBe('/api/v1/chart?symbol=xau&range=10y&interval=1wk');
  });

  it('palladium: MAX is its longest daily series in the page’s currency and unit: its spot bars, each at its own date’s rate; in USD per ounce the futures’ daily bars', () => {
    expect(rangeSeries('palladium', 'max', false, today, eurGram, t)).toMatchObject({
      url: '/api/v1/history?series=spot&symbol=xpd&currency=EUR&unit=gram',
      line: 'spot',
      label: `${t.lineSpot} · EUR/${t.abbrGram}`,
      currency: 'EUR',
      decimals: 4,
    });
    expect(rangeSeries('palladium', 'max', false, today, usdOz, t)).toMatchObject({
      url: '/api/v1/chart?symbol=palladium&range=max&interval=1d',
      line: 'futures',
      label: lineLabel('futures', t, usdOz),
    });
  });

  it('1D on a page: the recorded series (USD per ounce) drawn in the page’s currency and unit at the rate spot uses now, saying so', () => {
    const oneDay = intradayAtRateNow(rangeSeries('xau', '1d', false, today, eurGram, t), eurGram, t);
    expect(oneDay).toMatchObject({
      url: '/api/v1/intraday?symbol=xau&hours=24',
      line: 'intraday',
      label: `${t.lineIntraday} · EUR/${t.abbrGram} at the current exchange rate`,
      currency: 'EUR',
      decimals: 4,
      atRateNow: { unit: 'gram' },
    });
    // In USD per troy ounce the series is drawn as recorded; another range is never converted at today's rate.
    expect(intradayAtRateNow(rangeSeries('xau', '1d', false, today, usdOz, t), usdOz, t)).not.toHaveProperty('atRateNow');
    expect(intradayAtRateNow(rangeSeries('xau', '1y', false, today, eurGram, t), eurGram, t)).not.toHaveProperty('atRateNow');
  });
});

describe('?range=', () => {
  it('names a range the chart offers, in any case, with the short spellings of a month and six months', () => {
    expect(pickRange('5y')).toBe('5y');
    expect(pickRange('MAX')).toBe('max');
    expect(pickRange('1m')).toBe('1mo');
    expect(pickRange('6M')).toBe('6mo');
    expect(pickRange('10y')).toBe('10y');
  });
  it('anything else names none', () => {
    for (const v of [null, undefined, '', '3mo', '2y', '1y;', 'constructor']) expect(pickRange(v), String(v)).toBeNull();
  });
});

describe('the change in words', () => {
  const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;
  const points = [
    { time: day('2025-04-15'), value: 100 },
    { time: day('2025-10-01'), value: 90 },
    { time: day('2026-04-16'), value: 104.2 },
  ];

  it('from the first and the last point drawn, signed, in the page’s language and locale', () => {
    expect(changeWords(points, '1y', 'en', t)).toBe('+4.20% over 1 year');
    expect(changeWords(points, '5y', 'de', STRINGS.de)).toBe('+4,20\u00a0% in 5 Jahren');
    expect(changeWords(points.slice(0, 2), '6mo', 'fr', STRINGS.fr)).toBe('-10,00\u00a0% sur 6 mois');
    expect(changeWords(points, 'max', 'en', t)).toBe('+4.20% since 2025');
    expect(changeWords(points, '1d', 'ja', STRINGS.ja)).toBe('24時間で+4.20%');
  });

  it('says nothing with fewer than two points', () => {
    expect(changeWords(points.slice(0, 1), '1y', 'en', t)).toBe('');
    expect(changeWords([], '1y', 'en', t)).toBe('');
  });
});

describe('an answer’s points', () => {
  it('daily closes at their date, a whole series cut at the window’s first day; samples and bars at their time', () => {
    const daily = linePoints(
      [
        { d: '2026-01-02', c: 1 },
        { d: '2026-01-05', c: 2 },
      ] as never,
      '2026-01-05',
    );
    expect(daily).toEqual([{ time: Date.parse('2026-01-05T00:00:00Z') / 1000, value: 2 }]);
    expect(linePoints([{ t: 100, p: 5 }] as never)).toEqual([{ time: 100, value: 5 }]);
    expect(linePoints([{ t: 200, o: 1, h: 2, l: 1, c: 1.5, v: 0 }] as never)).toEqual([{ time: 200, value: 1.5 }]);
  });
});
