import {
  DEFAULT_TASK_ORDERING,
  TaskFiltersShape,
  TaskOrderingSchema,
  type TaskOrdering,
} from '@soc/contracts';
import { listQueryParams } from '@/shared/lib/filters.ts';

/** The entity under which the task list's filters are stored (design §7). */
export const TASKS_FILTER_ENTITY = 'tasks';

/** A parameter of the task list's query string: a filter, `search` or `ordering`. */
export type TaskParam = keyof typeof TaskFiltersShape | 'ordering';

const query = listQueryParams<TaskParam, TaskOrdering>(
  TaskFiltersShape,
  TaskOrderingSchema,
  DEFAULT_TASK_ORDERING,
);

export const sanitizeTaskParams = query.sanitize;
export const readTaskList = query.readList;
export const readTaskOrdering = query.readOrdering;
export const withTaskParams = query.withParams;
/** GET /soc/tasks/ query: the filters with the ordering in effect. */
export const taskApiQuery = query.apiQuery;
