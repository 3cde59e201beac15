import { App, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import type { Strings } from '../i18n';
import type { Words } from '../format';
import { config } from '../scripts/shared';
import type { ViewConfig } from './words';

// What both views share: the ext-apps App connected to the host (the handshake, the tool's input
// and result, size reports), and the host's theme, locale and time zone applied. The words are the
// widgets' own, in the language of the host's locale; numbers and dates follow the locale itself.

const cfg = config<ViewConfig>();

export const app = new App({ name: 'goldapi', version: cfg.version });

/** The reader as the host describes them; English and the browser's zone until it has. */
export const reader: Words & { locale: string; timeZone?: string } = { t: cfg.text.en.t as Strings, lang: 'en', locale: 'en-US' };

function follow(ctx: McpUiHostContext | undefined): void {
  const root = document.documentElement;
  if (ctx?.theme) root.dataset.theme = ctx.theme;
  if (ctx?.timeZone && zoneKnown(ctx.timeZone)) reader.timeZone = ctx.timeZone;
  const locale = ctx?.locale && Intl.NumberFormat.supportedLocalesOf([ctx.locale])[0];
  if (!locale) return;
  const language = locale.split('-')[0].toLowerCase();
  const text = Object.hasOwn(cfg.text, language) ? cfg.text[language] : null;
  reader.locale = locale;
  // Our Chinese is written in simplified characters; a language we lack reads English, its numbers still in the locale.
  reader.lang = !text ? 'en' : language === 'zh' ? 'zh-Hans' : locale;
  reader.t = (text ?? cfg.text.en).t as Strings;
  root.lang = reader.lang;
  root.dir = text?.dir ?? 'ltr';
}

function zoneKnown(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Connects to the host (handlers must be set before: the host may send the result at once), then draws as the host's context says. */
export async function connect(draw: () => void): Promise<void> {
  app.onhostcontextchanged = () => {
    follow(app.getHostContext());
    draw();
  };
  await app.connect();
  follow(app.getHostContext());
  draw();
}
