import type { Locale } from './catalog.ts';

/**
 * The few texts the app needs before its language pack has arrived: the loading spinner's
 * label and the screen shown when the pack cannot be loaded. Copies of the catalogs' entries
 * (startupTexts.test.ts keeps them equal); everything else comes with the pack.
 */
export const STARTUP_TEXTS = {
  en: {
    common: { loading: 'Loading…', reload: 'Reload' },
    errors: {
      chunk: {
        missingTitle: 'Part of the application is missing',
        missingText: 'The application was probably updated. Reload the page to get the new version.',
        timeoutTitle: 'The page is taking too long to load',
        timeoutText: 'Check your connection and reload the page.',
        otherTitle: 'The page could not be loaded',
        otherText: 'Reload the page. If the problem persists, contact support.',
      },
    },
  },
  ru: {
    common: { loading: 'Загрузка…', reload: 'Перезагрузить' },
    errors: {
      chunk: {
        missingTitle: 'Часть приложения не найдена',
        missingText: 'Вероятно, приложение обновилось. Перезагрузите страницу, чтобы получить новую версию.',
        timeoutTitle: 'Страница загружается слишком долго',
        timeoutText: 'Проверьте подключение и перезагрузите страницу.',
        otherTitle: 'Не удалось загрузить страницу',
        otherText: 'Перезагрузите страницу. Если ошибка повторится, обратитесь в поддержку.',
      },
    },
  },
} satisfies Record<Locale, object>;
