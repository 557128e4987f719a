import { Flex, Form, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, errorDescription } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { notifySuccess } from '@/shared/ui/notifications.tsx';
import { StaffNotAvailable } from '@/shared/ui/staff/StaffNotAvailable.tsx';
import { useIsStaff } from '../../auth/index.ts';
import { useRegisterIncidentMutation } from '../api/useRegisterIncidentMutation.ts';
import { RegisterIncidentForm } from '../components/RegisterIncidentForm.tsx';
import { mapRegisterErrors, toRegisterPayload, type RegisterValues } from '../lib/registerPayload.ts';
import '../i18n/texts.ts';

/**
 * /soc/incidents/new (design §9, staff area): the SOC registers an incident with every field of
 * POST /analyst/incidents/. A customer who opens the address is told the page is not available,
 * and the page asks the analyst API nothing.
 *
 * `?alerts=uuid,…` (from the alerts screen) is not offered as "alerts to include": the server
 * stores only new alerts with an incident and refuses a uuid already stored, so existing alerts
 * cannot be linked at registration.
 */
export function SocRegisterPage() {
  const isStaff = useIsStaff();
  if (isStaff === false) return <StaffNotAvailable />;
  if (isStaff === undefined) return null;
  return <RegisterScreen />;
}

function RegisterScreen() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  useDocumentTitle(t('socRegister.title'));
  const [form] = Form.useForm<RegisterValues>();
  const mutation = useRegisterIncidentMutation();
  const [formErrors, setFormErrors] = useState<string[]>([]);
  // one key per form: a double click or a retry after a lost answer registers one incident
  const [idempotencyKey] = useState(() => crypto.randomUUID());

  const submit = async (values: RegisterValues) => {
    setFormErrors([]);
    try {
      const card = await mutation.mutateAsync({ payload: toRegisterPayload(values), idempotencyKey });
      notifySuccess({ title: t('socRegister.created', { key: card.key }) });
      void navigate(`/inc/${card.key}`);
    } catch (error) {
      const fieldErrors = error instanceof ApiError && error.status === 400 ? error.fieldErrors : null;
      if (fieldErrors) {
        const mapped = mapRegisterErrors(fieldErrors);
        // the paths are built from the server's field names, which the form's typed paths cannot name
        form.setFields(mapped.fields as Parameters<typeof form.setFields>[0]);
        setFormErrors(mapped.formErrors);
        return;
      }
      const description = error instanceof ApiError ? errorDescription(error) : [];
      setFormErrors([t('socRegister.failed'), ...description]);
    }
  };

  return (
    <Flex vertical gap="middle" data-testid="soc-register-page" style={{ maxWidth: '72rem', minWidth: 0 }}>
      <div>
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3 }}>
          {t('socRegister.title')}
        </Typography.Title>
        <Typography.Text type="secondary">{t('socRegister.intro')}</Typography.Text>
      </div>
      <RegisterIncidentForm
        form={form}
        onSubmit={(values) => void submit(values)}
        onCancel={() => void navigate('/soc/queue')}
        busy={mutation.isPending}
        formErrors={formErrors}
      />
    </Flex>
  );
}
