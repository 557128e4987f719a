import type { IncidentAction, IncidentCard } from '@soc/contracts';
import { Card, Descriptions, Flex, Tag, theme, Typography, type DescriptionsProps } from 'antd';
import { useMemo, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTimeWithZone } from '@/shared/lib/formatDateTime.ts';
import { RuleNamePopover } from '../../rules/index.ts';
import { wrapText } from '@/shared/lib/wrapText.ts';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';
import { useCommentsQuery } from '../api/useCommentsQuery.ts';
import { AssigneeSelect } from './AssigneeSelect.tsx';
import { AttachmentList } from '@/shared/ui/chat/AttachmentList.tsx';
import { GossopkaControl } from './GossopkaControl.tsx';
import { IncidentActions, type PageAction } from './IncidentActions.tsx';
import { PriorityControl } from './PriorityControl.tsx';
import { RatingBlock } from './RatingForm.tsx';
import { SocAssigneeControl, type SocAssigneeHandle } from './SocAssigneeControl.tsx';
import { resolutionText } from '../lib/resolution.ts';
import '../i18n/texts.ts';

type BlockProps = { title: string; testId: string; children: ReactNode };

/** One titled block of the left column. */
function Block({ title, testId, children }: BlockProps) {
  const { token } = theme.useToken();
  return (
    <Card
      size="small"
      data-testid={testId}
      // Host names, file names and URLs often have no spaces: they break anywhere rather than overflow.
      styles={{ body: { overflowWrap: 'anywhere' } }}
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
          {title}
        </Typography.Title>
      }
    >
      {children}
    </Card>
  );
}

const joined = (values: readonly string[], none: string) => (values.length > 0 ? values.join(', ') : none);

export type MainInfoProps = {
  incident: IncidentCard;
  actions: readonly IncidentAction[] | undefined;
  actionsLoading: boolean;
  onAction: (action: PageAction) => void;
  /** Provider staff: the SOC's actions and the SOC assignee too (design §9). */
  staff?: boolean;
  /** The SOC assignee control, for the page's `m` shortcut. */
  socAssigneeRef?: Ref<SocAssigneeHandle>;
};

/**
 * Status, priority, tenant, categories, dates, SLA, assignee and the workflow actions; for staff
 * also the SOC assignee and the SOC's complete and cancel.
 */
export function MainInfo({
  incident,
  actions,
  actionsLoading,
  onAction,
  staff = false,
  socAssigneeRef,
}: MainInfoProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const none = t('incidentPage.none');
  const locale = i18n.language;
  const items: DescriptionsProps['items'] = [
    {
      key: 'status',
      label: t('incidentPage.mainInfo.status'),
      children: <IncidentStatusTag status={incident.status} testId="incident-status" />,
    },
    {
      key: 'actions',
      label: t('incidentPage.mainInfo.actions'),
      children: (
        <IncidentActions available={actions} loading={actionsLoading} staff={staff} onOpen={onAction} />
      ),
    },
    {
      key: 'priority',
      label: t('incidentPage.mainInfo.priority'),
      children: <PriorityControl incident={incident} />,
    },
    {
      key: 'assignee',
      label: t('incidentPage.mainInfo.assignee'),
      children: <AssigneeSelect incident={incident} />,
    },
    ...(staff
      ? [
          {
            key: 'socAssignee',
            label: t('incidentPage.mainInfo.socAssignee'),
            children: <SocAssigneeControl incidentKey={incident.key} ref={socAssigneeRef} />,
          },
        ]
      : []),
    {
      key: 'system',
      label: t('incidentPage.mainInfo.system'),
      children: `${incident.system.is_id} · ${incident.system.full_name}`,
    },
    { key: 'service', label: t('incidentPage.mainInfo.service'), children: incident.service?.name ?? none },
    { key: 'issueType', label: t('incidentPage.mainInfo.issueType'), children: incident.issuetype_ref.title },
    {
      key: 'category',
      label: t('incidentPage.mainInfo.category'),
      children: joined(
        incident.category_ref.map((category) => category.title),
        none,
      ),
    },
    {
      key: 'additionalCategories',
      label: t('incidentPage.mainInfo.additionalCategories'),
      children: joined(
        incident.secondary_category_ref.map((category) => category.title),
        none,
      ),
    },
    {
      key: 'created',
      label: t('incidentPage.mainInfo.created'),
      children: formatDateTimeWithZone(incident.created, locale),
    },
    {
      key: 'updated',
      label: t('incidentPage.mainInfo.updated'),
      children: formatDateTimeWithZone(incident.updated, locale),
    },
    {
      key: 'sla',
      label: t('incidentPage.mainInfo.sla'),
      children: (
        <Flex gap="small" align="center" wrap data-testid="incident-sla">
          <span>{formatDateTimeWithZone(incident.sla, locale)}</span>
          {incident.sla_breached && (
            <Tag color="error" style={{ color: token.colorText }} data-testid="incident-sla-breached">
              {t('incidentPage.mainInfo.slaBreached')}
            </Tag>
          )}
        </Flex>
      ),
    },
  ];
  return (
    <Block title={t('incidentPage.mainInfo.title')} testId="incident-main-info">
      <Descriptions column={1} size="small" items={items} />
    </Block>
  );
}

export type MoreInfoProps = {
  incident: IncidentCard;
  onRefresh: () => void;
};

/** Reporter, tags, resolution, affected systems, rules, files and the national centre. */
export function MoreInfo({ incident, onRefresh }: MoreInfoProps) {
  const { t, i18n } = useTranslation();
  const none = t('incidentPage.none');
  const locale = i18n.language;
  const resolution = resolutionText(incident, t, locale) ?? none;
  // every file of the incident in one place (issue 40): its own, then those sent with comments
  // (the comments panel's query, so no request of its own)
  const comments = useCommentsQuery(incident.key);
  const commentFiles = useMemo(
    () => (comments.data ?? []).flatMap((comment) => comment.attachments),
    [comments.data],
  );
  const items: DescriptionsProps['items'] = [
    {
      key: 'reporter',
      label: t('incidentPage.moreInfo.reporter'),
      children: incident.reporter_displayName || none,
    },
    {
      key: 'tags',
      label: t('incidentPage.moreInfo.tags'),
      children:
        incident.tags.length > 0 ? (
          <Flex wrap gap="small">
            {incident.tags.map((tag) => (
              <Tag key={tag} style={{ ...wrapText, marginInlineEnd: 0, maxWidth: '100%' }}>
                {tag}
              </Tag>
            ))}
          </Flex>
        ) : (
          none
        ),
    },
    { key: 'resolution', label: t('incidentPage.moreInfo.resolution'), children: resolution },
    {
      key: 'resolutionDate',
      label: t('incidentPage.moreInfo.resolutionDate'),
      children: formatDateTimeWithZone(incident.resolutiondate, locale),
    },
    {
      key: 'activity',
      label: t('incidentPage.moreInfo.activity'),
      children: formatDateTimeWithZone(incident.parsed_activity_detected, locale),
    },
    {
      key: 'affectedSystems',
      label: t('incidentPage.moreInfo.affectedSystems'),
      children: joined(incident.affected_systems, none),
    },
    {
      key: 'detectionRules',
      label: t('incidentPage.moreInfo.detectionRules'),
      children:
        incident.detection_rules.length > 0 ? (
          <Flex wrap gap="small" data-testid="incident-detection-rules">
            {incident.detection_rules.map((name) => (
              <RuleNamePopover key={name} name={name} />
            ))}
          </Flex>
        ) : (
          none
        ),
    },
    {
      key: 'attachments',
      label: t('incidentPage.moreInfo.attachments'),
      children:
        incident.attachments.length + commentFiles.length > 0 ? (
          <Flex vertical gap="small">
            <AttachmentList attachments={incident.attachments} testId="incident-attachments" />
            {commentFiles.length > 0 && (
              <Flex vertical gap={2}>
                <Typography.Text type="secondary">{t('incidentPage.moreInfo.fromComments')}</Typography.Text>
                {/* previewed in the comments already: listed here, not loaded twice */}
                <AttachmentList
                  attachments={commentFiles}
                  testId="incident-comment-attachments"
                  thumbnails={false}
                />
              </Flex>
            )}
          </Flex>
        ) : (
          none
        ),
    },
    {
      // a row like the others (issue 40); its countdown and button wrap within the value
      key: 'gossopka',
      label: t('incidentPage.moreInfo.gossopka'),
      children: <GossopkaControl incident={incident} onRefresh={onRefresh} />,
    },
  ];
  return (
    <Block title={t('incidentPage.moreInfo.title')} testId="incident-more-info">
      <Descriptions column={1} size="small" items={items} />
    </Block>
  );
}

/**
 * Techniques by tactic (mitre_cov), tactics by name in the interface's language. The names come
 * from the catalog rather than the ATT&CK matrix, which is 1.5 MB for fourteen names (issue 28).
 */
export function MitreBlock({ incident }: { incident: IncidentCard }) {
  const { t } = useTranslation();
  const tacticName: Partial<Record<string, string>> = t('incidentPage.mitre.tactics', {
    returnObjects: true,
  });
  const tactics = Object.entries(incident.mitre_cov).filter(([, techniques]) => techniques.length > 0);
  return (
    <Block title={t('incidentPage.mitre.title')} testId="incident-mitre">
      {tactics.length === 0 ? (
        <Typography.Text type="secondary">{t('incidentPage.mitre.empty')}</Typography.Text>
      ) : (
        <Flex vertical gap="small">
          {tactics.map(([tactic, techniques]) => (
            <div key={tactic} data-testid="incident-mitre-tactic" data-tactic={tactic}>
              <Typography.Text type="secondary">{tacticName[tactic] ?? tactic}</Typography.Text>
              <Flex wrap gap="small">
                {techniques.map((technique) => (
                  <Tag key={technique} style={{ marginInlineEnd: 0 }}>
                    {technique}
                  </Tag>
                ))}
              </Flex>
            </div>
          ))}
        </Flex>
      )}
    </Block>
  );
}

/** The rating block (shown for rated incidents and for those that may be rated). */
export function RatingCard({ incident }: { incident: IncidentCard }) {
  const { t } = useTranslation();
  return (
    <Block title={t('incidentPage.rating.title')} testId="incident-rating">
      <RatingBlock incident={incident} />
    </Block>
  );
}
