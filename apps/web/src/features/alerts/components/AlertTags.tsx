import type { Tag as AlertTag } from '@soc/contracts';
import { SOURCE_TAG_CLIP, TAG_LIST_CLIP } from '@soc/contracts';
import { Flex, Tag, Tooltip } from 'antd';
import { clipTags } from '@/shared/lib/clipTags.ts';
import { ContrastTag } from '@/shared/ui/ContrastTag.tsx';

export type AlertTagsProps = {
  tags: AlertTag[];
  /** The source's own tag, clipped to 24 characters (product §A9). */
  sourceTag?: string;
};

/** Clips `text` to `max` characters with an ellipsis. */
export function clipSourceTag(text: string, max: number = SOURCE_TAG_CLIP): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An alert's tags: the first three, then '+N' with the rest in a tooltip (product §A9). */
export function AlertTags({ tags, sourceTag }: AlertTagsProps) {
  const { shown, hidden } = clipTags(
    tags.map((tag) => tag.name),
    TAG_LIST_CLIP,
  );
  const colorOf = (name: string) => tags.find((tag) => tag.name === name)?.color ?? 'default';
  return (
    <Flex gap={4} wrap data-testid="alert-tags">
      {sourceTag && (
        <Tooltip title={sourceTag.length > SOURCE_TAG_CLIP ? sourceTag : undefined}>
          <Tag bordered={false} data-testid="alert-source-tag">
            {clipSourceTag(sourceTag)}
          </Tag>
        </Tooltip>
      )}
      {shown.map((name) => (
        // the palette colours the tag, the text keeps the theme's colour (WCAG AA in both themes)
        <ContrastTag key={name} color={colorOf(name)}>
          {name}
        </ContrastTag>
      ))}
      {hidden.length > 0 && (
        <Tooltip title={hidden.join(', ')}>
          <Tag data-testid="alert-tags-more">+{hidden.length}</Tag>
        </Tooltip>
      )}
    </Flex>
  );
}
