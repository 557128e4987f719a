/** Query keys of the tasks area (one factory, `as const`). */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (filters: string) => [...taskKeys.lists(), filters] as const,
  task: (id: number) => [...taskKeys.all, 'task', id] as const,
  detail: (id: number) => [...taskKeys.task(id), 'detail'] as const,
  messages: (id: number) => [...taskKeys.task(id), 'messages'] as const,
};
