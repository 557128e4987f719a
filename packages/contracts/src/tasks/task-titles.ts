import type { Language } from '../common/query.ts';

/*
 * The codes and titles of service requests, without schemas: the web app's language packs import
 * these titles, and a module with zod schemas would bring its whole graph into the start-up code.
 */

/**
 * Request issue types of service requests (product §A9): the codes the API uses. Titles in both
 * languages are in TASK_TYPE_TITLES (shared by the web catalogs and the server's e-mails).
 */
export const TASK_TYPES = [
  'rule_development',
  'portal_problems',
  'event_source_question',
  'use_case_development',
  'question',
  'other',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export const TASK_TYPE_TITLES: Record<Language, Record<TaskType, string>> = {
  en: {
    rule_development: 'Rule Development',
    portal_problems: 'Portal Problems',
    event_source_question: 'Event Source Question',
    use_case_development: 'Use Case Development',
    question: 'Question',
    other: 'Other',
  },
  ru: {
    rule_development: 'Разработка правила',
    portal_problems: 'Проблемы с порталом',
    event_source_question: 'Вопрос по источнику событий',
    use_case_development: 'Разработка сценария (use case)',
    question: 'Вопрос',
    other: 'Другое',
  },
};

/** Task statuses in workflow order. */
export const TASK_STATUSES = ['open', 'in_progress', 'waiting_for_customer', 'resolved', 'closed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_STATUS_TITLES: Record<Language, Record<TaskStatus, string>> = {
  en: {
    open: 'Open',
    in_progress: 'In progress',
    waiting_for_customer: 'Waiting for customer',
    resolved: 'Resolved',
    closed: 'Closed',
  },
  ru: {
    open: 'Открыта',
    in_progress: 'В работе',
    waiting_for_customer: 'Ожидает ответа клиента',
    resolved: 'Решена',
    closed: 'Закрыта',
  },
};
