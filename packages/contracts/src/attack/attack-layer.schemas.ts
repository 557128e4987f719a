import { z } from 'zod';

/**
 * MITRE ATT&CK Navigator layers, format 4.5 (attack-navigator `layers/spec/v4.5/layerformat.md`):
 * the portal exports rule coverage and incident frequency as layers and reads a layer back as an
 * overlay of Rules → MITRE. Every property the format defines is listed with the type it gives;
 * the required ones are `name`, `domain`, `versions.navigator` and `versions.layer`, a technique's
 * `techniqueID`, a gradient's `colors` (two or more), `minValue` and `maxValue` (max > min), a
 * legend item's `label` and `color`, a metadata entry's `name` and `value`, a link's `label` and
 * `url` (with a protocol), a divider's `divider`.
 */
export const ATTACK_LAYER_FORMAT = '4.5';
/** The Navigator version the exported layers name (4.5 layers need at least 4.9.0). */
export const ATTACK_NAVIGATOR_VERSION = '5.2.0';
export const ATTACK_LAYER_DOMAINS = ['enterprise-attack', 'mobile-attack', 'ics-attack'] as const;
/** A layer file read in the browser: larger ones are refused before parsing. */
export const ATTACK_LAYER_MAX_BYTES = 5 * 1024 * 1024;
/** Techniques of one layer (Enterprise has about 700 live techniques and sub-techniques). */
export const ATTACK_LAYER_MAX_TECHNIQUES = 20_000;

export const LAYER_TECHNIQUE_ID = /^T\d{4}(\.\d{3})?$/;

/**
 * Builds the schema of a layer. `strict` (the check of the portal's own layers): no property
 * outside the format, `versions` present with layer "4.5". Otherwise (a layer to import): unknown
 * properties are ignored and any 4.x layer is read, as Navigator keeps them readable.
 */
function layerSchema(strict: boolean) {
  const obj = strict ? z.strictObject : z.object;
  const divider = obj({ divider: z.boolean() });
  const metadata = z.array(z.union([obj({ name: z.string(), value: z.string() }), divider]));
  const links = z.array(
    z.union([obj({ label: z.string(), url: z.string().regex(/^[a-z][a-z0-9+.-]*:\/\//i) }), divider]),
  );
  const technique = obj({
    techniqueID: z.string().regex(LAYER_TECHNIQUE_ID),
    tactic: z.string().optional(),
    comment: z.string().optional(),
    enabled: z.boolean().optional(),
    score: (strict ? z.number() : z.number().nullable()).optional(),
    color: z.string().optional(),
    metadata: metadata.optional(),
    links: links.optional(),
    showSubtechniques: z.boolean().optional(),
  });
  const versions = obj({
    attack: z.string().optional(),
    navigator: z.string(),
    layer: strict ? z.literal(ATTACK_LAYER_FORMAT) : z.string().regex(/^4\.\d+$/),
  });
  return obj({
    versions: strict ? versions : versions.optional(),
    name: z.string(),
    description: z.string().optional(),
    domain: z.enum(ATTACK_LAYER_DOMAINS),
    customDataURL: z.string().optional(),
    filters: obj({ platforms: z.array(z.string()).optional() }).optional(),
    sorting: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
    layout: obj({
      layout: z.enum(['side', 'flat', 'mini']).optional(),
      showID: z.boolean().optional(),
      showName: z.boolean().optional(),
      showAggregateScores: z.boolean().optional(),
      countUnscored: z.boolean().optional(),
      aggregateFunction: z.enum(['average', 'min', 'max', 'sum']).optional(),
      expandedSubtechniques: z.enum(['none', 'all', 'annotated']).optional(),
    }).optional(),
    hideDisabled: z.boolean().optional(),
    techniques: z.array(technique).max(ATTACK_LAYER_MAX_TECHNIQUES).optional(),
    gradient: obj({
      colors: z.array(z.string()).min(2),
      minValue: z.number(),
      maxValue: z.number(),
    })
      .refine((g) => g.maxValue > g.minValue, { message: 'maxValue must be greater than minValue.' })
      .optional(),
    legendItems: z.array(obj({ label: z.string(), color: z.string() })).optional(),
    showTacticRowBackground: z.boolean().optional(),
    tacticRowBackground: z.string().optional(),
    selectTechniquesAcrossTactics: z.boolean().optional(),
    selectSubtechniquesWithParent: z.boolean().optional(),
    selectVisibleTechniques: z.boolean().optional(),
    metadata: metadata.optional(),
    links: links.optional(),
  });
}

/** A layer to import (tolerant of properties newer Navigator versions add). */
export const AttackLayerSchema = layerSchema(false);
export type AttackLayer = z.infer<typeof AttackLayerSchema>;
export type AttackLayerTechnique = NonNullable<AttackLayer['techniques']>[number];

/** A layer as the portal exports it: format 4.5 exactly, nothing outside the format. */
export const AttackLayerExportSchema = layerSchema(true);
export type AttackLayerExport = z.infer<typeof AttackLayerExportSchema>;

/** What reading a layer file gave: the layer, or why it is refused. */
export type AttackLayerParse =
  | { ok: true; layer: AttackLayer }
  | { ok: false; reason: 'too-large' | 'not-json' | 'not-a-layer' | 'not-enterprise'; issues?: string[] };

/**
 * Reads a layer file's text: one layer, or the first of a list of layers (4.5 files may hold
 * several). Only Enterprise layers compare with the portal's matrix.
 */
export function parseAttackLayer(text: string): AttackLayerParse {
  if (text.length > ATTACK_LAYER_MAX_BYTES) return { ok: false, reason: 'too-large' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not-json' };
  }
  const first: unknown = Array.isArray(json) ? json[0] : json;
  const parsed = AttackLayerSchema.safeParse(first);
  if (!parsed.success)
    return {
      ok: false,
      reason: 'not-a-layer',
      issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || 'layer'}: ${i.message}`),
    };
  if (parsed.data.domain !== 'enterprise-attack') return { ok: false, reason: 'not-enterprise' };
  return { ok: true, layer: parsed.data };
}

/**
 * The scores of a layer by technique id: enabled techniques only; a technique listed under
 * several tactics keeps its highest score; an unscored technique counts as 0.
 */
export function layerScores(layer: AttackLayer): Map<string, number> {
  const scores = new Map<string, number>();
  for (const t of layer.techniques ?? []) {
    if (t.enabled === false) continue;
    const score = t.score ?? 0;
    scores.set(t.techniqueID, Math.max(scores.get(t.techniqueID) ?? score, score));
  }
  return scores;
}
