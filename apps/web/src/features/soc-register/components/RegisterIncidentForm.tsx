import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ALERT_PLATFORMS,
  ALERT_PRIORITIES,
  ALERT_SEVERITIES,
  INCIDENT_PRIORITIES,
  INCIDENT_SUMMARY_MAX,
  IOC_TYPES,
  iocProblem,
  type IocType,
} from '@soc/contracts';
import {
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  Row,
  Select,
  Typography,
  type FormInstance,
  type FormRule,
} from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSystemCardQuery } from '@/shared/api/systems.ts';
import { DateInput } from '@/shared/ui/DateInputs.tsx';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { MarkdownEditor } from '@/shared/ui/markdown/MarkdownEditor.tsx';
import { CategorySelect, IssueTypeSelect, SystemSelect } from '../../incidents/index.ts';
import type { AlertRow, RegisterValues } from '../lib/registerPayload.ts';
import '../../alerts/index.ts';

const TEXT_MAX = 100_000;
const STATUS_TEXT_MAX = 10_000;
const TACTIC = /^[a-z-]{1,64}$/;
const TECHNIQUE = /^T\d{4}(\.\d{3})?$/;

export type RegisterIncidentFormProps = {
  form: FormInstance<RegisterValues>;
  onSubmit: (values: RegisterValues) => void;
  onCancel: () => void;
  /** Locked while the incident is being registered. */
  busy: boolean;
  /** Server messages that belong to no field. */
  formErrors: string[];
};

const required = (t: TFunction): FormRule => ({
  required: true,
  message: t('socRegister.validation.required'),
});
const requiredText = (t: TFunction): FormRule => ({ ...required(t), whitespace: true });
const maxText = (t: TFunction, max: number): FormRule => ({
  max,
  message: t('socRegister.validation.maxLength', { max }),
});
/** A free list (tags, names): at most `max` entries of at most `itemMax` characters. */
const listRule = (t: TFunction, max: number, itemMax: number): FormRule => ({
  validator: async (_rule, values: string[] | undefined) => {
    if ((values ?? []).length > max) throw new Error(t('socRegister.validation.tooMany', { max }));
    if ((values ?? []).some((value) => value.trim().length > itemMax))
      throw new Error(t('socRegister.validation.maxLength', { max: itemMax }));
  },
});

/** A new alert row: its uuid is made once, so that a retried registration stores it once. */
export const newAlertRow = (): AlertRow => ({ uuid: crypto.randomUUID(), priority: 'medium' });

/**
 * Every field of POST /analyst/incidents/ in three sections (main, texts, details) and the IOCs
 * and alerts as editable rows. Categories wait for an issue type and the service for a tenant,
 * and are cleared when those change.
 */
export function RegisterIncidentForm({
  form,
  onSubmit,
  onCancel,
  busy,
  formErrors,
}: RegisterIncidentFormProps) {
  const { t } = useTranslation();
  const system = Form.useWatch('system', form);
  const issueType = Form.useWatch('issueType', form);
  const mainCategory = Form.useWatch('mainCategory', form);
  const issueTypeId = issueType?.value ?? null;
  const categoryPlaceholder = issueTypeId === null ? t('socRegister.fields.chooseIssueTypeFirst') : undefined;
  const half = { xs: 24, lg: 12 };
  const tagsSelect = (testId: string, label: string) => (
    <Select<string[]>
      mode="tags"
      open={false}
      suffixIcon={null}
      tokenSeparators={[',']}
      placeholder={t('socRegister.fields.typeToAdd')}
      aria-label={label}
      data-testid={testId}
    />
  );

  return (
    <Form<RegisterValues>
      form={form}
      name="soc-register"
      layout="vertical"
      disabled={busy}
      initialValues={{ additionalCategories: [], iocs: [], alerts: [], mitre: [] }}
      onFinish={onSubmit}
      onValuesChange={(changed: Partial<RegisterValues>) => {
        if ('issueType' in changed) {
          form.setFields([
            { name: 'mainCategory', value: undefined, errors: [] },
            { name: 'additionalCategories', value: [], errors: [] },
          ]);
        }
        if ('system' in changed) form.setFields([{ name: 'service', value: undefined, errors: [] }]);
      }}
      scrollToFirstError
      data-testid="soc-register-form"
    >
      <Flex vertical gap="middle">
        <Card title={t('socRegister.sections.main')} size="small" data-testid="soc-register-main">
          <Row gutter={16}>
            <Col {...half}>
              <Form.Item label={t('socRegister.fields.system')} name="system" rules={[required(t)]}>
                <SystemSelect testId="register-system" />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item label={t('socRegister.fields.service')} name="service">
                <ServiceSelect systemId={system?.value ?? null} />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item label={t('socRegister.fields.issueType')} name="issueType" rules={[required(t)]}>
                <IssueTypeSelect testId="register-issuetype" />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item label={t('socRegister.fields.priority')} name="priority" rules={[required(t)]}>
                <Select
                  data-testid="register-priority"
                  options={INCIDENT_PRIORITIES.map((priority) => ({
                    value: priority,
                    label: t(`incidentPriority.${priority}`),
                  }))}
                />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                label={t('socRegister.fields.mainCategory')}
                name="mainCategory"
                rules={[required(t)]}
              >
                <CategorySelect
                  testId="register-category"
                  issueTypeId={issueTypeId}
                  disabled={busy || issueTypeId === null}
                  placeholder={categoryPlaceholder}
                />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item label={t('socRegister.fields.additionalCategories')} name="additionalCategories">
                <CategorySelect
                  mode="multiple"
                  testId="register-additional-categories"
                  issueTypeId={issueTypeId}
                  disabled={busy || issueTypeId === null}
                  placeholder={categoryPlaceholder}
                  exclude={mainCategory ? [mainCategory.value] : undefined}
                />
              </Form.Item>
            </Col>
            <Col xs={24}>
              <Form.Item
                label={t('socRegister.fields.summary')}
                name="summary"
                rules={[requiredText(t), maxText(t, INCIDENT_SUMMARY_MAX)]}
              >
                <Input data-testid="register-summary" autoComplete="off" />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                label={t('socRegister.fields.reporterName')}
                name="reporterName"
                extra={t('socRegister.fields.reporterNameHint')}
                rules={[maxText(t, 255)]}
              >
                <Input data-testid="register-reporter" autoComplete="off" />
              </Form.Item>
            </Col>
          </Row>
        </Card>

        <Card title={t('socRegister.sections.text')} size="small" data-testid="soc-register-texts">
          <Form.Item label={t('socRegister.fields.description')} name="description">
            <MarkdownEditor
              label={t('socRegister.fields.description')}
              maxLength={TEXT_MAX}
              testId="register-description"
            />
          </Form.Item>
          <Form.Item label={t('socRegister.fields.recommendations')} name="recommendations">
            <MarkdownEditor
              label={t('socRegister.fields.recommendations')}
              maxLength={TEXT_MAX}
              rows={6}
              testId="register-recommendations"
            />
          </Form.Item>
          <Form.Item label={t('socRegister.fields.statusDescription')} name="statusDescription">
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 8 }}
              maxLength={STATUS_TEXT_MAX}
              data-testid="register-status-description"
            />
          </Form.Item>
        </Card>

        <Card title={t('socRegister.sections.details')} size="small" data-testid="soc-register-details">
          <Row gutter={16}>
            <Col {...half}>
              <Form.Item label={t('socRegister.fields.tags')} name="tags" rules={[listRule(t, 50, 64)]}>
                {tagsSelect('register-tags', t('socRegister.fields.tags'))}
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                label={t('socRegister.fields.affectedSystems')}
                name="affectedSystems"
                extra={t('socRegister.fields.affectedSystemsHint')}
                rules={[listRule(t, 200, 255)]}
              >
                {tagsSelect('register-affected-systems', t('socRegister.fields.affectedSystems'))}
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item label={t('socRegister.fields.activityDetectedAt')} name="activityDetectedAt">
                <DateInput showTime style={{ width: '100%' }} data-testid="register-activity-detected" />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                label={t('socRegister.fields.gossopkaPlannedTime')}
                name="gossopkaPlannedTime"
                rules={[
                  {
                    validator: async (_rule, value: dayjs.Dayjs | null | undefined) => {
                      if (value && !value.isAfter(dayjs()))
                        throw new Error(t('socRegister.validation.future'));
                    },
                  },
                ]}
              >
                <DateInput
                  showTime
                  style={{ width: '100%' }}
                  disabledDate={(day) => day.isBefore(dayjs(), 'day')}
                  data-testid="register-gossopka-planned"
                />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                label={t('socRegister.fields.detectionRules')}
                name="detectionRules"
                rules={[listRule(t, 200, 255)]}
              >
                {tagsSelect('register-detection-rules', t('socRegister.fields.detectionRules'))}
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item
                label={t('socRegister.fields.affectedAssets')}
                name="affectedAssets"
                extra={t('socRegister.fields.affectedAssetsHint')}
                rules={[listRule(t, 500, 128)]}
              >
                {tagsSelect('register-affected-assets', t('socRegister.fields.affectedAssets'))}
              </Form.Item>
            </Col>
          </Row>
          <MitreRows />
        </Card>

        <Card title={t('socRegister.sections.iocs')} size="small" data-testid="soc-register-iocs">
          <IocRows />
        </Card>

        <Card title={t('socRegister.sections.alerts')} size="small" data-testid="soc-register-alerts">
          <AlertRows />
        </Card>

        <FormErrorAlert messages={formErrors} testId="soc-register-form-error" />
        <Flex gap="small" justify="flex-end" wrap>
          <Button onClick={onCancel} disabled={busy} data-testid="soc-register-cancel">
            {t('socRegister.cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="soc-register-submit">
            {t('socRegister.submit')}
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}

type ServiceSelectProps = {
  systemId: number | null;
  id?: string;
  value?: number;
  onChange?: (value: number | undefined) => void;
  disabled?: boolean;
};

/** The services of the chosen tenant (from its card); none chosen: the tenant's first one. */
function ServiceSelect({ systemId, ...props }: ServiceSelectProps) {
  const { t } = useTranslation();
  if (systemId === null)
    return (
      <Select
        {...props}
        disabled
        placeholder={t('socRegister.fields.chooseSystemFirst')}
        data-testid="register-service"
      />
    );
  return <TenantServices systemId={systemId} {...props} />;
}

function TenantServices({ systemId, ...props }: ServiceSelectProps & { systemId: number }) {
  const { t } = useTranslation();
  const card = useSystemCardQuery(systemId);
  return (
    <Select
      {...props}
      allowClear
      loading={card.isPending}
      status={card.isError ? 'warning' : undefined}
      placeholder={t('socRegister.fields.serviceDefault')}
      options={(card.data?.services ?? []).map((service) => ({ value: service.id, label: service.name }))}
      data-testid="register-service"
    />
  );
}

/** Tactic → techniques rows of the MITRE coverage. */
function MitreRows() {
  const { t } = useTranslation();
  return (
    <Form.List name="mitre">
      {(rows, { add, remove }, { errors }) => (
        <Flex vertical gap="small">
          <Typography.Text strong>{t('socRegister.fields.mitre')}</Typography.Text>
          {rows.map((row, index) => (
            <Row key={row.key} gutter={8} align="top" data-testid="register-mitre-row">
              <Col xs={24} md={8}>
                <Form.Item
                  name={[row.name, 'tactic']}
                  label={t('socRegister.fields.tactic')}
                  rules={[requiredText(t), { pattern: TACTIC, message: t('socRegister.validation.tactic') }]}
                >
                  <Input placeholder={t('socRegister.fields.tacticPlaceholder')} autoComplete="off" />
                </Form.Item>
              </Col>
              <Col xs={20} md={14}>
                <Form.Item
                  name={[row.name, 'techniques']}
                  label={t('socRegister.fields.techniques')}
                  rules={[
                    {
                      validator: async (_rule, values: string[] | undefined) => {
                        if ((values ?? []).some((value) => !TECHNIQUE.test(value.trim())))
                          throw new Error(t('socRegister.validation.technique'));
                      },
                    },
                  ]}
                >
                  <Select<string[]>
                    mode="tags"
                    open={false}
                    suffixIcon={null}
                    tokenSeparators={[',', ' ']}
                    placeholder={t('socRegister.fields.techniquesPlaceholder')}
                  />
                </Form.Item>
              </Col>
              <Col xs={4} md={2}>
                <RemoveRowButton
                  label={t('socRegister.fields.removeTactic', { index: index + 1 })}
                  onClick={() => remove(row.name)}
                />
              </Col>
            </Row>
          ))}
          <Form.ErrorList errors={errors} />
          <div>
            <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ techniques: [] })}>
              {t('socRegister.fields.addTactic')}
            </Button>
          </div>
        </Flex>
      )}
    </Form.List>
  );
}

/** The IOC rows: a type and a value that must suit it (checked as the server checks it). */
function IocRows() {
  const { t } = useTranslation();
  return (
    <Form.List name="iocs">
      {(rows, { add, remove }, { errors }) => (
        <Flex vertical gap="small">
          {rows.length === 0 && (
            <Typography.Text type="secondary">{t('socRegister.iocs.none')}</Typography.Text>
          )}
          {rows.map((row, index) => (
            <Row key={row.key} gutter={8} align="top" data-testid="register-ioc-row">
              <Col xs={24} md={8}>
                <Form.Item name={[row.name, 'type']} label={t('socRegister.iocs.type')} rules={[required(t)]}>
                  <IocTypeSelect testId={`register-ioc-type-${index}`} />
                </Form.Item>
              </Col>
              <Col xs={20} md={14}>
                <Form.Item
                  name={[row.name, 'value']}
                  label={t('socRegister.iocs.value')}
                  dependencies={[['iocs', row.name, 'type']]}
                  rules={[requiredText(t), iocValueRule(t, ['iocs', row.name, 'type'])]}
                >
                  <Input autoComplete="off" data-testid={`register-ioc-value-${index}`} />
                </Form.Item>
              </Col>
              <Col xs={4} md={2}>
                <RemoveRowButton
                  label={t('socRegister.iocs.remove', { index: index + 1 })}
                  onClick={() => remove(row.name)}
                />
              </Col>
            </Row>
          ))}
          <Form.ErrorList errors={errors} />
          <div>
            <Button
              icon={<PlusOutlined aria-hidden />}
              onClick={() => add({})}
              data-testid="register-ioc-add"
            >
              {t('socRegister.iocs.add')}
            </Button>
          </div>
        </Flex>
      )}
    </Form.List>
  );
}

/** The alert rows with the fields an alert needs (title, severity, platform) and a few more. */
function AlertRows() {
  const { t } = useTranslation();
  return (
    <Form.List name="alerts">
      {(rows, { add, remove }, { errors }) => (
        <Flex vertical gap="small">
          {rows.length === 0 && (
            <Typography.Text type="secondary">{t('socRegister.alerts.none')}</Typography.Text>
          )}
          {rows.map((row, index) => (
            <Card
              key={row.key}
              size="small"
              type="inner"
              title={t('socRegister.alerts.row', { index: index + 1 })}
              extra={
                <RemoveRowButton
                  inline
                  label={t('socRegister.alerts.remove', { index: index + 1 })}
                  onClick={() => remove(row.name)}
                />
              }
              data-testid="register-alert-row"
            >
              <AlertFields name={row.name} testId={`register-alert-${index}`} />
            </Card>
          ))}
          <Form.ErrorList errors={errors} />
          <div>
            <Button
              icon={<PlusOutlined aria-hidden />}
              onClick={() => add(newAlertRow())}
              data-testid="register-alert-add"
            >
              {t('socRegister.alerts.add')}
            </Button>
          </div>
        </Flex>
      )}
    </Form.List>
  );
}

export type AlertFieldsProps = {
  /** The row's name inside a Form.List, or undefined for a form of one alert. */
  name?: number;
  testId: string;
};

/** The fields of one alert (also the incident page's "Add alert" form). */
export function AlertFields({ name, testId }: AlertFieldsProps) {
  const { t } = useTranslation();
  const path = (field: string) => (name === undefined ? field : [name, field]);
  const third = { xs: 24, md: 8 };
  return (
    <Row gutter={8}>
      <Form.Item name={path('uuid')} hidden>
        <Input />
      </Form.Item>
      <Col xs={24}>
        <Form.Item
          name={path('title')}
          label={t('socRegister.alerts.title')}
          rules={[requiredText(t), maxText(t, 500)]}
        >
          <Input autoComplete="off" data-testid={`${testId}-title`} />
        </Form.Item>
      </Col>
      <Col {...third}>
        <Form.Item name={path('severity')} label={t('socRegister.alerts.severity')} rules={[required(t)]}>
          <Select
            data-testid={`${testId}-severity`}
            options={ALERT_SEVERITIES.map((severity) => ({
              value: severity,
              label: t(`socRegister.severities.${severity}`),
            }))}
          />
        </Form.Item>
      </Col>
      <Col {...third}>
        <Form.Item name={path('platform')} label={t('socRegister.alerts.platform')} rules={[required(t)]}>
          <Select
            data-testid={`${testId}-platform`}
            options={ALERT_PLATFORMS.map((platform) => ({
              value: platform,
              label: t(`socRegister.platforms.${platform}`),
            }))}
          />
        </Form.Item>
      </Col>
      <Col {...third}>
        <Form.Item name={path('priority')} label={t('socRegister.alerts.priority')}>
          <Select
            data-testid={`${testId}-priority`}
            options={ALERT_PRIORITIES.map((priority) => ({
              value: priority,
              label: t(`incidentPriority.${priority}`),
            }))}
          />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name={path('rule')} label={t('socRegister.alerts.rule')} rules={[maxText(t, 255)]}>
          <Input autoComplete="off" data-testid={`${testId}-rule`} />
        </Form.Item>
      </Col>
      <Col xs={24}>
        <Form.Item name={path('description')} label={t('socRegister.alerts.description')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 8 }}
            maxLength={20_000}
            data-testid={`${testId}-description`}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}

type IocTypeSelectProps = {
  id?: string;
  value?: IocType;
  onChange?: (value: IocType) => void;
  disabled?: boolean;
  testId: string;
};

/** The IOC types, named as the IOC tab names them. */
export function IocTypeSelect({ testId, ...props }: IocTypeSelectProps) {
  const { t } = useTranslation();
  return (
    <Select<IocType>
      {...props}
      showSearch={{ optionFilterProp: 'label' }}
      data-testid={testId}
      options={IOC_TYPES.map((type) => ({ value: type, label: t(`alerts.iocs.types.${type}`) }))}
    />
  );
}

/** The value must suit the type chosen at `typePath` (the contract's own check). */
export const iocValueRule =
  (t: TFunction, typePath: (string | number)[]): FormRule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: string | undefined) => {
      const type = getFieldValue(typePath) as IocType | undefined;
      if (!type || !value?.trim()) return;
      if (iocProblem(type, value) !== null) throw new Error(t('socRegister.iocs.invalid'));
    },
  });

/** A row's remove button; `inline` in a card's header, else lined up with the row's inputs. */
function RemoveRowButton({
  label,
  onClick,
  inline,
}: {
  label: string;
  onClick: () => void;
  inline?: boolean;
}) {
  const button = (
    <Button type="text" danger icon={<DeleteOutlined aria-hidden />} aria-label={label} onClick={onClick} />
  );
  if (inline) return button;
  return (
    <Form.Item label={<span aria-hidden>&nbsp;</span>} colon={false}>
      {button}
    </Form.Item>
  );
}
