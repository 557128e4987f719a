import { useParams, useSearchParams } from 'react-router';
import { TaskPage } from './TaskPage.tsx';
import { TasksPage } from './TasksPage.tsx';

const taskId = (text: string | null | undefined): number | null =>
  text && /^\d{1,15}$/.test(text) && Number(text) > 0 ? Number(text) : null;

/**
 * /issues/issues/task (product §A2: parameters model, type and an optional id): with an id
 * (`?id=` or a trailing path segment) the task page, otherwise the task list.
 */
export function TasksRoutePage() {
  const { id: pathId } = useParams();
  const [search] = useSearchParams();
  const id = taskId(pathId) ?? taskId(search.get('id'));
  return id === null ? <TasksPage /> : <TaskPage key={id} taskId={id} />;
}
