import { meltValue, type Holding } from '../../lib/prices/melt';
import type { Unit } from '../../lib/reference/units';
import { fineShareOf } from '../../widgets/converter';
import { fill, number } from '../../widgets/format';
import type { PageConfig } from '../price-page';
import { figuresAt, moneyTexts, valueText, valueTexts, weightFor, type Ask, type WorthPage, type WorthTexts } from '../price-value-figures';

// "What your metal is worth" on a price page (decisions §31), in the browser: every metal value the server wrote follows
// the price (value's arithmetic, lib/prices/melt.ts, so each equals /api/v1/value's for the price the page shows), and
// the forms answer as you type, in the same words. Submitting a form still asks the server, which answers at a URL
// that can be shared.

export interface Worth {
  /** The page's metal at a new price: USD per troy ounce and the currency's rate per USD. */
  price(usdOz: number | null, rate: number | null): void;
}

const restored = (el: Element) =>
  el instanceof HTMLSelectElement
    ? el.selectedIndex >= 0 && !el.options[el.selectedIndex].defaultSelected
    : el instanceof HTMLInputElement && el.type !== 'hidden' && el.value !== el.defaultValue;

export function mountWorth(config: PageConfig): Worth | null {
  const section = document.getElementById('worth');
  const answer = document.getElementById('worth-answer');
  if (!section || !answer) return null;
  const page: WorthPage = { metal: config.metal as WorthPage['metal'], currency: config.currency, words: config.words };
  const { p } = config.words;
  const cells = [...section.querySelectorAll<HTMLElement>('[data-f][data-h]')].map((el) => ({ el, h: JSON.parse(el.dataset.h!) as Holding }));
  const part = (name: string) => answer.querySelector<HTMLElement>(`[data-f="${name}"]`)!;
  const [main, fine, quote] = ['worth', 'worth-fine', 'worth-quote'].map(part);
  let ask: Ask | null = answer.dataset.ask ? (JSON.parse(answer.dataset.ask) as Ask) : null;
  let usd: number | null = config.usdOz;
  let rate: number | null = config.figures?.fxRate ?? null;

  const write = (el: HTMLElement, text: string, v?: number | null) => {
    if (el.textContent !== text) el.textContent = text;
    if (v !== undefined) el.dataset.v = v === null ? '' : String(v);
  };
  function answerNow(refused?: string) {
    if (refused !== undefined) {
      ask = null;
      write(main, refused, null);
      write(fine, '');
      write(quote, '', null);
      return;
    }
    if (!ask || usd === null || rate === null) return;
    let texts: WorthTexts;
    if (ask.kind === 'money') {
      const w = weightFor(ask.money, usd, rate, ask.unit, ask.fineness);
      texts = moneyTexts(ask, w, page);
      write(main, texts.main, w);
      write(quote, '', null);
    } else {
      const f = figuresAt(ask, usd, rate);
      texts = valueTexts(ask, f, page);
      write(main, texts.main, f.melt_value);
      write(quote, texts.quote, f.quote?.premium_pct ?? null);
    }
    write(fine, texts.fine);
  }

  // The forms, as you type: each asks what its fields ask, or says what is wrong in the server's words.
  const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  const amount = (el: HTMLInputElement | HTMLSelectElement) => (el.value === '' ? undefined : Number(el.value));
  const within = (n: number | undefined, el: HTMLInputElement | HTMLSelectElement) =>
    n !== undefined && n > 0 && n <= Number(el.getAttribute('max') ?? Infinity);
  const refusal = (words: string, el: HTMLInputElement | HTMLSelectElement) =>
    fill(words, { max: number(Number(el.getAttribute('max')), config.locale, 0) });
  const read: Record<string, (form: HTMLFormElement) => Ask | string> = {
    'worth-weight': (form) => {
      const weight = amount(field(form, 'weight'));
      const q = amount(field(form, 'quote'));
      if (!within(weight, field(form, 'weight'))) return refusal(p.worthBadWeight, field(form, 'weight'));
      if (q !== undefined && !(q > 0)) return p.worthBadQuote;
      const purity = field(form, 'fineness').value;
      const unit = field(form, 'unit').value as Unit;
      return { kind: 'weight', weight: weight!, unit, purity, fineness: fineShareOf(purity), ...(q === undefined ? {} : { quote: q }) };
    },
    'worth-coins': (form) => {
      const qty = amount(field(form, 'qty'));
      const q = amount(field(form, 'quote'));
      if (!within(qty, field(form, 'qty')) || !Number.isInteger(qty)) return refusal(p.worthBadQty, field(form, 'qty'));
      if (q !== undefined && !(q > 0)) return p.worthBadQuote;
      const item = field(form, 'item') as HTMLSelectElement;
      const coin = JSON.parse(item.selectedOptions[0].dataset.h!) as { fine_oz: number; fine_g: number };
      return { kind: 'item', item: item.value, qty: qty!, unit: config.unit as Unit, coin, ...(q === undefined ? {} : { quote: q }) };
    },
    'worth-money': (form) => {
      const money = amount(field(form, 'money'));
      if (!(money !== undefined && money > 0)) return p.worthBadMoney;
      const purity = field(form, 'fineness').value;
      return { kind: 'money', money, unit: field(form, 'unit').value as Unit, purity, fineness: fineShareOf(purity) };
    },
  };
  for (const [id, from] of Object.entries(read)) {
    const form = document.getElementById(id) as HTMLFormElement | null;
    const asked = () => {
      const got = from(form as HTMLFormElement);
      if (typeof got === 'string') return answerNow(got);
      ask = got;
      answerNow();
    };
    if (!form) continue;
    form.addEventListener('input', asked);
    form.addEventListener('change', asked);
    // A form the browser restored (Back, a reload) may ask other than the server answered: answered anew.
    if ([...form.elements].some(restored)) asked();
  }

  return {
    price(usdOz, fxRate) {
      if (usdOz === null || fxRate === null || (usdOz === usd && fxRate === rate)) return;
      usd = usdOz;
      rate = fxRate;
      for (const { el, h } of cells) {
        const v = meltValue(usdOz, fxRate, h);
        write(el, valueText(v, page), v);
      }
      answerNow();
    },
  };
}
