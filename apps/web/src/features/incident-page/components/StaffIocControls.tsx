import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { IOC_TYPES, iocProblem, type Ioc, type IocInput, type IocType } from '@soc/contracts';
import { Button, Form, Input, Modal, Popconfirm, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorDescription } from '@/shared/api/index.ts';
import { FormErrorAlert } from '@/shared/ui/FormErrorAlert.tsx';
import { notifyError, notifySuccess } from '@/shared/ui/notifications.tsx';
import { useStaffUpdateMutation } from '../api/useStaffUpdateMutation.ts';
import '../i18n/texts.ts';

/** The IOC list as the PATCH takes it: the whole list replaces the stored one. */
const asInput = (iocs: readonly Ioc[]): IocInput[] =>
  iocs.map((item) => ({ ioc: item.ioc, ioc_type: item.ioc_type, category: item.category }));

const sameIoc = (a: { ioc: string; ioc_type: IocType }, b: { ioc: string; ioc_type: IocType }) =>
  a.ioc_type === b.ioc_type && a.ioc.trim().toLowerCase() === b.ioc.trim().toLowerCase();

type IocValues = { type?: IocType; value?: string };

export type AddIocButtonProps = {
  incidentKey: number;
  /** The incident's IOCs now: the new one is appended and the list sent whole. */
  iocs: readonly Ioc[];
};

/** Staff add an IOC (type and value) to the incident (PATCH /analyst/incidents/{key}/ observed_iocs). */
export function AddIocButton({ incidentKey, iocs }: AddIocButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<IocValues>();
  const mutation = useStaffUpdateMutation(incidentKey);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const required = { required: true, message: t('incidentPage.staffAdd.required') };

  const submit = async (values: IocValues) => {
    setFormErrors([]);
    const added = { ioc: (values.value ?? '').trim(), ioc_type: values.type! };
    try {
      await mutation.mutateAsync({ observed_iocs: [...asInput(iocs), { ...added, category: [] }] });
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      // the new IOC is the last of the list: its messages belong under the value
      // (the server names the list; the stored IOCs passed its check before)
      const own = fieldErrors?.[`observed_iocs.${iocs.length}.ioc`] ?? fieldErrors?.observed_iocs;
      if (own) form.setFields([{ name: 'value', errors: own }]);
      else
        setFormErrors([
          t('incidentPage.staffAdd.iocFailed'),
          ...(error instanceof ApiError ? errorDescription(error) : []),
        ]);
      return;
    }
    notifySuccess({ title: t('incidentPage.staffAdd.iocAdded') });
    setOpen(false);
  };

  return (
    <>
      <Button
        icon={<PlusOutlined aria-hidden />}
        onClick={() => setOpen(true)}
        data-testid="incident-ioc-add"
      >
        {t('incidentPage.staffAdd.addIoc')}
      </Button>
      <Modal
        open={open}
        title={t('incidentPage.staffAdd.addIocTitle')}
        onCancel={mutation.isPending ? undefined : () => setOpen(false)}
        okText={t('incidentPage.staffAdd.add')}
        cancelText={t('incidentPage.staffAdd.cancel')}
        okButtonProps={{ loading: mutation.isPending, 'data-testid': 'incident-ioc-save' }}
        cancelButtonProps={{ disabled: mutation.isPending }}
        onOk={() => form.submit()}
        afterClose={() => {
          form.resetFields();
          setFormErrors([]);
        }}
        destroyOnHidden
        modalRender={(node) => <div data-testid="incident-ioc-modal">{node}</div>}
      >
        <Form<IocValues>
          form={form}
          layout="vertical"
          disabled={mutation.isPending}
          onFinish={(values) => void submit(values)}
        >
          <Form.Item name="type" label={t('incidentPage.staffAdd.iocType')} rules={[required]}>
            <Select<IocType>
              showSearch={{ optionFilterProp: 'label' }}
              data-testid="incident-ioc-type"
              options={IOC_TYPES.map((type) => ({ value: type, label: t(`alerts.iocs.types.${type}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="value"
            label={t('incidentPage.staffAdd.iocValue')}
            dependencies={['type']}
            rules={[
              { ...required, whitespace: true },
              ({ getFieldValue }) => ({
                validator: async (_rule, value: string | undefined) => {
                  const type = getFieldValue('type') as IocType | undefined;
                  if (!type || !value?.trim()) return;
                  if (iocProblem(type, value) !== null)
                    throw new Error(t('incidentPage.staffAdd.iocInvalid'));
                  if (iocs.some((item) => sameIoc(item, { ioc: value, ioc_type: type })))
                    throw new Error(t('incidentPage.staffAdd.iocDuplicate'));
                },
              }),
            ]}
          >
            <Input autoComplete="off" data-testid="incident-ioc-value" />
          </Form.Item>
          <FormErrorAlert messages={formErrors} testId="incident-ioc-errors" />
        </Form>
      </Modal>
    </>
  );
}

export type RemoveIocButtonProps = {
  incidentKey: number;
  iocs: readonly Ioc[];
  ioc: Ioc;
};

/** Staff remove one IOC: the list without it is sent whole, after a confirmation. */
export function RemoveIocButton({ incidentKey, iocs, ioc }: RemoveIocButtonProps) {
  const { t } = useTranslation();
  const mutation = useStaffUpdateMutation(incidentKey);
  const remove = async () => {
    try {
      await mutation.mutateAsync({ observed_iocs: asInput(iocs.filter((item) => !sameIoc(item, ioc))) });
      notifySuccess({ title: t('incidentPage.staffAdd.iocRemoved') });
    } catch (error) {
      notifyError({
        title: t('incidentPage.staffAdd.iocFailed'),
        description: error instanceof ApiError ? errorDescription(error) : undefined,
      });
    }
  };
  return (
    <Popconfirm
      title={t('incidentPage.staffAdd.removeIocConfirm')}
      okText={t('incidentPage.staffAdd.remove')}
      cancelText={t('incidentPage.staffAdd.cancel')}
      okButtonProps={{ danger: true, 'data-testid': 'incident-ioc-remove-confirm' }}
      onConfirm={() => remove()}
    >
      <Button
        type="text"
        danger
        size="small"
        icon={<DeleteOutlined aria-hidden />}
        loading={mutation.isPending}
        aria-label={t('incidentPage.staffAdd.removeIoc', { ioc: ioc.ioc })}
        data-testid="incident-ioc-remove"
      />
    </Popconfirm>
  );
}
