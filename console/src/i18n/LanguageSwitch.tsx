// The language switch. Its accessible name stays "Language" and each option is named in its own
// language ("English", "नेपाली"), as language pickers usually are: whoever cannot read the
// current language can still find their own.
import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Language } from '../lib/format';
import { changeLanguage, currentLanguage } from './i18n';

const OPTIONS: { value: Language; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'ne', label: 'नेपाली' },
];

export function LanguageSwitch() {
  const { i18n } = useTranslation();
  return (
    <NativeSelect
      aria-label="Language"
      size="xs"
      data={OPTIONS}
      value={currentLanguage(i18n.language)}
      onChange={(event) => void changeLanguage(event.currentTarget.value as Language)}
    />
  );
}
