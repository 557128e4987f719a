import { Empty, Flex, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { Catalog } from '../../../shared/i18n/catalog.ts';
import { useDocumentTitle } from '../../../shared/hooks/useDocumentTitle.ts';

/** Catalog key of a page title (`pages.dashboard`, `pages.incident`…). */
export type PageTitleKey = `pages.${keyof Catalog['pages']}`;

export type PlaceholderPageProps = {
  /** Title of the section; route parameters (`incNumber`, `id`) are interpolated into it. */
  titleKey: PageTitleKey;
};

/** Stands in for a section that a later release delivers: its title and a short notice. */
export function PlaceholderPage({ titleKey }: PlaceholderPageProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const params = useParams();
  const title = t(titleKey, { ...params });
  useDocumentTitle(title);

  return (
    <Flex vertical gap="middle" data-testid="placeholder-page">
      <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading2 }}>
        {title}
      </Typography.Title>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        // Typography's secondary colour: the Empty default is too faint for WCAG AA contrast.
        description={<Typography.Text type="secondary">{t('placeholder.notAvailable')}</Typography.Text>}
      />
    </Flex>
  );
}
