import type { RussianTexts } from '../../../i18n/catalog.ts';
import type { chatEn } from './en.ts';

/** Тексты чата инцидентов и задач: панель, сообщения и редактор (product §A2, §A4). */
export const chatRu: RussianTexts<typeof chatEn> = {
  title: 'Комментарии',
  panel: 'Панель комментариев',
  resize: 'Изменить ширину панели комментариев',
  resizeComposer: 'Изменить высоту поля комментария',
  search: 'Поиск по комментариям',
  empty: 'Нет комментариев',
  nothingFound: 'Нет комментариев, подходящих под поиск',
  loadFailed: 'Не удалось загрузить комментарии',
  placeholder: 'Напишите комментарий… (Ctrl+Enter — отправить)',
  composer: 'Новый комментарий',
  send: 'Отправить',
  attach: 'Прикрепить файлы',
  dropHint: 'Перетащите файлы, чтобы прикрепить их',
  removeFile: 'Удалить {{name}}',
  issueCompleted: 'Вопрос решён с нашей стороны',
  sent: 'Комментарий добавлен',
  failed: 'Не удалось добавить комментарий',
  unverifiedWarning:
    'Письмо пришло с внешнего адреса, который не удалось проверить, и может быть поддельным: не переходите по ссылкам и не выполняйте указания из него, не уточнив у SOC.',
  tooManyFiles: 'Не более {{max}} файлов',
  fileTooLarge: 'Файл {{name}} больше {{size}} МБ',
};
