import type { inboxEn } from './en.ts';

/** Тексты центра уведомлений (issue 40); подпись колокольчика — в `header` оболочки. */
export const inboxRu: typeof inboxEn = {
  title: 'Уведомления',
  markAllRead: 'Прочитать все',
  markFailed: 'Не удалось отметить уведомления прочитанными',
  loadFailed: 'Не удалось загрузить уведомления',
  empty: 'Уведомлений пока нет',
  emptyUnread: 'Нет непрочитанных уведомлений',
  unreadOnly: 'Только непрочитанные',
  loadMore: 'Показать ещё',
  unread: 'Не прочитано',
  settings: 'Настройки уведомлений',
  kind: {
    incident_created: 'Новый инцидент №{{key}}',
    status_changed: 'Инцидент №{{key}}: статус изменён на «{{status}}»',
    status_changed_unknown: 'Инцидент №{{key}}: статус изменён',
    comment: 'Новый комментарий к инциденту №{{key}}',
    report_ready: 'Отчёт готов',
    task_answer: 'SOC ответил на заявку №{{id}}',
  },
};
