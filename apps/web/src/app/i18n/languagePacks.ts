import { provideLanguagePacks } from '@/shared/i18n/i18n.ts';

// Each language's catalog (the feature catalogs assembled in locales/) is a chunk of its own,
// fetched only when the interface is in that language (issue 14: the initial JS carries none).
provideLanguagePacks({
  en: () => import('./packs/en.ts'),
  ru: () => import('./packs/ru.ts'),
});
