import { describe, expect, it } from 'vitest';
import { alertLabel, alertRequest, keyBytes, levelOf, notificationOf, readSaved, refusal, sameOrigin, statusWord } from '@/site/price-alerts';
import { PAGE_STRINGS, STRINGS } from '@/widgets/i18n';

// "Notify me" without a browser (site/price-alerts.ts): the alert the page POSTs, the alerts kept in localStorage, the
// words for the service's answers, and the notification the service worker shows from a push's payload.

const p = PAGE_STRINGS.en;
const sub = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', expirationTime: null, keys: { p256dh: 'BPk', auth: 'xyz' } };

describe('price alerts on the page', () => {
  it('asks for the page’s metal, currency and unit, one condition and the subscription’s endpoint and keys', () => {
    expect(alertRequest({ metal: 'gold', currency: 'EUR', unit: 'gram' }, 'below', 120.5, sub)).toEqual({
      metal: 'gold',
      currency: 'EUR',
      unit: 'gram',
      below: 120.5,
      push: { endpoint: sub.endpoint, keys: { p256dh: 'BPk', auth: 'xyz' } },
    });
  });

  it('takes a positive level only', () => {
    expect(levelOf('140.25')).toBe(140.25);
    expect(levelOf(' 140,5 ')).toBe(140.5);
    for (const bad of ['', '0', '-3', 'abc', 'Infinity']) expect(levelOf(bad), bad).toBeNull();
  });

  it('reads back the alerts it kept; anything else reads as none', () => {
    const a = {
      id: 'alrt_1',
      manage_url: 'http://x/api/v1/alerts/alrt_1?token=t',
      metal: 'gold',
      currency: 'EUR',
      unit: 'gram',
      type: 'above',
      value: 1,
    };
    expect(readSaved(JSON.stringify([a, { id: 2 }, null]))).toEqual([a]);
    expect(readSaved('{')).toEqual([]);
    expect(readSaved('{"a":1}')).toEqual([]);
    expect(readSaved(null)).toEqual([]);
  });

  it('decodes the VAPID key as pushManager.subscribe takes it', () => {
    const bytes = Uint8Array.from({ length: 65 }, (_, i) => (i * 37) % 256);
    expect([...keyBytes(Buffer.from(bytes).toString('base64url'))]).toEqual([...bytes]);
  });

  it('says each refusal in words: 429, 400 with the service’s reason, others with the status', () => {
    expect(refusal(429, { error: 'Rate limit exceeded' }, p)).toBe(p.notifyTooMany);
    expect(refusal(400, { error: 'push.endpoint must be on a known push service' }, p)).toBe(
      'The alert was refused: push.endpoint must be on a known push service',
    );
    expect(refusal(503, null, p)).toBe('The alert could not be set (HTTP 503). Try again later.');
    expect(statusWord('fired', p)).toBe('sent');
    expect(statusWord('active', PAGE_STRINGS.de)).toBe('aktiv');
  });

  it('names an alert in the page’s language', () => {
    const a = { metal: 'gold', currency: 'EUR', unit: 'gram', type: 'above' as const, value: 140 };
    expect(alertLabel(a, STRINGS.en, p, 'en')).toBe('Gold above €140.00 per gram');
    expect(alertLabel({ ...a, type: 'below' }, STRINGS.de, PAGE_STRINGS.de, 'de')).toMatch(/^Gold unter 140,00\s€ pro Gramm$/);
  });

  it('every language has the words', () => {
    for (const [lang, words] of Object.entries(PAGE_STRINGS)) {
      for (const key of Object.keys(p).filter((k) => k.startsWith('notify'))) expect(words[key as keyof typeof p], `${lang} ${key}`).toBeTruthy();
    }
  });
});

describe('the service worker’s notification', () => {
  const origin = 'https://gold.example';
  it('shows the payload’s title and body, tagged per alert, and opens its price page', () => {
    const n = notificationOf(
      { type: 'alert.triggered', title: 'Gold above €140.00/g', body: '€140.10/g at 10:00 UTC', url: `${origin}/gold/eur/gram`, tag: 'alrt_1' },
      origin,
    );
    expect(n.title).toBe('Gold above €140.00/g');
    expect(n.options).toMatchObject({ body: '€140.10/g at 10:00 UTC', tag: 'alrt_1', data: { url: `${origin}/gold/eur/gram` } });
  });
  it('shows a declarative push message from its notification (the fields Safari shows without the worker)', () => {
    const n = notificationOf(
      {
        web_push: 8030,
        notification: {
          title: 'Gold below £90.00/g',
          body: '£89.95/g at 14:02 UTC',
          navigate: `${origin}/gold/gbp/gram`,
          tag: 'alrt_2',
          lang: 'en',
          dir: 'ltr',
        },
      },
      origin,
    );
    expect(n.title).toBe('Gold below £90.00/g');
    expect(n.options).toMatchObject({
      body: '£89.95/g at 14:02 UTC',
      tag: 'alrt_2',
      lang: 'en',
      dir: 'ltr',
      data: { url: `${origin}/gold/gbp/gram` },
    });
    // Its navigate leads only to the service's own origin, as v1.10's url did.
    const away = notificationOf({ web_push: 8030, notification: { title: 't', navigate: 'https://evil.example/' } }, origin);
    expect(away.options.data.url).toBe(`${origin}/`);
  });
  it('opens only pages of its own origin', () => {
    expect(sameOrigin('https://evil.example/x', origin)).toBe(`${origin}/`);
    expect(sameOrigin('/silver/usd/oz', origin)).toBe(`${origin}/silver/usd/oz`);
    expect(sameOrigin(undefined, origin)).toBe(`${origin}/`);
    expect(notificationOf(null, origin).title).toBe('Price alert');
  });
});
