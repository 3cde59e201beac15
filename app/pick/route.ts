import { fxInUse } from '@/lib/prices/spot';
import { feeds } from '@/lib/sources/feeds';
import { CHOICE_MAX_AGE_S, isLanguage, isMetal, isUnit, LANG_COOKIE, marketUnit, pagePath, PREF_COOKIE, prefValue } from '@/site/price-choice';

// GET /pick?metal=&currency=&unit=&lang=: the price pages' picker (decisions §27), a plain GET form that works
// without script. Saves the visitor's choice (the `pref` cookie, `eur.gram`; the `lang` cookie) and sends them to
// the canonical page (303). A currency spot does not accept is not saved: its page is the 404 naming the valid ones.

async function pick(req: Request): Promise<Response> {
  const q = new URL(req.url).searchParams;
  const metal = (q.get('metal') ?? '').toLowerCase();
  const currency = (q.get('currency') ?? '').trim().toUpperCase().slice(0, 3);
  const unitAsked = (q.get('unit') ?? '').toLowerCase();
  const lang = (q.get('lang') ?? '').toLowerCase();
  const table = fxInUse(await feeds.fx.read(), Date.now()).table;
  const served = /^[A-Z]{3}$/.test(currency) && currency in table;
  const code = /^[A-Z]{3}$/.test(currency) ? currency : 'USD';
  const unit = isUnit(unitAsked) ? unitAsked : marketUnit(code);
  const headers = new Headers({ Location: pagePath(isMetal(metal) ? metal : 'gold', code, unit), 'Cache-Control': 'no-store' });
  const cookie = (name: string, value: string) => `${name}=${value}; Path=/; Max-Age=${CHOICE_MAX_AGE_S}; SameSite=Lax`;
  if (served) headers.append('Set-Cookie', cookie(PREF_COOKIE, prefValue({ currency: code, unit })));
  if (isLanguage(lang)) headers.append('Set-Cookie', cookie(LANG_COOKIE, lang));
  return new Response(null, { status: 303, headers });
}

export const GET = pick;
export const HEAD = pick;
