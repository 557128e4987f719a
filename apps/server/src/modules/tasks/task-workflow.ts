import type { Role, TaskStatus } from '@soc/contracts';
import { TASK_STATUSES } from '@soc/contracts';

/**
 * Statuses a user may set on a task. Analysts move a task anywhere; a customer closes an
 * unfinished task, or reopens a resolved or closed one.
 */
export function availableStatuses(role: Role, status: TaskStatus): TaskStatus[] {
  if (role !== 'customer') return TASK_STATUSES.filter((s) => s !== status);
  if (status === 'resolved') return ['open', 'closed'];
  if (status === 'closed') return ['open'];
  return ['closed'];
}

/**
 * The status after a chat message: the SOC's first answer starts the work; the customer's
 * answer hands a waiting task back to the SOC and reopens a resolved one. Null: unchanged.
 */
export function statusAfterMessage(status: TaskStatus, fromSoc: boolean): TaskStatus | null {
  if (fromSoc) return status === 'open' ? 'in_progress' : null;
  if (status === 'waiting_for_customer') return 'in_progress';
  if (status === 'resolved') return 'open';
  return null;
}
