import type { en } from './locales/en.ts';

/** Same keys as `Shape`, every leaf a string: the type every catalog must satisfy. */
type StringLeaves<Shape> = {
  [Key in keyof Shape]: Shape[Key] extends string ? string : StringLeaves<Shape[Key]>;
};

/** The shape of a translation catalog, taken from the English one. */
export type Catalog = StringLeaves<typeof en>;
