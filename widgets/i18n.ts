// The widgets' and the price pages' words, one file per language in widgets/messages/ (typed from English's). The
// server picks one language for a page and hands only that table to the page's script (in its JSON configuration), so
// adding a language costs the scripts nothing.
import * as en from './messages/en';
import * as de from './messages/de';
import * as fr from './messages/fr';
import * as es from './messages/es';
import * as it from './messages/it';
import * as pt from './messages/pt';
import * as tr from './messages/tr';
import * as ar from './messages/ar';
import * as hi from './messages/hi';
import * as zh from './messages/zh';
import * as ja from './messages/ja';
import type { PageStrings, Strings } from './messages/en';

export type { PageStrings, Strings };

// Each table named where it is used, so a script bundle that reads only the widgets' words carries only theirs.
export const STRINGS = {
  en: en.widget,
  de: de.widget,
  fr: fr.widget,
  es: es.widget,
  it: it.widget,
  pt: pt.widget,
  tr: tr.widget,
  ar: ar.widget,
  hi: hi.widget,
  zh: zh.widget,
  ja: ja.widget,
} satisfies Record<string, Strings>;
export type Language = keyof typeof STRINGS;
export const LANGUAGES = Object.keys(STRINGS) as Language[];

/** Languages written right to left. */
const RTL: readonly Language[] = ['ar'];

/** The language of a BCP 47 tag by its primary subtag (de-DE → de, zh-TW → zh), or null when there is none for it. */
export function languageOf(locale: string): Language | null {
  const primary = locale.split('-')[0].toLowerCase();
  return Object.hasOwn(STRINGS, primary) ? (primary as Language) : null;
}

export interface WidgetText {
  /** `<html lang>` and the locale of relative-time words: the asked locale when its language is here, else English. */
  lang: string;
  dir: 'ltr' | 'rtl';
  t: Strings;
}

/** The words for a page in `locale`; a language we do not have falls back to English (numbers still follow `locale`). */
export function textFor(locale: string): WidgetText {
  const language = languageOf(locale);
  if (!language) return { lang: 'en', dir: 'ltr', t: en.widget };
  return { lang: ownScript(locale, language), dir: RTL.includes(language) ? 'rtl' : 'ltr', t: STRINGS[language] };
}

/** Our Chinese is written in simplified characters: a locale that implies traditional ones (zh-TW) gets the script named (zh-Hans-TW). */
function ownScript(locale: string, language: Language): string {
  if (language !== 'zh') return locale;
  try {
    return new Intl.Locale(locale).maximize().script === 'Hans' ? locale : new Intl.Locale(locale, { script: 'Hans' }).toString();
  } catch {
    return 'zh-Hans';
  }
}

/** The price pages' own words per language (decisions §27). Metal names, units, karats, the market and the converter's words are the widgets' (`STRINGS`). */
export const PAGE_STRINGS: Record<Language, PageStrings> = {
  en: en.page,
  de: de.page,
  fr: fr.page,
  es: es.page,
  it: it.page,
  pt: pt.page,
  tr: tr.page,
  ar: ar.page,
  hi: hi.page,
  zh: zh.page,
  ja: ja.page,
};
