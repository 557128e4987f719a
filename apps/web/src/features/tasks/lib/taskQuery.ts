import {
  DEFAULT_TASK_ORDERING,
  TaskFiltersShape,
  TaskOrderingSchema,
  type TaskOrdering,
} from '@soc/contracts';
import type { QueryParams } from '../../../shared/api/index.ts';
import {
  readListParam,
  sanitizeFilterParams,
  withFilterParams,
  type FilterParamValue,
} from '../../../shared/lib/filters.ts';

/** The entity under which the task list's filters are stored (DESIGN §7). */
export const TASKS_FILTER_ENTITY = 'tasks';

/** A parameter of the task list's query string: a filter, `search` or `ordering`. */
export type TaskParam = keyof typeof TaskFiltersShape | 'ordering';

const PARAM_SCHEMAS = new Map<string, { safeParse(value: unknown): { success: boolean } }>([
  ...Object.entries(TaskFiltersShape),
  ['ordering', TaskOrderingSchema],
]);

/** Keeps the known parameters with values the contract accepts (a stale URL must not give a 400). */
export const sanitizeTaskParams = (params: URLSearchParams): URLSearchParams =>
  sanitizeFilterParams(params, (key) => PARAM_SCHEMAS.get(key));

export const readTaskList = (params: URLSearchParams, key: TaskParam): string[] => readListParam(params, key);

export function readTaskOrdering(params: URLSearchParams): TaskOrdering {
  const parsed = TaskOrderingSchema.safeParse(params.get('ordering'));
  return parsed.success ? parsed.data : DEFAULT_TASK_ORDERING;
}

export const withTaskParams = (
  params: URLSearchParams,
  changes: Partial<Record<TaskParam, FilterParamValue>>,
): URLSearchParams => withFilterParams(params, changes, DEFAULT_TASK_ORDERING);

/** GET /soc/tasks/ query: the filters with the ordering in effect. */
export const taskApiQuery = (params: URLSearchParams): QueryParams => ({
  ...Object.fromEntries(params),
  ordering: readTaskOrdering(params),
});
