import type { AttackLayerExport } from '@soc/contracts';
import { ATTACK_LAYER_FORMAT, ATTACK_NAVIGATOR_VERSION } from '@soc/contracts';

/** One scored technique of a layer. */
export interface LayerTechnique {
  id: string;
  score: number;
  comment: string;
  /** An explicit colour (the rule bands); absent: Navigator colours by the gradient. */
  color?: string;
}

export interface NavigatorLayerInput {
  name: string;
  description: string;
  /** ATT&CK version of the loaded data; absent when unknown (Navigator then assumes its current one). */
  attackVersion: string | null;
  techniques: LayerTechnique[];
  gradient: { colors: string[]; minValue: number; maxValue: number };
  legend: { label: string; color: string }[];
  /** Navigator's platform filter (the rules' platform filter), when one applies. */
  platforms?: string[];
  /** Name/value pairs shown in the layer's metadata (filters, period, systems). */
  metadata: { name: string; value: string }[];
}

/**
 * An ATT&CK Navigator layer, format 4.5, of domain `enterprise-attack`: every property the format
 * defines is set, so that Navigator opens it the same way whatever its defaults. Techniques carry
 * no tactic: Navigator shows each under every tactic it belongs to.
 */
export function navigatorLayer(input: NavigatorLayerInput): AttackLayerExport {
  const maxValue = Math.max(input.gradient.maxValue, input.gradient.minValue + 1);
  return {
    name: input.name,
    versions: {
      ...(input.attackVersion ? { attack: input.attackVersion } : {}),
      navigator: ATTACK_NAVIGATOR_VERSION,
      layer: ATTACK_LAYER_FORMAT,
    },
    domain: 'enterprise-attack',
    description: input.description,
    filters: input.platforms?.length ? { platforms: input.platforms } : {},
    sorting: 3,
    layout: {
      layout: 'side',
      showID: true,
      showName: true,
      showAggregateScores: false,
      countUnscored: false,
      aggregateFunction: 'average',
      expandedSubtechniques: 'annotated',
    },
    hideDisabled: false,
    techniques: input.techniques.map((t) => ({
      techniqueID: t.id,
      score: t.score,
      ...(t.color ? { color: t.color } : {}),
      comment: t.comment,
      enabled: true,
      metadata: [],
      links: [],
      showSubtechniques: false,
    })),
    gradient: { ...input.gradient, maxValue },
    legendItems: input.legend,
    showTacticRowBackground: false,
    tacticRowBackground: '#dddddd',
    selectTechniquesAcrossTactics: true,
    selectSubtechniquesWithParent: false,
    selectVisibleTechniques: false,
    metadata: input.metadata,
    links: [],
  };
}

/** `Content-Disposition` of a layer download: an ASCII file name. */
export const layerDisposition = (filename: string) => `attachment; filename="${filename}"`;
