import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { isLocale, type Locale } from '../i18n/catalog.ts';
import { isLanguageLoaded, loadLanguage, setLocale } from '../i18n/i18n.ts';
import { ChunkLoadError } from '../lib/chunkLoad.ts';
import { notifyError } from './notifications.tsx';

const LABELS: Record<Locale, string> = { ru: 'RU', en: 'EN' };

/**
 * RU/EN toggle: shows the current language; a click switches to the other one. The other
 * language's catalog is fetched on the first switch (the button spins meanwhile); when it
 * cannot be loaded, the language stays and an error toast says why.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const [switching, setSwitching] = useState(false);
  const current: Locale = isLocale(i18n.language) ? i18n.language : 'en';
  const next: Locale = current === 'ru' ? 'en' : 'ru';

  const switchLanguage = () => {
    if (isLanguageLoaded(next)) {
      void setLocale(next);
      return;
    }
    setSwitching(true);
    loadLanguage(next).then(
      () =>
        // One synchronous update, as when a click switches a loaded language: <html lang>, the
        // texts and the button change together.
        flushSync(() => {
          setSwitching(false);
          void setLocale(next);
        }),
      (error: unknown) => {
        setSwitching(false);
        const failure = error instanceof ChunkLoadError ? error.failure : 'other';
        notifyError({
          title: t(`errors.chunk.${failure}Title`),
          description: t(`errors.chunk.${failure}Text`),
          key: 'language-switch',
        });
      },
    );
  };

  return (
    <Button
      type="text"
      icon={<TranslationOutlined aria-hidden />}
      loading={switching}
      aria-busy={switching}
      data-testid="lang-switch"
      data-locale={current}
      aria-label={t('header.language', { current: LABELS[current], next: LABELS[next] })}
      onClick={switching ? undefined : switchLanguage}
    >
      {LABELS[current]}
    </Button>
  );
}
