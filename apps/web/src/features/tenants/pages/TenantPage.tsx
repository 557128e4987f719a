import { ArrowLeftOutlined, MailOutlined, PhoneOutlined } from '@ant-design/icons';
import type { Contact, SystemCard, SystemPerson, SystemService } from '@soc/contracts';
import {
  Alert,
  Badge,
  Breadcrumb,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Result,
  Skeleton,
  Table,
  Typography,
  theme,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { formatDate } from '@/shared/lib/formatDateTime.ts';
import { ContrastTag } from '@/shared/ui/ContrastTag.tsx';
import { useSystemCardQuery, useSystemIdByIsIdQuery } from '@/shared/api/systems.ts';
import '../i18n/texts.ts';
import { INCIDENT_PRIORITY_COLORS } from '@/shared/theme/domainColors.ts';
import { useIsPhone } from '@/shared/hooks/useIsPhone.ts';

const parseId = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);
/** The id customers see and quote (`is_id`), e.g. IS-0003. */
const IS_ID = /^IS-\d{1,9}$/i;
const day = (iso: string | null) => (iso ? formatDate(Date.parse(`${iso}T00:00:00`)) : '—');

/**
 * /tenants/{systemId} (product §B2): breadcrumb, main info, services with contracts and SLA,
 * contacts. The card also opens by the id the customer sees, /tenants/IS-0003.
 */
export function TenantPage() {
  const param = useParams().systemId;
  const id = parseId(param);
  const { t } = useTranslation();
  if (id !== null) return <TenantView key={id} id={id} />;
  if (param && IS_ID.test(param)) return <TenantByIsId key={param} isId={param} />;
  return <NotFound text={t('tenants.card.notFound')} />;
}

function TenantByIsId({ isId }: { isId: string }) {
  const { t } = useTranslation();
  const lookup = useSystemIdByIsIdQuery(isId);
  if (lookup.isError) {
    return <LoadFailed retry={() => void lookup.refetch()} />;
  }
  if (lookup.isPending) return <Skeleton active paragraph={{ rows: 12 }} />;
  if (lookup.data === null) return <NotFound text={t('tenants.card.notFound')} />;
  return <TenantView key={lookup.data} id={lookup.data} />;
}

function NotFound({ text }: { text: string }) {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title={text}
      extra={
        <Link to="/tenants">
          <Button type="primary">{t('tenants.card.back')}</Button>
        </Link>
      }
      data-testid="tenant-not-found"
    />
  );
}

function LoadFailed({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      message={t('tenants.card.loadFailed')}
      action={<Button onClick={retry}>{t('common.retry')}</Button>}
    />
  );
}

function TenantView({ id }: { id: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const card = useSystemCardQuery(id);
  const system = card.data;
  useDocumentTitle(system ? `${system.is_id} ${system.full_name}` : t('pages.tenants'));

  if (card.isError) {
    if (card.error instanceof ApiError && card.error.status === 404)
      return <NotFound text={t('tenants.card.notFound')} />;
    return <LoadFailed retry={() => void card.refetch()} />;
  }

  return (
    <Flex vertical gap="middle" data-testid="tenant-page">
      <Flex align="center" gap="small">
        <Button
          type="text"
          size="small"
          icon={<ArrowLeftOutlined aria-hidden />}
          aria-label={t('tenants.card.back')}
          title={t('tenants.card.back')}
          onClick={() => void navigate('/tenants')}
        />
        <Breadcrumb
          items={[
            { title: <Link to="/tenants">{t('tenants.card.breadcrumb')}</Link> },
            { title: <span aria-current="page">{system?.is_id ?? id}</span> },
          ]}
        />
      </Flex>
      {!system ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <>
          <Typography.Title
            level={1}
            style={{ margin: 0, fontSize: token.fontSizeHeading3 }}
            data-testid="tenant-title"
          >
            {system.full_name}
          </Typography.Title>
          <MainInfo system={system} />
          <Services services={system.services} />
          <Contacts contacts={system.customer_contacts} />
        </>
      )}
    </Flex>
  );
}

function MainInfo({ system }: { system: SystemCard }) {
  const { t } = useTranslation();
  const isPhone = useIsPhone();
  const person = (p: SystemPerson | null) =>
    p ? (
      <span>
        {p.full_name}
        {p.email && (
          <>
            {' · '}
            <a href={`mailto:${p.email}`}>{p.email}</a>
          </>
        )}
      </span>
    ) : (
      <Typography.Text type="secondary">{t('tenants.card.nobody')}</Typography.Text>
    );
  return (
    <Card size="small" title={t('tenants.card.mainInfo')} data-testid="tenant-main-info">
      <Descriptions
        size="small"
        column={isPhone ? 1 : 2}
        items={[
          { key: 'name', label: t('tenants.card.name'), children: system.full_name },
          { key: 'id', label: t('tenants.card.id'), children: system.is_id },
          {
            key: 'status',
            label: t('tenants.card.status'),
            children: (
              // the palette's green text is below 4.5:1 on its light fill: the text keeps the body colour
              <ContrastTag color={system.status === 'active' ? 'success' : 'default'}>
                {t(`tenants.card.statuses.${system.status}`)}
              </ContrastTag>
            ),
          },
          { key: 'sm', label: t('tenants.card.serviceManager'), children: person(system.service_manager) },
          {
            key: 'smd',
            label: t('tenants.card.serviceManagerDouble'),
            children: person(system.service_manager_double),
          },
          {
            key: 'da',
            label: t('tenants.card.dedicatedAnalyst'),
            children: person(system.dedicated_analyst),
          },
          {
            key: 'dad',
            label: t('tenants.card.dedicatedAnalystDouble'),
            children: person(system.dedicated_analyst_double),
          },
        ]}
      />
    </Card>
  );
}

function Services({ services }: { services: SystemService[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('tenants.card.services')} data-testid="tenant-services">
      {services.length === 0 ? (
        <Empty description={t('tenants.card.noServices')} />
      ) : (
        <Flex vertical gap="middle">
          {services.map((service) => (
            <Card
              key={service.id}
              type="inner"
              size="small"
              title={service.name}
              extra={t('tenants.card.serviceStart', { date: day(service.start_date) })}
              data-testid="tenant-service"
            >
              <Descriptions
                size="small"
                column={1}
                items={[
                  {
                    key: 'contract',
                    label: t('tenants.card.contract'),
                    children: service.contract ? (
                      <span>
                        {t('tenants.card.contractValue', service.contract)}
                        {', '}
                        {t('tenants.card.contractPeriod', {
                          start: day(service.contract.start_date),
                          end: service.contract.end_date
                            ? day(service.contract.end_date)
                            : t('tenants.card.contractOpenEnded'),
                        })}
                      </span>
                    ) : (
                      t('tenants.card.noContract')
                    ),
                  },
                ]}
              />
              <Typography.Text strong>{t('tenants.card.sla')}</Typography.Text>
              <Table
                size="small"
                rowKey="category"
                pagination={false}
                dataSource={service.sla}
                data-testid="tenant-sla"
                columns={[
                  {
                    key: 'category',
                    title: t('tenants.card.slaCategory'),
                    // the SLA row's icon names its priority: shown as the priority's colour
                    render: (_, row) => (
                      <Badge
                        color={INCIDENT_PRIORITY_COLORS[row.category]}
                        text={t(`incidentPriority.${row.category}`)}
                        data-icon={row.icon}
                      />
                    ),
                  },
                  {
                    key: 'hours',
                    title: t('tenants.card.slaHours'),
                    render: (_, row) => t('tenants.card.slaHoursValue', { hours: row.hours }),
                  },
                  {
                    key: 'calendar',
                    title: t('tenants.card.slaMode'),
                    render: (_, row) =>
                      row.calendar ? t('tenants.card.slaCalendar') : t('tenants.card.slaBusiness'),
                  },
                ]}
              />
            </Card>
          ))}
        </Flex>
      )}
    </Card>
  );
}

function Contacts({ contacts }: { contacts: Contact[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('tenants.card.contacts')} data-testid="tenant-contacts">
      <Table<Contact>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={contacts}
        locale={{ emptyText: t('tenants.card.noContacts') }}
        columns={[
          {
            key: 'name',
            title: t('tenants.card.contactName'),
            render: (_, c) => [c.last_name, c.first_name, c.patronimic].filter(Boolean).join(' '),
          },
          {
            key: 'email',
            title: t('tenants.card.email'),
            render: (_, c) =>
              c.email ? (
                <a href={`mailto:${c.email}`}>
                  <MailOutlined aria-hidden /> {c.email}
                </a>
              ) : (
                '—'
              ),
          },
          {
            key: 'work',
            title: t('tenants.card.workPhone'),
            render: (_, c) =>
              c.work_phone ? (
                <a href={`tel:${c.work_phone}`}>
                  <PhoneOutlined aria-hidden /> {c.work_phone}
                </a>
              ) : (
                '—'
              ),
          },
          {
            key: 'mobile',
            title: t('tenants.card.mobilePhone'),
            render: (_, c) =>
              c.mobile_phone ? (
                <a href={`tel:${c.mobile_phone}`}>
                  <PhoneOutlined aria-hidden /> {c.mobile_phone}
                </a>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Card>
  );
}
