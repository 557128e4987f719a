import type { apiTokensEn } from './en.ts';

/** Тексты раздела личных API-токенов профиля (issue 13). */
export const apiTokensRu: typeof apiTokensEn = {
  title: 'API-токены',
  intro:
    'Личные токены позволяют вашим скриптам читать данные портала от вашего имени (только чтение). Передавайте токен в заголовке Authorization: Bearer <токен>. Токен действует до выбранной даты (по умолчанию 90 дней, не более года) и отзывается при смене или сбросе вашего пароля.',
  name: 'Название',
  namePlaceholder: 'например, ночная выгрузка',
  nameRequired: 'Введите название',
  password: 'Ваш пароль',
  passwordRequired: 'Введите текущий пароль',
  expires: 'Действует до',
  expiresPlaceholder: 'Выберите дату',
  expiresRequired: 'Выберите дату окончания действия',
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
  pagination: '{{low, number}}-{{high, number}} из {{total, number}}',
};
