import type { ReportPeriod, ReportTask, ReportTaskUpdate, SchedulePeriod } from '@soc/contracts';
import {
  DEFAULT_REPORT_TIME_ZONE,
  REPORT_MODAL_WIDTH,
  REPORT_PERIODS,
  SCHEDULE_PERIODS,
  crontabFromPeriod,
  periodFromCrontab,
  splitRecipients,
} from '@soc/contracts';
import { Alert, Button, Form, Input, Modal, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/shared/api/index.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useCreateReportMutation } from '../api/useCreateReportMutation.ts';
import { useSaveReportTaskMutation } from '../api/useSaveReportTaskMutation.ts';
import { useRecipientRulesQuery } from '../api/useRecipientRulesQuery.ts';
import { useSystemCodeChoicesQuery } from '@/shared/api/systems.ts';
import { useCurrentUserQuery } from '@/features/auth/index.ts';
import {
  fromStartTime,
  invalidRecipients,
  rangePresets,
  scheduleInfo,
  toDmy,
  toStartTime,
} from '../lib/schedule.ts';
import '../i18n/texts.ts';
import { DateInput, DateRangeInput } from '@/shared/ui/DateInputs.tsx';

interface FormValues {
  name: string;
  systems: string[];
  period: ReportPeriod;
  start: Dayjs | null;
  range: [Dayjs, Dayjs] | null;
  emails: string;
}

export interface ReportFormModalProps {
  open: boolean;
  /** The schedule being edited; absent: the create-report modal. */
  task?: ReportTask | null;
  onClose: () => void;
  /** A one-off report was ordered (the list then looks for it until it is built). */
  onOrdered?: () => void;
  /** The periodicity a new form starts with: a one-off report unless the caller asks for a schedule. */
  defaultPeriod?: ReportPeriod;
}

/** The first message of an answer's `__all__` (product §B8), else its description. */
function firstMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : undefined;
  const fields = error.fieldErrors;
  return fields?.__all__?.[0] ?? error.detail ?? (fields ? Object.values(fields).flat()[0] : undefined);
}

/**
 * Create report modal (product §B2, §B5; width 720) and, with `task`, the edit schedule form (the
 * same fields without forPeriod). Closing resets the form and every selection.
 */
export function ReportFormModal({
  open,
  task,
  onClose,
  onOrdered,
  defaultPeriod = 'forPeriod',
}: ReportFormModalProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const editing = Boolean(task);
  const [form] = Form.useForm<FormValues>();
  const [hasErrors, setHasErrors] = useState(false);
  const [systemsTouched, setSystemsTouched] = useState(false);
  const systems = useSystemCodeChoicesQuery();
  const me = useCurrentUserQuery();
  const createReport = useCreateReportMutation();
  const saveTask = useSaveReportTaskMutation();
  const period = Form.useWatch('period', form) ?? (editing ? 'everyDay' : defaultPeriod);
  const start = Form.useWatch('start', form) ?? null;
  const range = Form.useWatch('range', form) ?? null;
  const chosenSystems = Form.useWatch('systems', form) ?? task?.system_keys ?? [];
  const rules = useRecipientRulesQuery(chosenSystems, open);
  const domains = rules.data?.domains ?? [];
  const presets = useMemo(() => rangePresets(t), [t]);
  const busy = createReport.isPending || saveTask.isPending;

  const initialValues: FormValues = task
    ? {
        name: task.name,
        systems: task.system_keys,
        period: periodFromCrontab(task.crontab) ?? task.period,
        start: fromStartTime(task.start_time),
        range: null,
        emails: task.emails.join(', '),
      }
    : { name: '', systems: [], period: defaultPeriod, start: null, range: null, emails: '' };

  // a new report goes to its author unless they say otherwise (set once the form is shown, so an
  // address typed meanwhile is never replaced)
  const ownAddress = me.data?.email;
  useEffect(() => {
    if (open && !task && ownAddress && !form.isFieldTouched('emails') && !form.getFieldValue('emails'))
      form.setFieldValue('emails', ownAddress);
  }, [open, task, ownAddress, form]);

  const close = () => {
    form.resetFields();
    setHasErrors(false);
    setSystemsTouched(false);
    createReport.reset();
    saveTask.reset();
    onClose();
  };

  const submit = async (values: FormValues) => {
    const emails = splitRecipients(values.emails ?? '');
    const textOf = new Map((systems.data ?? []).map((s) => [s.key, s.text]));
    try {
      if (!task && values.period === 'forPeriod' && values.range) {
        await createReport.mutateAsync({
          name: values.name.trim(),
          // the one-off request names the systems by their texts (product §B3)
          systems: values.systems.map((key) => textOf.get(key) ?? key),
          emails,
          start: toDmy(values.range[0]),
          finish: toDmy(values.range[1]),
        });
        notifySuccess({
          title: t('reports.notices.created'),
          description: t('reports.notices.createdDescription'),
        });
        onOrdered?.();
      } else if (values.start && values.period !== 'forPeriod') {
        const schedulePeriod: SchedulePeriod = values.period;
        const startTime = toStartTime(values.start);
        const timing = {
          start_time: startTime,
          period: schedulePeriod,
          crontab: crontabFromPeriod(schedulePeriod, startTime),
        };
        if (task) {
          const body: ReportTaskUpdate = {
            // the current systems are kept when none are re-chosen (product §B5)
            systems: systemsTouched ? values.systems : task.system_keys,
            emails,
            ...timing,
            ...(values.name.trim() !== task.name ? { name: values.name.trim() } : {}),
          };
          await saveTask.mutateAsync({ id: task.id, body });
        } else {
          await saveTask.mutateAsync({
            id: null,
            body: { name: values.name.trim(), systems: values.systems, emails, ...timing },
          });
        }
        notifySuccess({ title: t('reports.notices.saved') });
      } else return;
      close();
    } catch (error) {
      // a refused recipient (not a user of the systems nor of an allowed domain) names the address
      const refused = error instanceof ApiError ? error.fieldErrors?.emails : undefined;
      if (refused?.length) {
        form.setFields([{ name: 'emails', errors: refused }]);
        setHasErrors(true);
        return;
      }
      const title =
        task || values.period !== 'forPeriod'
          ? t('reports.notices.scheduleFailed')
          : t('reports.notices.createFailed');
      notifyError({ title, description: firstMessage(error) });
    }
  };

  const periods = (editing ? SCHEDULE_PERIODS : REPORT_PERIODS).map((p) => ({
    value: p,
    label: t(`reports.periods.${p}`),
  }));
  const errors = editing
    ? { name: t('reports.form.errors.editEmptyName'), email: t('reports.form.errors.editInvalidEmails') }
    : { name: t('reports.form.errors.invalidName'), email: t('reports.form.errors.invalidEmail') };
  const info = scheduleInfo(t, language, period, start, range, DEFAULT_REPORT_TIME_ZONE);

  return (
    <Modal
      open={open}
      width={REPORT_MODAL_WIDTH}
      title={editing ? t('reports.form.editTitle') : t('reports.form.createTitle')}
      onCancel={close}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={close} data-testid="report-form-cancel">
          {t('reports.form.cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={busy}
          disabled={hasErrors}
          onClick={() => form.submit()}
          data-testid="report-form-submit"
        >
          {editing
            ? t('reports.form.submitEdit')
            : period === 'forPeriod'
              ? t('reports.form.submitOneOff')
              : t('reports.form.submitSchedule')}
        </Button>,
      ]}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={initialValues}
        onFinish={(values) => void submit(values)}
        onFieldsChange={() => setHasErrors(form.getFieldsError().some((f) => f.errors.length > 0))}
        data-testid="report-form"
      >
        <Form.Item
          name="name"
          label={t('reports.form.name')}
          required
          rules={[
            {
              validator: (_r, v: string) =>
                v?.trim() ? Promise.resolve() : Promise.reject(new Error(errors.name)),
            },
          ]}
        >
          <Input
            placeholder={t('reports.form.namePlaceholder')}
            maxLength={200}
            data-testid="report-form-name"
          />
        </Form.Item>
        <Form.Item
          name="systems"
          label={t('reports.form.systems')}
          rules={
            editing
              ? [
                  {
                    validator: (_r, v: string[]) =>
                      systemsTouched && !v?.length
                        ? Promise.reject(new Error(t('reports.form.errors.editEmptySystems')))
                        : Promise.resolve(),
                  },
                ]
              : []
          }
        >
          <Select
            mode="multiple"
            allowClear
            loading={systems.isLoading}
            placeholder={t('reports.form.systemsPlaceholder')}
            options={(systems.data ?? []).map((s) => ({ value: s.key, label: `${s.key} · ${s.text}` }))}
            optionFilterProp="label"
            onChange={() => setSystemsTouched(true)}
            data-testid="report-form-systems"
          />
        </Form.Item>
        <Form.Item name="period" label={t('reports.form.periodicity')}>
          <Select options={periods} data-testid="report-form-period" />
        </Form.Item>
        {period === 'forPeriod' ? (
          <Form.Item
            name="range"
            label={t('reports.form.range')}
            required
            rules={[{ required: true, message: t('reports.form.errors.dateRequired') }]}
          >
            <DateRangeInput
              presets={presets}
              // a report covers days that have passed (today included); the server refuses later ones
              disabledDate={(day) => day.isAfter(dayjs(), 'day')}
              style={{ width: '100%' }}
              data-testid="report-form-range"
            />
          </Form.Item>
        ) : (
          <Form.Item
            name="start"
            label={t('reports.form.startTime')}
            required
            rules={[{ required: true, message: t('reports.form.errors.dateRequired') }]}
          >
            <DateInput
              showTime={{ format: 'HH:mm' }}
              style={{ width: '100%' }}
              data-testid="report-form-start"
            />
          </Form.Item>
        )}
        <Form.Item
          name="emails"
          label={t('reports.form.recipients')}
          required
          // who may receive it, said before sending (the server refuses anyone else)
          extra={
            <span data-testid="report-form-recipients-rule">
              {domains.length
                ? t('reports.form.recipientsRuleDomains', { domains: domains.join(', ') })
                : t('reports.form.recipientsRule')}
            </span>
          }
          rules={[
            {
              validator: (_r, v: string) => {
                const text = v ?? '';
                if (!splitRecipients(text).length || invalidRecipients(text).length)
                  return Promise.reject(new Error(errors.email));
                return Promise.resolve();
              },
            },
          ]}
        >
          <Input.TextArea
            rows={3}
            placeholder={t('reports.form.recipientsPlaceholder')}
            data-testid="report-form-emails"
          />
        </Form.Item>
        <Alert type="info" showIcon title={info} data-testid="report-form-info" />
      </Form>
    </Modal>
  );
}
