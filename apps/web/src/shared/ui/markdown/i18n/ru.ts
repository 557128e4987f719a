import type { RussianTexts } from '../../../i18n/catalog.ts';
import type { markdownEn } from './en.ts';

/** Тексты редактора Markdown сотрудников SOC (текст и предпросмотр). */
export const markdownRu: RussianTexts<typeof markdownEn> = {
  write: 'Текст',
  preview: 'Предпросмотр',
  previewLabel: 'Предпросмотр: {{field}}',
  previewLoading: 'Готовим предпросмотр…',
  previewEmpty: 'Пока нечего показать.',
  previewFailed: 'Не удалось показать предпросмотр.',
  hint: 'Markdown: **жирный**, _курсив_, списки, таблицы, `код` и ссылки.',
  counter: '{{count, number}} из {{max, number}} символов',
};
