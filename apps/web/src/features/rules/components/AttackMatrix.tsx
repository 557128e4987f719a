import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import { Button, Flex, theme, Typography } from 'antd';
import { Fragment, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useElementWidth } from '@/shared/hooks/useElementWidth.ts';
import { useTranslation } from 'react-i18next';

/**
 * The narrowest a tactic column gets: wide enough for the longest unbreakable word of an ATT&CK
 * name ("Vulnerabilities", "Reconnaissance") beside a toggle, so that words wrap whole instead of
 * being cut (in pixels: 9.5rem of the 16 px root).
 */
const COLUMN_MIN_PX = 152;
const COLUMN_MIN_WIDTH = `${COLUMN_MIN_PX}px`;

/**
 * Tactics to a row: as many columns as fit the matrix's width, balanced over the rows it then
 * needs (14 tactics in a box for 8 make two rows of 7, not 8 and 6), so that no tactic hides in
 * a sideways-scrolling area; all in one row before the width is known.
 */
export function tacticsPerRow(tactics: number, width: number, gap: number): number {
  if (tactics <= 0 || width <= 0) return Math.max(1, tactics);
  const fit = Math.max(1, Math.floor((width + gap) / (COLUMN_MIN_PX + gap)));
  const rows = Math.ceil(tactics / fit);
  return Math.ceil(tactics / rows);
}

/** One technique (or sub-technique) cell. */
export type AttackMatrixTechnique = {
  id: string;
  /** '' without ATT&CK data: the id stands in for the name. */
  name: string;
  count: number;
  /** The colour band (rules) or heat level (dashboard), for `data-band`. */
  band: string;
  background: string;
  border: string;
  /** The text colour on `background` where the theme's own would read poorly (a strong band). */
  color?: string;
  /** Sub-techniques shown when the cell is opened (none for a sub-technique). */
  subs: AttackMatrixTechnique[];
  /** In a compared layer without a matching rule (Rules → MITRE "compare with a layer"). */
  gap?: boolean;
  /** A sub-technique of this technique is a gap (shown on the closed technique). */
  gapInSubs?: boolean;
};

/** One tactic column. */
export type AttackMatrixTactic = {
  shortName: string;
  name: string;
  techniques: AttackMatrixTechnique[];
};

/** What a click on a cell does: select it, or follow a link. */
export type AttackMatrixAction = {
  /** The count as words, for the cell's title ("7 rules"). */
  countText: (count: number) => string;
  onActivate: (id: string) => void;
  /** Makes each cell a link to this address (the click still goes to `onActivate`). */
  hrefOf?: (id: string) => string;
  /** Marks the selected technique (a pressed button). */
  selectedId?: string | null;
};

/**
 * Soft line breaks after slashes and between the humps of a camel-case word, so that names such
 * as "Virtualization/Sandbox Evasion" or "SyncAppvPublishingServer" wrap on word boundaries
 * rather than overflow their cell or be cut mid-word.
 */
export function breakableName(name: string): ReactNode {
  const parts = name.split(/(?<=\/)|(?<=[a-z])(?=[A-Z])/);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** Words wrap whole; English hyphenation where the browser has it (ATT&CK names are English). */
const wholeWords: CSSProperties = { overflowWrap: 'normal', wordBreak: 'normal', hyphens: 'auto' };

export type AttackMatrixCellProps = AttackMatrixAction & {
  technique: AttackMatrixTechnique;
  sub?: boolean;
  /** Shows the open/close toggle (a technique with sub-techniques). */
  open?: boolean;
  onToggle?: () => void;
  style?: CSSProperties;
};

/** A technique cell: its name with its count ("Brute Force 7"), its id beneath. */
export function AttackMatrixCell({
  technique,
  sub = false,
  open = false,
  onToggle,
  style,
  countText,
  onActivate,
  hrefOf,
  selectedId,
}: AttackMatrixCellProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { id, name, count, gap = false, gapInSubs = false } = technique;
  const selected = selectedId !== undefined ? id === selectedId : undefined;
  const title = `${id}${name ? ` ${name}` : ''}: ${countText(count)}${
    gap ? ` (${t('attackMatrix.gapTitle')})` : gapInSubs ? ` (${t('attackMatrix.gapInSubsTitle')})` : ''
  }`;
  const marked = gap || (gapInSubs && !open);
  const label = (
    <>
      <span lang={name ? 'en' : undefined} style={wholeWords}>
        {breakableName(name || id)}
      </span>
      {count > 0 && (
        <>
          {' '}
          <span
            data-testid="mitre-count"
            style={{ fontWeight: token.fontWeightStrong, whiteSpace: 'nowrap' }}
          >
            {count}
          </span>
        </>
      )}
      {name && (
        // the cell's text colour: the secondary one is too faint on the stronger bands (dark theme)
        <span style={{ display: 'block', fontSize: token.fontSizeSM - 1 }}>{id}</span>
      )}
    </>
  );
  const actionStyle: CSSProperties = {
    all: 'unset',
    cursor: 'pointer',
    flex: '1 1 0',
    minWidth: 0,
    color: technique.color ?? token.colorText,
    fontSize: token.fontSizeSM,
    lineHeight: token.lineHeightSM,
  };
  return (
    <Flex
      align="start"
      gap={2}
      data-testid={sub ? 'mitre-subtechnique' : 'mitre-technique'}
      data-id={id}
      data-band={technique.band}
      data-count={count}
      data-selected={selected}
      data-open={onToggle ? open : undefined}
      data-gap={gap || undefined}
      data-gap-subs={gapInSubs || undefined}
      style={{
        padding: `${token.paddingXXS}px ${token.paddingXS}px`,
        borderRadius: token.borderRadiusSM,
        background: gap ? token.colorErrorBg : technique.background,
        // a gap of a compared layer: a dashed error border (the selection's solid one wins)
        border: selected
          ? `2px solid ${token.colorPrimary}`
          : marked
            ? `2px dashed ${token.colorError}`
            : `${token.lineWidth}px solid ${technique.border}`,
        minWidth: 0,
        ...style,
      }}
    >
      {onToggle && (
        <Button
          type="text"
          size="small"
          icon={open ? <CaretDownOutlined aria-hidden /> : <CaretRightOutlined aria-hidden />}
          aria-expanded={open}
          aria-label={t(open ? 'attackMatrix.close' : 'attackMatrix.open', { id })}
          onClick={onToggle}
          data-testid="mitre-technique-toggle"
          style={{ flex: 'none', width: 'auto', minWidth: 0, height: 'auto', paddingInline: 0 }}
        />
      )}
      {hrefOf ? (
        <a
          href={hrefOf(id)}
          title={title}
          data-testid="mitre-cell-text"
          onClick={(event) => {
            event.preventDefault();
            onActivate(id);
          }}
          style={actionStyle}
        >
          {label}
        </a>
      ) : (
        <button
          type="button"
          title={title}
          data-testid="mitre-cell-text"
          aria-pressed={selected}
          onClick={() => onActivate(id)}
          style={actionStyle}
        >
          {label}
        </button>
      )}
    </Flex>
  );
}

export type AttackMatrixProps = AttackMatrixAction & {
  tactics: AttackMatrixTactic[];
  label: string;
};

/**
 * The ATT&CK matrix (product §A9, product §B4): tactics as columns, as many to a row as fit
 * (balanced over the rows), techniques as
 * cells. Opening a technique widens its tactic by a column and lists its sub-techniques there,
 * one row each, beside the technique. Shared by the dashboard and Rules → MITRE.
 */
export function AttackMatrix({ tactics, label, ...action }: AttackMatrixProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpened((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const isOpen = (tactic: AttackMatrixTactic, technique: AttackMatrixTechnique) =>
    technique.subs.length > 0 && opened.has(`${tactic.shortName}:${technique.id}`);
  const widened = (tactic: AttackMatrixTactic) => tactic.techniques.some((x) => isOpen(tactic, x));

  const box = useRef<HTMLDivElement>(null);
  const perRow = tacticsPerRow(tactics.length, useElementWidth(box), token.marginXXS);
  const rows: AttackMatrixTactic[][] = [];
  for (let i = 0; i < tactics.length; i += perRow) rows.push(tactics.slice(i, i + perRow));

  const column = (tactic: AttackMatrixTactic) => {
    const wide = widened(tactic);
    let row = 2;
    const cells = tactic.techniques.flatMap((technique) => {
      const key = `${tactic.shortName}:${technique.id}`;
      const open = isOpen(tactic, technique);
      const start = row;
      row += open ? technique.subs.length : 1;
      const toggleOf = technique.subs.length > 0 ? () => toggle(key) : undefined;
      return [
        <AttackMatrixCell
          key={key}
          {...action}
          technique={technique}
          open={open}
          onToggle={toggleOf}
          style={{
            gridColumn: open ? '1' : '1 / -1',
            gridRow: `${start} / span ${open ? technique.subs.length : 1}`,
            alignSelf: open ? 'stretch' : undefined,
          }}
        />,
        ...(open
          ? technique.subs.map((sub, index) => (
              <AttackMatrixCell
                key={`${key}:${sub.id}`}
                {...action}
                technique={sub}
                sub
                style={{ gridColumn: '2', gridRow: `${start + index}` }}
              />
            ))
          : []),
      ];
    });
    return (
      <div
        key={tactic.shortName}
        data-testid="mitre-tactic"
        data-tactic={tactic.shortName}
        data-wide={wide}
        style={{
          display: 'grid',
          gridTemplateColumns: wide ? 'repeat(2, minmax(0, 1fr))' : 'minmax(0, 1fr)',
          gap: token.marginXXS,
          alignContent: 'start',
          minWidth: 0,
        }}
      >
        <div style={{ gridColumn: '1 / -1', gridRow: '1' }} data-testid={`mitre-tactic-${tactic.shortName}`}>
          <Typography.Text
            strong
            lang="en"
            style={{ display: 'block', fontSize: token.fontSizeSM, ...wholeWords }}
          >
            {tactic.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ display: 'block', fontSize: token.fontSizeSM }}>
            {t('attackMatrix.techniques', { count: tactic.techniques.length })}
          </Typography.Text>
        </div>
        {cells}
      </div>
    );
  };

  return (
    // an opened technique widens its tactic: only then may the matrix scroll sideways
    <div
      ref={box}
      role="group"
      aria-label={label}
      data-testid="mitre-grid"
      data-per-row={perRow}
      style={{ overflowX: 'auto', minWidth: 0 }}
    >
      <Flex vertical gap="small">
        {rows.map((tacticsOfRow, index) => (
          <div
            key={index}
            style={{
              display: 'grid',
              // every row has the same tracks, so that a short last row keeps the columns' width
              gridTemplateColumns: Array.from({ length: perRow }, (_, slot) =>
                tacticsOfRow[slot] && widened(tacticsOfRow[slot])
                  ? `minmax(calc(2 * ${COLUMN_MIN_WIDTH}), 2fr)`
                  : `minmax(${COLUMN_MIN_WIDTH}, 1fr)`,
              ).join(' '),
              gap: token.marginXXS,
              alignItems: 'start',
            }}
          >
            {tacticsOfRow.map(column)}
          </div>
        ))}
      </Flex>
    </div>
  );
}
