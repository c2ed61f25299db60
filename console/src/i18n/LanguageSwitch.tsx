// The language switch. Its accessible name stays "Language" and each option is named in its own
// language ("English", "नेपाली"), as language pickers usually are: whoever cannot read the
// current language can still find their own. Nepali comes twice: with the Latin digits staff
// copy into spreadsheets (the default), and with Devanagari digits ("नेपाली (०१२)") for those who
// read figures and dates in the script of the labels. One control rather than a second setting
// keeps the header narrow on a phone.
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentDigitStyle } from '../lib/format';
import { changeLanguage, currentLanguage } from './i18n';

type Choice = 'en' | 'ne' | 'ne-devanagari';

const OPTIONS: { value: Choice; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'ne', label: 'नेपाली' },
  { value: 'ne-devanagari', label: 'नेपाली (०१२)' },
];

export function LanguageSwitch() {
  const { i18n } = useTranslation();
  const language = currentLanguage(i18n.language);
  const value: Choice =
    language === 'ne' && currentDigitStyle() === 'devanagari' ? 'ne-devanagari' : language;
  const choose = (choice: Choice) => {
    if (choice === 'en') void changeLanguage('en');
    else void changeLanguage('ne', choice === 'ne-devanagari' ? 'devanagari' : 'latin');
  };
  return (
    <NativeSelect
      aria-label="Language"
      size="xs"
      data={OPTIONS}
      value={value}
      onChange={(event) => choose(event.currentTarget.value as Choice)}
    />
  );
}
