import type { Language } from '../common/query.ts';
import type { IncidentPriority, IncidentStatus } from './incidents.schemas.ts';

/** Titles of incident statuses, shared by the web catalogs and server-made files (CSV, reports). */
export const INCIDENT_STATUS_TITLES: Record<Language, Record<IncidentStatus, string>> = {
  en: {
    waiting_for_customer: 'Waiting for customer',
    waiting_for_support: 'Waiting for support',
    work_in_progress: 'Work in progress',
    customer_completed: 'Customer completed',
    completed: 'Completed',
    closed: 'Closed',
    canceled: 'Canceled',
  },
  ru: {
    waiting_for_customer: 'Ожидает ответа клиента',
    waiting_for_support: 'Ожидает ответа поддержки',
    work_in_progress: 'В работе',
    customer_completed: 'Завершён клиентом',
    completed: 'Завершён',
    closed: 'Закрыт',
    canceled: 'Отменён',
  },
};

/** Titles of incident priorities (see INCIDENT_STATUS_TITLES). */
export const INCIDENT_PRIORITY_TITLES: Record<Language, Record<IncidentPriority, string>> = {
  en: { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' },
  ru: { critical: 'Критический', high: 'Высокий', medium: 'Средний', low: 'Низкий' },
};
