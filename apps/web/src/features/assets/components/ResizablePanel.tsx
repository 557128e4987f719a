import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Flex, theme } from 'antd';
import type { KeyboardEvent, PointerEvent as ReactPointerEvent, ReactNode } from 'react';
import { useState } from 'react';

export type ResizablePanelProps = {
  minWidth: number;
  maxWidth: number;
  title: ReactNode;
  collapseLabel: string;
  expandLabel: string;
  resizeLabel: string;
  children: ReactNode;
  testId: string;
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * A right-hand side panel that collapses to a bar and is resized by dragging its left edge
 * (or with the arrow keys on that edge), between `minWidth` and `maxWidth` pixels.
 */
export function ResizablePanel({
  minWidth,
  maxWidth,
  title,
  collapseLabel,
  expandLabel,
  resizeLabel,
  children,
  testId,
}: ResizablePanelProps) {
  const { token } = theme.useToken();
  const [width, setWidth] = useState(minWidth);
  const [collapsed, setCollapsed] = useState(false);

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const startX = event.clientX;
    const startWidth = width;
    // the handle is on the left edge: moving left widens the panel
    const move = (e: PointerEvent) => setWidth(clamp(startWidth + startX - e.clientX, minWidth, maxWidth));
    const stop = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', stop);
      window.removeEventListener('pointercancel', stop);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', stop);
    window.addEventListener('pointercancel', stop);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 50 : 10;
    if (event.key === 'ArrowLeft') setWidth((w) => clamp(w + step, minWidth, maxWidth));
    else if (event.key === 'ArrowRight') setWidth((w) => clamp(w - step, minWidth, maxWidth));
    else return;
    event.preventDefault();
  };

  if (collapsed) {
    return (
      <Flex
        vertical
        align="center"
        style={{
          borderInlineStart: `1px solid ${token.colorBorderSecondary}`,
          paddingInline: token.paddingXXS,
        }}
        data-testid={testId}
        data-collapsed="true"
      >
        <Button
          type="text"
          icon={<LeftOutlined aria-hidden />}
          aria-label={expandLabel}
          title={expandLabel}
          onClick={() => setCollapsed(false)}
          data-testid={`${testId}-expand`}
        />
      </Flex>
    );
  }
  return (
    <Flex
      style={{ width, flex: `0 0 ${width}px` }}
      data-testid={testId}
      data-collapsed="false"
      data-width={width}
    >
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={resizeLabel}
        title={resizeLabel}
        aria-valuemin={minWidth}
        aria-valuemax={maxWidth}
        aria-valuenow={width}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
        style={{
          width: 6,
          cursor: 'col-resize',
          flex: '0 0 6px',
          borderInlineStart: `1px solid ${token.colorBorderSecondary}`,
          touchAction: 'none',
        }}
        data-testid={`${testId}-handle`}
      />
      <Flex
        vertical
        gap="small"
        style={{
          flex: 1,
          minWidth: 0,
          paddingInlineStart: token.paddingSM,
          // the details stay in view while the list beside them scrolls
          position: 'sticky',
          top: token.margin,
          alignSelf: 'flex-start',
        }}
      >
        <Flex align="center" justify="space-between">
          <strong>{title}</strong>
          <Button
            type="text"
            size="small"
            icon={<RightOutlined aria-hidden />}
            aria-label={collapseLabel}
            title={collapseLabel}
            onClick={() => setCollapsed(true)}
            data-testid={`${testId}-collapse`}
          />
        </Flex>
        {children}
      </Flex>
    </Flex>
  );
}
