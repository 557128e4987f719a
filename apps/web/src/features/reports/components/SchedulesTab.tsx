import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { ReportTask } from '@soc/contracts';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Popconfirm,
  Spin,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useDeleteReportTaskMutation } from '../api/useDeleteReportTaskMutation.ts';
import { useReportTasksInfiniteQuery } from '../api/useReportTasksInfiniteQuery.ts';
import { fromStartTime, periodLabel } from '../lib/schedule.ts';
import { ReportFormModal } from './ReportFormModal.tsx';
import '../i18n/texts.ts';

/**
 * Schedules tab (product §B2): cards in an infinite-scroll list with name, periodicity, start
 * time, systems and recipients. A click selects a card; the selected one shows edit and delete.
 */
export function SchedulesTab() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const query = useReportTasksInfiniteQuery();
  const remove = useDeleteReportTaskMutation();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [editing, setEditing] = useState<ReportTask | null>(null);
  const [creating, setCreating] = useState(false);
  const tasks = useMemo(() => query.data?.pages.flatMap((p) => p.results) ?? [], [query.data]);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const header = (
    <Flex align="center" justify="space-between" gap="small">
      <Typography.Title level={2} style={{ margin: 0 }}>
        {t('reports.schedules.title')}
      </Typography.Title>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => setCreating(true)}
        data-testid="schedules-create"
      >
        {t('reports.schedules.create')}
      </Button>
    </Flex>
  );
  const createModal = (
    <ReportFormModal open={creating} defaultPeriod="everyWeek" onClose={() => setCreating(false)} />
  );

  if (query.isLoading) return <Spin />;
  if (query.isError && !query.data) {
    return (
      <Flex vertical gap="middle">
        {header}
        <Alert
          type="error"
          showIcon
          title={t('reports.schedules.loadFailed')}
          action={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
        />
        {createModal}
      </Flex>
    );
  }

  return (
    <Flex vertical gap="middle">
      {header}
      {tasks.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('reports.schedules.empty')}
          data-testid="schedules-empty"
        />
      ) : (
        <Flex wrap gap="middle">
          {tasks.map((task) => {
            const selected = task.id === selectedId;
            const start = fromStartTime(task.start_time);
            return (
              <Card
                key={task.id}
                hoverable
                size="small"
                style={{
                  width: 380,
                  maxWidth: '100%',
                  borderColor: selected ? token.colorPrimary : undefined,
                }}
                onClick={() => setSelectedId(task.id)}
                data-testid="schedule-card"
                data-selected={selected}
                title={task.name}
                extra={
                  selected && (
                    <Flex gap="small" onClick={(e) => e.stopPropagation()}>
                      <Tooltip title={t('reports.schedules.edit')}>
                        <Button
                          size="small"
                          icon={<EditOutlined />}
                          aria-label={t('reports.schedules.edit')}
                          onClick={() => setEditing(task)}
                          data-testid="schedule-edit"
                        />
                      </Tooltip>
                      <Popconfirm
                        title={t('reports.schedules.deleteConfirm', { name: task.name })}
                        okText={t('reports.list.yes')}
                        cancelText={t('reports.list.no')}
                        onConfirm={() =>
                          remove.mutate(task.id, {
                            onSuccess: () => {
                              setSelectedId(null);
                              notifySuccess({ title: t('reports.notices.scheduleDeleted') });
                            },
                          })
                        }
                      >
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('reports.schedules.delete')}
                          data-testid="schedule-delete"
                        />
                      </Popconfirm>
                    </Flex>
                  )
                }
              >
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label={t('reports.schedules.periodicity')}>
                    {periodLabel(t, task.crontab)}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('reports.schedules.startTime')}>
                    {start ? formatDateTime(start.valueOf()) : task.start_time}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('reports.schedules.systems')}>
                    {task.systems.join(', ') || t('reports.schedules.allSystems')}
                  </Descriptions.Item>
                  <Descriptions.Item label={t('reports.schedules.recipients')}>
                    {task.emails.join(', ')}
                  </Descriptions.Item>
                </Descriptions>
              </Card>
            );
          })}
        </Flex>
      )}
      <div ref={sentinelRef} style={{ height: 1 }} />
      {isFetchingNextPage && <Spin />}
      <ReportFormModal
        key={editing?.id ?? 'none'}
        open={editing !== null}
        task={editing}
        onClose={() => setEditing(null)}
      />
      {createModal}
    </Flex>
  );
}
