// i18next with one namespace per screen area (its folder name under src/screens/, with
// locales/en.json and locales/ne.json) plus `common` (src/locales/). Each namespace is its own
// small chunk, fetched the first time a screen asks for it, so the sign-in screen does not load
// the strings of every screen.
import i18next, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { type DigitStyle, type Language, setDigitStyle } from '../lib/format';

export const LANGUAGES: readonly Language[] = ['en', 'ne'];

// The language and the digits of Nepali are display preferences, not secrets: the console keeps
// them in localStorage (tokens never are), per browser.
const STORAGE_KEY = 'pasal.console.language';
const DIGITS_KEY = 'pasal.console.digits';

type Strings = { default: Record<string, unknown> };
const common = import.meta.glob<Strings>('../locales/*.json');
const areas = import.meta.glob<Strings>('../screens/*/locales/*.json');

function stringsFile(language: string, namespace: string) {
  return namespace === 'common'
    ? common[`../locales/${language}.json`]
    : areas[`../screens/${namespace}/locales/${language}.json`];
}

const lazyStrings: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = stringsFile(language, namespace);
    if (!load) {
      callback(new Error(`No ${language} strings for namespace ${namespace}`), false);
      return;
    }
    load().then(
      (file) => callback(null, file.default),
      (error: unknown) => callback(error as Error, false),
    );
  },
};

function savedLanguage(): Language {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.includes(saved as Language) ? (saved as Language) : 'en';
  } catch {
    return 'en'; // storage blocked (private mode, policy): English for this visit
  }
}

function savedDigits(): DigitStyle {
  try {
    return localStorage.getItem(DIGITS_KEY) === 'devanagari' ? 'devanagari' : 'latin';
  } catch {
    return 'latin';
  }
}

/** Devanagari digits only in Nepali, and only when chosen (Latin by default). */
const digitsFor = (language: Language, digits: DigitStyle): DigitStyle =>
  language === 'ne' ? digits : 'latin';

export async function startI18n(): Promise<void> {
  const language = savedLanguage();
  document.documentElement.lang = language;
  setDigitStyle(digitsFor(language, savedDigits()));
  await i18next
    .use(lazyStrings)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: 'en',
      supportedLngs: [...LANGUAGES],
      ns: ['common'],
      defaultNS: 'common',
      // React escapes what it renders.
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
}

/**
 * Switches the console's language; for Nepali also its digits (`digits`, kept for next time;
 * English leaves the saved choice alone). Every screen redraws, digits included, since the
 * language change (even to the same language) renders each translated component again.
 */
export async function changeLanguage(language: Language, digits?: DigitStyle): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language);
    if (language === 'ne' && digits) localStorage.setItem(DIGITS_KEY, digits);
  } catch {
    // Not saved: the choice still holds until the page is reloaded.
  }
  setDigitStyle(digitsFor(language, digits ?? savedDigits()));
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

/** The console's current language, as the formatters take it. */
export function currentLanguage(language: string | undefined): Language {
  return language === 'ne' ? 'ne' : 'en';
}
