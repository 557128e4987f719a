import { z } from 'zod';
import { pageOf } from '../common/lists.schemas.ts';
import { csvList, queryId, queryMillis, searchText } from '../common/query.ts';
import { CommentCreateFieldsSchema } from '../incidents/incident-card.schemas.ts';
import {
  AttachmentSchema,
  CUSTOMER_PRIORITIES,
  INCIDENT_SUMMARY_MAX,
  SystemOptionSchema,
} from '../incidents/incidents.schemas.ts';

import { TASK_STATUSES, TASK_TYPES, type TaskType } from './task-titles.ts';

const millis = z.number().int();

export const TaskTypeSchema = z.enum(TASK_TYPES);
export const TaskStatusSchema = z.enum(TASK_STATUSES);

/** Priorities a customer may give a request (the create-incident set, product §A4). */
export const TASK_PRIORITIES = CUSTOMER_PRIORITIES;
export const TaskPrioritySchema = z.enum(TASK_PRIORITIES);
export type TaskPriority = z.infer<typeof TaskPrioritySchema>;

/** Task list page size (the infinite list fetches this many at a time). */
export const TASKS_PAGE_SIZE = 40;
export const TASK_SUBJECT_MAX = INCIDENT_SUMMARY_MAX;
export const TASK_DESCRIPTION_MAX = 100_000;

/**
 * The web route of tasks (product §A2: /issues/issues/task with the parameters model, type and
 * an optional id). Without `id` it is the task list; with it, the task page.
 */
export const TASKS_ROUTE = '/issues/issues/task';
/** `model` of a task link: a service request. */
export const TASK_MODEL = 'request';
export const taskPath = (task: { id: number; type: TaskType }): string =>
  `${TASKS_ROUTE}?${new URLSearchParams({ model: TASK_MODEL, type: task.type, id: String(task.id) }).toString()}`;

export const TASK_ORDERINGS = [
  '-updated',
  'updated',
  '-created',
  'created',
  '-priority',
  'priority',
  'status',
  '-status',
] as const;
export const TaskOrderingSchema = z.enum(TASK_ORDERINGS);
export type TaskOrdering = z.infer<typeof TaskOrderingSchema>;
export const DEFAULT_TASK_ORDERING: TaskOrdering = '-updated';

/** The filters of GET /soc/tasks/ (also what the web list keeps in its URL). */
export const TaskFiltersShape = {
  /** Trimmed; matches the subject, the description or the number. */
  search: searchText.optional(),
  status__in: csvList(TaskStatusSchema).optional(),
  type__in: csvList(TaskTypeSchema).optional(),
  priority__in: csvList(TaskPrioritySchema).optional(),
  system__in: csvList(queryId).optional(),
  created__gte: queryMillis.optional(),
  created__lte: queryMillis.optional(),
};

/** GET /soc/tasks/ */
export const TaskListQuerySchema = z.strictObject({
  ...TaskFiltersShape,
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(TASKS_PAGE_SIZE),
  ordering: TaskOrderingSchema.default(DEFAULT_TASK_ORDERING),
});
export type TaskListQuery = z.infer<typeof TaskListQuerySchema>;

/** A task as the list shows it. */
export const TaskSchema = z.object({
  id: z.number().int(),
  type: TaskTypeSchema,
  subject: z.string(),
  status: TaskStatusSchema,
  priority: TaskPrioritySchema,
  system: SystemOptionSchema,
  /** Display name of the customer user who opened it. */
  author: z.string(),
  author_id: z.number().int().nullable(),
  created: millis,
  updated: millis,
  /** Chat messages so far. */
  messages_count: z.number().int().nonnegative(),
  /** The latest message came from the SOC (the customer has something to read). */
  last_from_soc: z.boolean(),
});
export type Task = z.infer<typeof TaskSchema>;
export const TaskListResponseSchema = pageOf(TaskSchema);
export type TaskListResponse = z.infer<typeof TaskListResponseSchema>;

/** GET /soc/tasks/{id}/ */
export const TaskDetailSchema = TaskSchema.extend({
  /** Sanitised HTML of the description (Markdown source). */
  rendered_description: z.string(),
  /** Files attached when the task was opened. */
  attachments: z.array(AttachmentSchema),
  /** Statuses the caller may set now (POST /soc/tasks/{id}/status/). */
  available_statuses: z.array(TaskStatusSchema),
});
export type TaskDetail = z.infer<typeof TaskDetailSchema>;

export const TaskIdParamsSchema = z.strictObject({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53),
});

/**
 * POST /soc/tasks/ as multipart/form-data: these text fields and `attachments` (0–10 files,
 * 50 MB each, the comment rules).
 */
export const TaskCreateFieldsSchema = z.strictObject({
  /** Id of one of the caller's systems. */
  system: z.coerce.number({ error: 'This field is required.' }).int().positive(),
  type: TaskTypeSchema,
  subject: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, { error: 'This field may not be blank.' })
    .max(TASK_SUBJECT_MAX, { error: `Ensure this field has no more than ${TASK_SUBJECT_MAX} characters.` }),
  description: z
    .string({ error: 'This field is required.' })
    .trim()
    .min(1, { error: 'This field may not be blank.' })
    .max(TASK_DESCRIPTION_MAX, {
      error: `Ensure this field has no more than ${TASK_DESCRIPTION_MAX} characters.`,
    }),
  priority: TaskPrioritySchema.default('medium'),
});
export type TaskCreateFields = z.input<typeof TaskCreateFieldsSchema>;

/** POST /soc/tasks/{id}/messages/ as multipart: `body` (Markdown) and `attachments`. */
export const TaskMessageCreateFieldsSchema = CommentCreateFieldsSchema.omit({ issue_completed: true });

/** POST /soc/tasks/{id}/status/ */
export const TaskStatusPayloadSchema = z.strictObject({ status: TaskStatusSchema });
export type TaskStatusPayload = z.infer<typeof TaskStatusPayloadSchema>;
