import { layerScores, type AttackLayer, type RuleCoverage } from '@soc/contracts';

/** A Navigator layer laid over Rules → MITRE ("compare with a layer"). */
export type LayerOverlay = {
  /** The layer's name, as its author gave it. */
  name: string;
  /** Techniques of the layer (enabled ones) by id, with their score. */
  scores: ReadonlyMap<string, number>;
  /** Techniques of the layer that are in the matrix and have no matching rule, sorted. */
  gaps: string[];
  /** Techniques of the layer that have a rule. */
  covered: string[];
  /** Techniques of the layer that the matrix does not show (unknown, revoked or deprecated ids). */
  unknown: string[];
};

/**
 * Compares a layer with the coverage of the current filters: a technique of the layer without a
 * matching rule is a gap.
 */
export function compareLayer(layer: AttackLayer, coverage: RuleCoverage): LayerOverlay {
  const scores = layerScores(layer);
  const counts = new Map(coverage.techniques.map((t) => [t.technique_id, t.count]));
  const gaps: string[] = [];
  const covered: string[] = [];
  const unknown: string[] = [];
  for (const id of [...scores.keys()].sort()) {
    const count = counts.get(id);
    if (count === undefined) unknown.push(id);
    else if (count === 0) gaps.push(id);
    else covered.push(id);
  }
  return { name: layer.name, scores, gaps, covered, unknown };
}
