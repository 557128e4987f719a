import type { apiTokensEn } from './en.ts';

/** Тексты раздела личных API-токенов профиля (issue 13). */
export const apiTokensRu: typeof apiTokensEn = {
  title: 'API-токены',
  intro:
    'Личные токены позволяют вашим скриптам читать данные портала от вашего имени (только чтение). Передавайте токен в заголовке Authorization: Bearer <токен>.',
  name: 'Название',
  namePlaceholder: 'например, ночная выгрузка',
  nameRequired: 'Введите название',
  expires: 'Действует до',
  expiresPlaceholder: 'Бессрочно',
  create: 'Создать токен',
  created: 'Токен создан',
  createFailed: 'Не удалось создать токен',
  showOnce: 'Скопируйте токен сейчас: больше он показан не будет.',
  copied: 'Скопировано',
  done: 'Готово',
  columns: {
    name: 'Название',
    token: 'Токен',
    created: 'Создан',
    lastUsed: 'Последнее использование',
    expires: 'Действует до',
    actions: 'Действия',
  },
  never: 'Бессрочно',
  notUsed: 'Ещё не использовался',
  revoke: 'Отозвать',
  revokeConfirm: 'Отозвать токен «{{name}}»? Скрипты, которые его используют, сразу перестанут работать.',
  revoked: 'Токен отозван',
  empty: 'Нет токенов',
  loadFailed: 'Не удалось загрузить ваши API-токены',
  pagination: '{{low}}-{{high}} из {{total}}',
};
