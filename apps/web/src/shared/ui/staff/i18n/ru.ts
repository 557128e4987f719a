import type { RussianTexts } from '../../../i18n/catalog.ts';
import type { staffAreaEn } from './en.ts';

/** Тексты, общие для всех экранов раздела сотрудников провайдера. */
export const staffAreaRu: RussianTexts<typeof staffAreaEn> = {
  notAvailable: {
    title: 'Страница недоступна',
    text: 'Этот раздел портала доступен только сотрудникам провайдера.',
    home: 'На главную',
  },
};
