import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { isLocale, type Locale } from '../i18n/catalog.ts';
import { setLocale } from '../i18n/i18n.ts';

const LABELS: Record<Locale, string> = { ru: 'RU', en: 'EN' };

/** RU/EN toggle: shows the current language; a click switches to the other one. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current: Locale = isLocale(i18n.language) ? i18n.language : 'en';
  const next: Locale = current === 'ru' ? 'en' : 'ru';
  return (
    <Button
      type="text"
      icon={<TranslationOutlined aria-hidden />}
      data-testid="lang-switch"
      data-locale={current}
      aria-label={t('header.language', { current: LABELS[current], next: LABELS[next] })}
      onClick={() => setLocale(next)}
    >
      {LABELS[current]}
    </Button>
  );
}
