import { Button, theme } from 'antd';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiDownload } from '@/shared/api/index.ts';
import { API_SRC_ATTRIBUTE, deferApiImages } from '../lib/inlineImages.ts';
import '../i18n/texts.ts';

/** Height of a collapsed body, in lines of body text. */
const COLLAPSED_LINES = 12;

export type DocumentHtmlProps = {
  /** Sanitised HTML from the server. */
  html: string;
  testId: string;
  /** Clip to a few lines with More/Less. */
  collapsible?: boolean;
};

/**
 * Server-rendered, sanitised Markdown. Inline images served by the API are fetched with the
 * Authorization header and shown through object URLs, revoked when the HTML changes or the
 * component unmounts (product §A7).
 */
export function DocumentHtml({ html, testId, collapsible = false }: DocumentHtmlProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const prepared = useMemo(() => deferApiImages(html), [html]);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const collapsedHeight = token.fontSize * token.lineHeight * COLLAPSED_LINES;

  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const controller = new AbortController();
    const urls: string[] = [];
    // Wide screenshots must not push the page sideways.
    for (const image of container.querySelectorAll<HTMLImageElement>('img')) image.style.maxWidth = '100%';
    for (const image of container.querySelectorAll<HTMLImageElement>(`img[${API_SRC_ATTRIBUTE}]`)) {
      const path = image.getAttribute(API_SRC_ATTRIBUTE);
      if (!path) continue;
      apiDownload(path, { signal: controller.signal, notify: false }).then(
        (file) => {
          if (controller.signal.aborted) return;
          const url = URL.createObjectURL(file.blob);
          urls.push(url);
          image.src = url;
        },
        () => {
          if (!controller.signal.aborted) image.setAttribute('data-failed', 'true');
        },
      );
    }
    return () => {
      controller.abort();
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, [prepared]);

  useLayoutEffect(() => {
    const element = ref.current;
    if (collapsible && element) setOverflows(element.scrollHeight > collapsedHeight + 1);
  }, [prepared, collapsible, collapsedHeight]);

  const clipped = collapsible && !expanded;
  return (
    <div>
      <div
        ref={ref}
        data-testid={testId}
        data-expanded={collapsible ? expanded : undefined}
        className="document-rich-text"
        style={{
          maxHeight: clipped ? collapsedHeight : undefined,
          overflow: clipped ? 'hidden' : undefined,
          maskImage: clipped && overflows ? 'linear-gradient(to bottom, black 60%, transparent)' : undefined,
          overflowWrap: 'anywhere',
        }}
        // Rendered from Markdown and sanitised on the server (no scripts, handlers, javascript: links or remote images).
        dangerouslySetInnerHTML={{ __html: prepared }}
      />
      {collapsible && overflows && (
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0 }}
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
          data-testid={`${testId}-toggle`}
        >
          {expanded ? t('docs.page.less') : t('docs.page.more')}
        </Button>
      )}
    </div>
  );
}
