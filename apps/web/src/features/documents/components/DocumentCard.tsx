import type { DocumentListItem } from '@soc/contracts';
import { Flex, Tag, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '@/shared/lib/formatDateTime.ts';
import { clipText } from '@/shared/ui/clipText.ts';
import { FeedCard } from '@/shared/ui/FeedCard.tsx';
import type { DocumentKindView } from '../lib/documentKinds.ts';
import '../i18n/texts.ts';

/** Lines of the summary a card shows before its ellipsis. */
const SUMMARY_ROWS = 3;

export type DocumentCardProps = {
  view: DocumentKindView;
  document: DocumentListItem;
  /** The card whose summary the side panel shows. */
  selected: boolean;
  /** Position in the whole list (1-based) and its length, for assistive technology. */
  position: number;
  setSize: number;
  onSelect: (id: number) => void;
};

/** One document of a list: selected by click, Enter or Space; its title links to the card. */
export function DocumentCard({ view, document, selected, position, setSize, onSelect }: DocumentCardProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const titleId = `document-card-title-${document.id}`;

  return (
    <FeedCard
      titleId={titleId}
      selected={selected}
      position={position}
      setSize={setSize}
      onSelect={() => onSelect(document.id)}
      testId="document-card"
      data={{ 'data-id': document.id }}
    >
      <Flex vertical gap={token.marginXXS}>
        <Flex align="center" gap="small">
          <Link
            id={titleId}
            to={`${view.cardPath}/${document.id}`}
            onClick={(event) => event.stopPropagation()}
            data-testid="document-card-link"
            // on the selected card's tinted background the link colour falls under 4.5:1 in the
            // dark theme: body colour there, underlined so that it still reads as a link
            style={{
              fontWeight: token.fontWeightStrong,
              ...clipText,
              ...(selected ? { color: token.colorText, textDecoration: 'underline' } : {}),
            }}
            title={document.title}
          >
            {document.title || t('docs.list.noTitle')}
          </Link>
          <Tag style={{ marginInlineStart: 'auto', marginInlineEnd: 0 }}>
            {document.language.toUpperCase()}
          </Tag>
        </Flex>
        {document.summary && (
          <Typography.Paragraph
            type="secondary"
            ellipsis={{ rows: SUMMARY_ROWS }}
            // the server puts each paragraph and list item on a line of its own
            style={{ marginBottom: 0, whiteSpace: 'pre-line' }}
            data-testid="document-card-summary"
          >
            {document.summary}
          </Typography.Paragraph>
        )}
        <Flex gap="middle" align="center" wrap>
          <Typography.Text type="secondary">
            {t('docs.panel.updated')}:{' '}
            <time dateTime={document.updated}>
              {formatDateTime(Date.parse(document.updated), i18n.language)}
            </time>
          </Typography.Text>
          {document.tags.length > 0 && (
            <Flex gap={token.marginXXS} wrap>
              {document.tags.map((tag) => (
                <Tag key={tag} style={{ marginInlineEnd: 0 }}>
                  {tag}
                </Tag>
              ))}
            </Flex>
          )}
        </Flex>
      </Flex>
    </FeedCard>
  );
}
