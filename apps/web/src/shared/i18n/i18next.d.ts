import 'i18next';
import type { en } from './locales/en.ts';

// Typed keys: t('menu.dashbord') is a compile error instead of a raw key on screen.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
