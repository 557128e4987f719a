import { CUSTOMER_PRIORITIES, INCIDENT_SUMMARY_MAX, type IncidentCreate } from '@soc/contracts';
import { Form, Input, Select, type FormInstance, type FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useRevalidateOnLanguageChange } from '@/shared/hooks/useRevalidateOnLanguageChange.ts';
import { attachmentProblems, unsafeNameText } from '@/shared/lib/attachments.ts';
import type { CreateIncidentField } from '../lib/createIncidentErrors.ts';
import { AttachmentsInput } from '@/shared/ui/AttachmentsInput.tsx';
import { CategorySelect, IssueTypeSelect, SystemSelect } from './LookupFields.tsx';
import type { LookupValue } from './LookupSelect.tsx';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';

type CustomerPriority = (typeof CUSTOMER_PRIORITIES)[number];

/** Values of the create-incident form (product §A3 "Create-incident form"). */
export interface CreateIncidentValues {
  issueType?: LookupValue;
  summary?: string;
  description?: string;
  system?: LookupValue;
  mainCategory?: LookupValue;
  additionalCategories?: LookupValue[];
  priority?: CustomerPriority;
  attachments?: File[];
}

/** The POST /soc/incs/ payload of validated form values (product §A3 "Create payload"). */
export function toCreatePayload(values: CreateIncidentValues): IncidentCreate {
  return {
    system: values.system?.value ?? 0,
    summary: (values.summary ?? '').trim(),
    issuetype: values.issueType?.value ?? 0,
    priority: values.priority ?? 'medium',
    description: (values.description ?? '').trim(),
    primary_category: values.mainCategory?.value ?? 0,
    secondary_category: (values.additionalCategories ?? []).map((category) => category.value),
  };
}

const required = (t: TFunction): FormRule => ({ required: true, message: t('incidents.create.required') });
/** Blank text is missing text. */
const requiredText = (t: TFunction): FormRule => ({ ...required(t), whitespace: true });

const attachmentsRule = (t: TFunction): FormRule => ({
  validator: async (_rule, files: File[] | undefined) => {
    const messages = attachmentProblems(files ?? []).map((problem) =>
      problem.kind === 'unsafe-name'
        ? unsafeNameText(t, problem)
        : problem.kind === 'too-many'
          ? t('incidents.create.tooManyFiles', { max: problem.max })
          : t('incidents.create.fileTooLarge', { name: problem.name, size: problem.maxMb }),
    );
    if (messages.length > 0) throw new Error(messages.join(' '));
  },
});

export type CreateIncidentFormProps = {
  form: FormInstance<CreateIncidentValues>;
  onSubmit: (values: CreateIncidentValues) => void;
  /** Inputs are locked while the incident is being created and its files uploaded. */
  disabled: boolean;
  /** Server messages that belong to no field, shown under the fields. */
  formErrors: string[];
  /** Fields showing server messages: a language switch must not re-run rules over them. */
  serverErrorFields: ReadonlySet<CreateIncidentField>;
};

/**
 * Issue type, title, description, tenant, main and additional categories, priority and
 * attachments, with the rules of product §A4–§A5: categories wait for an issue type and are
 * cleared when it changes.
 */
export function CreateIncidentForm({
  form,
  onSubmit,
  disabled,
  formErrors,
  serverErrorFields,
}: CreateIncidentFormProps) {
  const { t } = useTranslation();
  useRevalidateOnLanguageChange(form, serverErrorFields);
  const issueType = Form.useWatch('issueType', form);
  const mainCategory = Form.useWatch('mainCategory', form);
  const issueTypeId = issueType?.value ?? null;
  const categoryPlaceholder = issueTypeId === null ? t('incidents.create.chooseIssueTypeFirst') : undefined;

  return (
    <Form<CreateIncidentValues>
      form={form}
      name="create-incident"
      layout="vertical"
      disabled={disabled}
      initialValues={{ additionalCategories: [], attachments: [] }}
      onFinish={onSubmit}
      onValuesChange={(changed: Partial<CreateIncidentValues>) => {
        if ('issueType' in changed) {
          // Categories belong to an issue type (product §A4).
          form.setFields([
            { name: 'mainCategory', value: undefined, errors: [] },
            { name: 'additionalCategories', value: [], errors: [] },
          ]);
        }
      }}
      data-testid="create-incident-form"
    >
      <Form.Item label={t('incidents.create.issueType')} name="issueType" rules={[required(t)]}>
        <IssueTypeSelect testId="create-issuetype" />
      </Form.Item>
      <Form.Item
        label={t('incidents.create.summary')}
        name="summary"
        rules={[
          requiredText(t),
          {
            max: INCIDENT_SUMMARY_MAX,
            message: t('incidents.create.maxLength', { max: INCIDENT_SUMMARY_MAX }),
          },
        ]}
      >
        <Input data-testid="create-title" autoComplete="off" />
      </Form.Item>
      <Form.Item label={t('incidents.create.description')} name="description" rules={[requiredText(t)]}>
        <Input.TextArea data-testid="create-description" rows={5} />
      </Form.Item>
      <Form.Item label={t('incidents.create.system')} name="system" rules={[required(t)]}>
        <SystemSelect testId="create-system" />
      </Form.Item>
      <Form.Item label={t('incidents.create.mainCategory')} name="mainCategory" rules={[required(t)]}>
        <CategorySelect
          testId="create-category"
          issueTypeId={issueTypeId}
          disabled={disabled || issueTypeId === null}
          placeholder={categoryPlaceholder}
        />
      </Form.Item>
      <Form.Item label={t('incidents.create.additionalCategories')} name="additionalCategories">
        <CategorySelect
          mode="multiple"
          testId="create-additional-categories"
          issueTypeId={issueTypeId}
          disabled={disabled || issueTypeId === null}
          placeholder={categoryPlaceholder}
          exclude={mainCategory ? [mainCategory.value] : undefined}
        />
      </Form.Item>
      <Form.Item label={t('incidents.create.priority')} name="priority" rules={[required(t)]}>
        <Select<CustomerPriority>
          data-testid="create-priority"
          options={CUSTOMER_PRIORITIES.map((priority) => ({
            value: priority,
            label: t(`incidentPriority.${priority}`),
          }))}
        />
      </Form.Item>
      <Form.Item label={t('incidents.create.attachments')} name="attachments" rules={[attachmentsRule(t)]}>
        <AttachmentsInput disabled={disabled} />
      </Form.Item>
      <FormErrorAlert messages={formErrors} testId="create-form-error" />
    </Form>
  );
}
