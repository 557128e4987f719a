import { Button, theme } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n/texts.ts';

/** Height of a collapsed section, in lines of body text. */
const COLLAPSED_LINES = 8;

export type CollapsibleHtmlProps = {
  /** Sanitised HTML from the server. */
  html: string;
  testId: string;
};

/**
 * Server-rendered, sanitised HTML clipped to a few lines with More/Less (product §A2 "each
 * with more/less"); the toggle shows only when the content is taller than the clip.
 */
export function CollapsibleHtml({ html, testId }: CollapsibleHtmlProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const collapsedHeight = token.fontSize * token.lineHeight * COLLAPSED_LINES;

  useLayoutEffect(() => {
    const element = ref.current;
    if (element) setOverflows(element.scrollHeight > collapsedHeight + 1);
  }, [html, collapsedHeight]);

  return (
    <div>
      <div
        ref={ref}
        data-testid={testId}
        data-expanded={expanded}
        className="incident-rich-text"
        style={{
          maxHeight: expanded ? undefined : collapsedHeight,
          overflow: 'hidden',
          // A clipped text fades out rather than ending in half a line.
          maskImage:
            overflows && !expanded ? 'linear-gradient(to bottom, black 60%, transparent)' : undefined,
          overflowWrap: 'anywhere',
        }}
        // Rendered from Markdown and sanitised on the server (no scripts, handlers or javascript: links).
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {overflows && (
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0 }}
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
          data-testid={`${testId}-toggle`}
        >
          {expanded ? t('incidentPage.less') : t('incidentPage.more')}
        </Button>
      )}
    </div>
  );
}
