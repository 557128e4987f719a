import {
  TASK_PRIORITIES,
  TASK_SUBJECT_MAX,
  TASK_TYPES,
  type TaskDetail,
  type TaskPriority,
  type TaskType,
} from '@soc/contracts';
import { Flex, Form, Input, Modal, Progress, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, mapFieldErrors, notifyApiError } from '@/shared/api/index.ts';
import { formatPercent } from '@/shared/lib/formatNumber.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { useSystemChoicesQuery } from '@/shared/api/systems.ts';
import { AttachmentsInput } from '@/shared/ui/AttachmentsInput.tsx';
import { attachmentProblems, unsafeNameText } from '@/shared/lib/attachments.ts';
import { useCreateTaskMutation } from '../api/useCreateTaskMutation.ts';
import '../i18n/texts.ts';

type Values = {
  type?: TaskType;
  system?: number;
  subject?: string;
  description?: string;
  priority: TaskPriority;
  attachments?: File[];
};
type Field = keyof Values;

const SERVER_FIELDS: Record<string, Field> = {
  type: 'type',
  system: 'system',
  subject: 'subject',
  description: 'description',
  priority: 'priority',
  attachments: 'attachments',
};

export type CreateTaskModalProps = {
  open: boolean;
  onClose: () => void;
  /** The task has been created (with its files). */
  onCreated: (task: TaskDetail) => void;
};

/**
 * Opens a service request (POST /soc/tasks/ with its files in one multipart request): type,
 * system, subject, description, priority, attachments. Server field messages show under their
 * fields; the modal cannot be dismissed while the request is under way.
 */
export function CreateTaskModal({ open, onClose, onCreated }: CreateTaskModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const mutation = useCreateTaskMutation();
  const systems = useSystemChoicesQuery();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [percent, setPercent] = useState<number | null>(null);
  const busy = mutation.isPending;
  const required = { required: true, message: t('tasks.create.required') };

  const submit = async (values: Values) => {
    setFormErrors([]);
    setPercent((values.attachments ?? []).length > 0 ? 0 : null);
    try {
      const task = await mutation.mutateAsync({
        fields: {
          type: values.type!,
          system: values.system!,
          subject: values.subject ?? '',
          description: values.description ?? '',
          priority: values.priority,
        },
        files: values.attachments ?? [],
        onProgress: (progress) => setPercent(progress.percent),
      });
      notifySuccess({ title: t('tasks.create.success', { id: task.id }) });
      onCreated(task);
      onClose();
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (!fieldErrors) {
        notifyApiError(error, t('tasks.create.failed'));
        return;
      }
      const mapped = mapFieldErrors(fieldErrors, SERVER_FIELDS);
      form.setFields(mapped.fields);
      setFormErrors(mapped.formErrors);
    } finally {
      setPercent(null);
    }
  };

  const systemOptions = (systems.data ?? []).map((s) => ({
    value: s.id,
    label: `${s.is_id} · ${s.full_name}`,
  }));
  const onlySystem = systemOptions.length === 1 ? systemOptions[0]!.value : undefined;
  // A customer of one system has nothing to choose (the list may arrive after the form opened).
  useEffect(() => {
    if (open && onlySystem !== undefined && form.getFieldValue('system') === undefined) {
      form.setFieldValue('system', onlySystem);
    }
  }, [open, onlySystem, form]);

  return (
    <Modal
      open={open}
      title={t('tasks.create.title')}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: !busy }}
      keyboard={!busy}
      width="min(48rem, 90vw)"
      okText={t('tasks.create.submit')}
      cancelText={t('tasks.create.cancel')}
      okButtonProps={{ loading: busy, 'data-testid': 'create-task-submit' }}
      cancelButtonProps={{ disabled: busy }}
      onOk={() => form.submit()}
      afterClose={() => {
        form.resetFields();
        setFormErrors([]);
      }}
      modalRender={(node) => <div data-testid="create-task-modal">{node}</div>}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        disabled={busy}
        initialValues={{
          priority: 'medium',
          system: onlySystem,
        }}
        onFinish={(values) => void submit(values)}
      >
        <FormErrorAlert messages={formErrors} testId="create-task-errors" />
        <Flex gap="middle">
          <Form.Item name="type" label={t('tasks.create.type')} rules={[required]} style={{ flex: 1 }}>
            <Select
              data-testid="create-task-type"
              options={TASK_TYPES.map((type) => ({ value: type, label: t(`tasks.types.${type}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="priority"
            label={t('tasks.create.priority')}
            rules={[required]}
            style={{ flex: 1 }}
          >
            <Select
              data-testid="create-task-priority"
              options={TASK_PRIORITIES.map((p) => ({ value: p, label: t(`tasks.priorities.${p}`) }))}
            />
          </Form.Item>
        </Flex>
        <Form.Item name="system" label={t('tasks.create.system')} rules={[required]}>
          <Select data-testid="create-task-system" loading={systems.isLoading} options={systemOptions} />
        </Form.Item>
        <Form.Item
          name="subject"
          label={t('tasks.create.subject')}
          rules={[
            { ...required, whitespace: true },
            { max: TASK_SUBJECT_MAX, message: t('tasks.create.subjectTooLong', { max: TASK_SUBJECT_MAX }) },
          ]}
        >
          <Input data-testid="create-task-subject" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('tasks.create.description')}
          extra={t('tasks.create.descriptionHint')}
          rules={[{ ...required, whitespace: true }]}
        >
          <Input.TextArea rows={6} data-testid="create-task-description" />
        </Form.Item>
        <Form.Item
          name="attachments"
          label={t('tasks.create.attachments')}
          rules={[
            {
              validator: (_, files: File[] | undefined) => {
                const problem = attachmentProblems(files ?? [])[0];
                if (!problem) return Promise.resolve();
                return Promise.reject(
                  new Error(
                    problem.kind === 'unsafe-name'
                      ? unsafeNameText(t, problem)
                      : problem.kind === 'too-many'
                        ? t('tasks.create.tooManyFiles', { max: problem.max })
                        : t('tasks.create.fileTooLarge', { name: problem.name, size: problem.maxMb }),
                  ),
                );
              },
            },
          ]}
        >
          <AttachmentsInput />
        </Form.Item>
        {percent !== null && (
          <Flex vertical>
            <Typography.Text>
              {t('tasks.create.uploading', { percent: formatPercent(percent) })}
            </Typography.Text>
            <Progress percent={percent} showInfo={false} aria-label={t('tasks.create.attachments')} />
          </Flex>
        )}
      </Form>
    </Modal>
  );
}
