import { DownOutlined, GlobalOutlined, UpOutlined } from '@ant-design/icons';
import type { DocumentCard } from '@soc/contracts';
import { Button, Card, Descriptions, Flex, Tag, theme, Typography, type DescriptionsProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import { DocumentAttachments } from './DocumentAttachments.tsx';
import '../i18n/texts.ts';

export type DocumentMainInfoProps = {
  view: DocumentKindView;
  document: DocumentCard;
  /** Id of the block, for the page's anchors. */
  id: string;
};

/**
 * The Main info block of a card (product §B2): common fields, attachments and a link to the
 * same document in another language when one exists. It can be collapsed.
 */
export function DocumentMainInfo({ view, document, id }: DocumentMainInfoProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const [collapsed, setCollapsed] = useState(false);
  const none = t('docs.panel.none');
  const locale = i18n.language;
  const otherVariants = document.languages.filter((variant) => variant.language !== document.language);
  const bodyId = `${id}-body`;

  const items: DescriptionsProps['items'] = [
    {
      key: 'created',
      label: t('docs.panel.created'),
      children: formatDateTime(Date.parse(document.created), locale),
    },
    {
      key: 'updated',
      label: t('docs.panel.updated'),
      children: formatDateTime(Date.parse(document.updated), locale),
    },
    { key: 'author', label: t('docs.history.author'), children: document.author || none },
    { key: 'language', label: t('docs.panel.language'), children: t(`docs.languages.${document.language}`) },
    {
      key: 'tags',
      label: t('docs.panel.tags'),
      children:
        document.tags.length > 0 ? (
          <Flex gap={token.marginXXS} wrap>
            {document.tags.map((tag) => (
              <Tag key={tag} style={{ marginInlineEnd: 0 }}>
                {tag}
              </Tag>
            ))}
          </Flex>
        ) : (
          none
        ),
    },
    ...(view.hasSensors
      ? [{ key: 'sensors', label: t('docs.panel.sensors'), children: document.sensors.join(', ') || none }]
      : []),
    {
      key: 'attachments',
      label: t('docs.panel.attachments'),
      children: <DocumentAttachments attachments={document.attachments} testId="document-attachments" />,
    },
  ];

  return (
    <Card
      id={id}
      size="small"
      data-testid="document-main-info"
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: token.fontSizeHeading5 }}>
          {t('docs.page.mainInfo')}
        </Typography.Title>
      }
      extra={
        <Button
          type="text"
          size="small"
          icon={collapsed ? <DownOutlined aria-hidden /> : <UpOutlined aria-hidden />}
          aria-expanded={!collapsed}
          aria-controls={bodyId}
          aria-label={collapsed ? t('docs.page.expandMainInfo') : t('docs.page.collapseMainInfo')}
          onClick={() => setCollapsed((value) => !value)}
          data-testid="document-main-info-toggle"
        />
      }
      styles={{ body: collapsed ? { display: 'none' } : undefined }}
    >
      <Flex vertical gap="small" id={bodyId}>
        <Descriptions column={2} size="small" items={items} />
        {otherVariants.map((variant) => (
          <Link
            key={variant.id}
            to={`${view.cardPath}/${variant.id}`}
            lang={variant.language}
            data-testid="document-other-language"
            data-language={variant.language}
          >
            <GlobalOutlined aria-hidden />{' '}
            {t('docs.page.otherLanguage', { language: t(`docs.languages.${variant.language}`) })}
          </Link>
        ))}
      </Flex>
    </Card>
  );
}
