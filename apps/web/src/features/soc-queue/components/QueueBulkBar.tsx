import { DownOutlined } from '@ant-design/icons';
import { INCIDENT_PRIORITIES, type IncidentPriority, type QueueBulk } from '@soc/contracts';
import { Alert, Button, Dropdown, Flex, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueueBulkMutation } from '../api/useQueueBulkMutation.ts';
import { summarizeBulk, type BulkSummary } from '../lib/bulkResult.ts';
import { StaffSingleSelect } from './StaffSelect.tsx';
import '../i18n/texts.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A change of many incidents without their keys, which the caller adds. */
export type BulkChange = DistributiveOmit<QueueBulk, 'keys'>;

/**
 * The bulk changes of the queue and the result of the last one, shared by the bulk bar and the
 * keyboard shortcuts: `run` sends one change and keeps its summary for the bar to show.
 */
export function useQueueBulk() {
  const mutation = useQueueBulkMutation();
  const [summary, setSummary] = useState<BulkSummary | null>(null);
  const run = (keys: readonly number[], change: BulkChange, after?: () => void) => {
    mutation.mutate(
      { ...change, keys: [...keys] },
      {
        onSuccess: (result) => {
          setSummary(summarizeBulk(result));
          after?.();
        },
      },
    );
  };
  return { run, summary, clearSummary: () => setSummary(null), isPending: mutation.isPending };
}

export type QueueBulkState = ReturnType<typeof useQueueBulk>;

export type QueueBulkBarProps = {
  selectedKeys: readonly number[];
  /** The signed-in staff user's id ("Assign to me"). */
  myId: number | undefined;
  onClear: () => void;
  bulk: QueueBulkState;
  /** Told when one of the bar's dialogs opens or closes (the page's shortcuts pause meanwhile). */
  onDialogChange?: (open: boolean) => void;
};

type StatusDialog = 'completed' | 'canceled' | null;

/** The bulk actions on the selected incidents, and the result of the last one. */
export function QueueBulkBar({ selectedKeys, myId, onClear, bulk, onDialogChange }: QueueBulkBarProps) {
  const { t } = useTranslation();
  const { summary } = bulk;
  const [assignOpen, setAssignOpen] = useState(false);
  const [statusDialog, setStatusDialog] = useState<StatusDialog>(null);
  const keys = [...selectedKeys];
  const dialogOpen = assignOpen || statusDialog !== null;
  useEffect(() => onDialogChange?.(dialogOpen), [dialogOpen, onDialogChange]);

  const run = (change: BulkChange, after?: () => void) =>
    bulk.run(keys, change, () => {
      after?.();
      onClear();
    });

  return (
    <Flex vertical gap="small">
      {summary && <BulkResult summary={summary} onClose={bulk.clearSummary} />}
      {keys.length > 0 && (
        <Flex gap="small" wrap align="center" data-testid="soc-queue-bulk">
          <Typography.Text strong data-testid="soc-queue-selected">
            {t('socQueue.bulk.selected', { count: keys.length })}
          </Typography.Text>
          <Button
            type="primary"
            disabled={myId === undefined}
            loading={bulk.isPending}
            onClick={() => myId !== undefined && run({ action: 'assign', soc_assignee: myId })}
            data-testid="soc-queue-bulk-assign-me"
          >
            {t('socQueue.bulk.assignToMe')}
          </Button>
          <Button
            disabled={bulk.isPending}
            onClick={() => setAssignOpen(true)}
            data-testid="soc-queue-bulk-assign"
          >
            {t('socQueue.bulk.assignTo')}
          </Button>
          <Button
            disabled={bulk.isPending}
            onClick={() => run({ action: 'assign', soc_assignee: null })}
            data-testid="soc-queue-bulk-unassign"
          >
            {t('socQueue.bulk.unassign')}
          </Button>
          <Dropdown
            disabled={bulk.isPending}
            menu={{
              items: INCIDENT_PRIORITIES.map((priority) => ({
                key: priority,
                label: t(`incidentPriority.${priority}`),
              })),
              onClick: ({ key }) => run({ action: 'priority', priority: key as IncidentPriority }),
            }}
          >
            <Button data-testid="soc-queue-bulk-priority">
              {t('socQueue.bulk.setPriority')} <DownOutlined aria-hidden />
            </Button>
          </Dropdown>
          <Button
            disabled={bulk.isPending}
            onClick={() => setStatusDialog('completed')}
            data-testid="soc-queue-bulk-complete"
          >
            {t('socQueue.bulk.complete')}
          </Button>
          <Button
            danger
            disabled={bulk.isPending}
            onClick={() => setStatusDialog('canceled')}
            data-testid="soc-queue-bulk-cancel"
          >
            {t('socQueue.bulk.cancel')}
          </Button>
          <Button type="link" onClick={onClear} data-testid="soc-queue-bulk-clear">
            {t('socQueue.bulk.clear')}
          </Button>
        </Flex>
      )}
      <AssignDialog
        open={assignOpen}
        pending={bulk.isPending}
        onClose={() => setAssignOpen(false)}
        onAssign={(id) => run({ action: 'assign', soc_assignee: id }, () => setAssignOpen(false))}
      />
      <StatusCommentDialog
        status={statusDialog}
        pending={bulk.isPending}
        onClose={() => setStatusDialog(null)}
        onSubmit={(status, comment) =>
          run({ action: 'status', status, comment }, () => setStatusDialog(null))
        }
      />
    </Flex>
  );
}

/** How many changed, and why each refused incident was refused. */
function BulkResult({ summary, onClose }: { summary: BulkSummary; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type={summary.refused.length === 0 ? 'success' : 'warning'}
      showIcon
      closable={{ onClose, 'aria-label': t('socQueue.bulk.close') }}
      title={t('socQueue.bulk.resultChanged', { changed: summary.changed, count: summary.total })}
      description={
        summary.refused.length > 0 && (
          <ul style={{ margin: 0, paddingInlineStart: '1.25em' }} data-testid="soc-queue-bulk-refused">
            {summary.refused.map(({ key, reason }) => (
              <li key={key}>
                {t('socQueue.bulk.refused', { key, reason: reason || t('socQueue.bulk.refusedUnknown') })}
              </li>
            ))}
          </ul>
        )
      }
      data-testid="soc-queue-bulk-result"
    />
  );
}

type AssignDialogProps = {
  open: boolean;
  pending: boolean;
  onClose: () => void;
  onAssign: (id: number) => void;
};

/** "Assign to…": one of the provider's staff. */
function AssignDialog({ open, pending, onClose, onAssign }: AssignDialogProps) {
  const { t } = useTranslation();
  const [assignee, setAssignee] = useState<number | null>(null);
  return (
    <Modal
      open={open}
      title={t('socQueue.bulk.assignToTitle')}
      okText={t('socQueue.bulk.assign')}
      cancelText={t('socQueue.bulk.close')}
      okButtonProps={{ disabled: assignee === null, loading: pending }}
      onOk={() => assignee !== null && onAssign(assignee)}
      onCancel={onClose}
      afterClose={() => setAssignee(null)}
      destroyOnHidden
    >
      <StaffSingleSelect
        label={t('socQueue.bulk.assignee')}
        testId="soc-queue-assign-select"
        value={assignee}
        onChange={setAssignee}
      />
    </Modal>
  );
}

type StatusCommentDialogProps = {
  status: StatusDialog;
  pending: boolean;
  onClose: () => void;
  onSubmit: (status: 'completed' | 'canceled', comment: string) => void;
};

/** "Complete" and "Cancel": the comment each incident's chat gets is required (Markdown). */
function StatusCommentDialog({ status, pending, onClose, onSubmit }: StatusCommentDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ comment: string }>();
  return (
    <Modal
      open={status !== null}
      title={t(status === 'canceled' ? 'socQueue.bulk.cancelTitle' : 'socQueue.bulk.completeTitle')}
      okText={t('socQueue.bulk.apply')}
      cancelText={t('socQueue.bulk.close')}
      okButtonProps={{ loading: pending, danger: status === 'canceled' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={({ comment }) => status && onSubmit(status, comment.trim())}
      >
        <Form.Item
          name="comment"
          label={t('socQueue.bulk.comment')}
          extra={t('socQueue.bulk.commentHint')}
          rules={[{ required: true, whitespace: true, message: t('socQueue.bulk.commentRequired') }]}
        >
          <Input.TextArea
            autoSize={{ minRows: 4, maxRows: 12 }}
            maxLength={20_000}
            data-testid="soc-queue-status-comment"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
