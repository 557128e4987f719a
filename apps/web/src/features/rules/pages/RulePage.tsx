import { RULE_BREADCRUMB_TRUNCATE, RULE_PAGE_TITLE_TRUNCATE, type IncidentListItem } from '@soc/contracts';
import { Breadcrumb, Button, Collapse, Empty, Flex, Result, Skeleton, Tabs, theme, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '@/shared/api/index.ts';
import { useDocumentTitle } from '@/shared/hooks/useDocumentTitle.ts';
import { useLanguage } from '@/shared/hooks/useLanguage.ts';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { IncidentPriorityTag } from '@/shared/ui/IncidentPriorityTag.tsx';
import { IncidentStatusTag } from '@/shared/ui/IncidentStatusTag.tsx';
import { InfiniteFeed } from '@/shared/ui/InfiniteFeed.tsx';
import { SplitColumns } from '@/shared/ui/PhoneLayout.tsx';
import { useRuleIncidentsInfiniteQuery } from '../api/useRuleIncidentsInfiniteQuery.ts';
import { useRuleQuery } from '../api/useRuleQuery.ts';
import {
  RuleLinks,
  RuleMitre,
  RuleOrigin,
  RuleProperties,
  RuleSensors,
  RuleSummary,
} from '../components/RuleDetails.tsx';
import { RuleYaml } from '../components/RuleYaml.tsx';
import { ruleCaption, ruleDescription, truncate } from '../lib/ruleQuery.ts';
import '../i18n/texts.ts';

const PANELS = ['main', 'mitre', 'sensors'] as const;
/** The related incidents scroll inside the tab and fetch the next page near the end (product §B4). */
const FEED_HEIGHT = 'max(24rem, calc(100vh - 20rem))';
const ROW_HEIGHT = 48;

/**
 * /rule/{id} (product §B2 Rule page, product §A2): breadcrumb (title cut to 35), collapsible
 * panels main info, MITRE and sensors (open by default, expand/collapse all), and the tabs Main
 * info and Related incidents. An imported rule's main info adds its origin with the licence and
 * its YAML, read-only and highlighted (issue 30).
 */
export function RulePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const language = useLanguage();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useRuleQuery(valid ? id : 0);
  const rule = query.data;
  const caption = rule ? ruleCaption(rule, language) : '';
  useDocumentTitle(rule ? truncate(caption, RULE_PAGE_TITLE_TRUNCATE) : t('pages.rule', { id }));
  const [open, setOpen] = useState<string[]>([...PANELS]);
  const [tab, setTab] = useState('main');

  const breadcrumb = (
    <Breadcrumb
      data-testid="rule-breadcrumbs"
      items={[
        { title: <Link to="/dashboard">{t('rules.page.breadcrumbDashboard')}</Link> },
        { title: <Link to="/docs/rules">{t('rules.page.breadcrumbRules')}</Link> },
        {
          title: (
            <span aria-current="page" title={caption} data-testid="rule-breadcrumb-title">
              {rule ? truncate(caption, RULE_BREADCRUMB_TRUNCATE) : id}
            </span>
          ),
        },
      ]}
    />
  );

  if (!valid || (query.isError && query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <Flex vertical gap="middle" data-testid="rule-page">
        {breadcrumb}
        <Result
          status="404"
          title={t('rules.page.notFound')}
          extra={<Link to="/docs/rules">{t('rules.page.back')}</Link>}
          data-testid="rule-not-found"
        />
      </Flex>
    );
  }
  if (query.isError) {
    return (
      <Flex vertical gap="middle" data-testid="rule-page">
        {breadcrumb}
        <Result
          status="error"
          title={t('rules.page.loadFailed')}
          extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
          data-testid="rule-error"
        />
      </Flex>
    );
  }
  if (!rule) {
    return (
      <Flex vertical gap="middle" data-testid="rule-page" role="status" aria-label={t('common.loading')}>
        {breadcrumb}
        <Skeleton active paragraph={{ rows: 8 }} />
      </Flex>
    );
  }

  const description = ruleDescription(rule, language);
  const allOpen = open.length === PANELS.length;
  return (
    <Flex vertical gap="middle" data-testid="rule-page" data-id={rule.id}>
      {breadcrumb}
      <Flex align="center" gap="middle" wrap>
        <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3, flex: 1 }}>
          {caption}
        </Typography.Title>
        <Button onClick={() => setOpen(allOpen ? [] : [...PANELS])} data-testid="rule-toggle-all">
          {allOpen ? t('rules.page.collapseAll') : t('rules.page.expandAll')}
        </Button>
      </Flex>
      <SplitColumns
        sideWidth="30rem"
        side={
          <Collapse
            activeKey={open}
            onChange={(keys) => setOpen(Array.isArray(keys) ? keys : [keys])}
            items={[
              {
                key: 'main',
                label: t('rules.page.mainInfo'),
                children: (
                  <>
                    <RuleSummary rule={rule} />
                    <RuleProperties rule={rule} />
                  </>
                ),
              },
              {
                key: 'mitre',
                label: t('rules.panel.mitre'),
                children: Object.keys(rule.mitre_cov).length ? <RuleMitre rule={rule} /> : '—',
              },
              { key: 'sensors', label: t('rules.panel.sensors'), children: <RuleSensors rule={rule} /> },
            ]}
            data-testid="rule-panels"
          />
        }
        main={
          <Tabs
            activeKey={tab}
            onChange={setTab}
            data-testid="rule-tabs"
            items={[
              {
                key: 'main',
                label: t('rules.page.mainInfo'),
                children: (
                  <Flex vertical gap="middle" data-testid="rule-main-tab">
                    <section>
                      <Typography.Title level={2} style={{ fontSize: token.fontSizeHeading5 }}>
                        {t('rules.panel.description')}
                      </Typography.Title>
                      {description ? (
                        <Typography.Paragraph data-testid="rule-description">
                          {description}
                        </Typography.Paragraph>
                      ) : (
                        <Typography.Text type="secondary">{t('rules.panel.noDescription')}</Typography.Text>
                      )}
                    </section>
                    <section>
                      <Typography.Title level={2} style={{ fontSize: token.fontSizeHeading5 }}>
                        {t('rules.panel.links')}
                      </Typography.Title>
                      <RuleLinks rule={rule} />
                    </section>
                    {rule.source && (
                      <section>
                        <Typography.Title level={2} style={{ fontSize: token.fontSizeHeading5 }}>
                          {t('rules.origin.title')}
                        </Typography.Title>
                        <RuleOrigin rule={rule} />
                      </section>
                    )}
                    {rule.source_yaml !== null && (
                      <section>
                        <Typography.Title level={2} style={{ fontSize: token.fontSizeHeading5 }}>
                          {t('rules.origin.yaml')}
                        </Typography.Title>
                        <RuleYaml source={rule.source_yaml} />
                      </section>
                    )}
                  </Flex>
                ),
              },
              {
                key: 'incidents',
                label: t('rules.page.relatedIncidents'),
                children: <RuleIncidents ruleId={rule.id} enabled={tab === 'incidents'} />,
              },
            ]}
          />
        }
      />
    </Flex>
  );
}

function RuleIncidents({ ruleId, enabled }: { ruleId: number; enabled: boolean }) {
  const { t } = useTranslation();
  const query = useRuleIncidentsInfiniteQuery(ruleId, enabled);
  const incidents = useMemo(() => {
    const seen = new Set<number>();
    const rows: IncidentListItem[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const incident of page.results) {
        if (!seen.has(incident.key)) {
          seen.add(incident.key);
          rows.push(incident);
        }
      }
    }
    return rows;
  }, [query.data]);
  const total = query.data?.pages.at(-1)?.total ?? 0;
  if (query.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (query.isError && !query.data) {
    return (
      <Result
        status="error"
        title={t('rules.page.incidentsFailed')}
        extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  if (incidents.length === 0) {
    return <Empty description={t('rules.page.incidentsEmpty')} data-testid="rule-incidents-empty" />;
  }
  return (
    <Flex vertical gap="small" data-testid="rule-incidents">
      <Typography.Text type="secondary" data-testid="rule-incidents-total">
        {t('rules.list.total', { low: 1, high: incidents.length, total })}
      </Typography.Text>
      <InfiniteFeed
        items={incidents}
        getKey={(incident) => incident.key}
        renderItem={(incident) => <RuleIncidentRow incident={incident} />}
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        nextPageFailed={query.isFetchNextPageError}
        fetchNextPage={() => void query.fetchNextPage()}
        height={FEED_HEIGHT}
        label={t('rules.page.relatedIncidents')}
        testId="rule-incidents-feed"
        estimateSize={ROW_HEIGHT}
      />
    </Flex>
  );
}

function RuleIncidentRow({ incident }: { incident: IncidentListItem }) {
  const { i18n } = useTranslation();
  const { token } = theme.useToken();
  return (
    <Flex
      gap="small"
      align="center"
      data-testid="rule-incident"
      data-key={incident.key}
      style={{
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        padding: `${token.paddingXS}px ${token.paddingSM}px`,
      }}
    >
      <Link to={`/inc/${incident.key}`}>{incident.key}</Link>
      <Typography.Text style={{ flex: 1, minWidth: 0 }} ellipsis={{ tooltip: incident.summary }}>
        {incident.summary}
      </Typography.Text>
      <IncidentPriorityTag priority={incident.priority} />
      <IncidentStatusTag status={incident.status} />
      <Typography.Text type="secondary">{formatDateTime(incident.created, i18n.language)}</Typography.Text>
    </Flex>
  );
}
