/** Tag lists show this many tags, then '+N' (product §A9). */
export const VISIBLE_TAGS = 3;

/** The tags to show and those hidden behind '+N'. */
export function clipTags(
  tags: readonly string[],
  visible: number = VISIBLE_TAGS,
): { shown: string[]; hidden: string[] } {
  return { shown: tags.slice(0, visible), hidden: tags.slice(visible) };
}
