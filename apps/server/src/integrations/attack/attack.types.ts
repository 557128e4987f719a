// The shapes of MITRE ATT&CK data, apart from the loader (attack.ts) and the compact file's
// reader (attack.compact.ts), which both use them.

/**
 * MITRE ATT&CK Enterprise read from MITRE's STIX 2.1 bundle (`enterprise-attack.json`, design §2):
 * the tactics in the order of the matrix and every technique and sub-technique, revoked and
 * deprecated ones flagged. Other object types of the bundle are ignored.
 */
export interface AttackTactic {
  /** `TA0001` */
  id: string;
  name: string;
  /** `initial-access`: the kill-chain phase name techniques refer to. */
  shortName: string;
  description: string;
  url: string;
  isDeprecated: boolean;
}

export interface AttackTechnique {
  /** `T1059` or `T1059.001` */
  id: string;
  name: string;
  url: string;
  description: string;
  /** Tactic short names, in matrix order. */
  tactics: string[];
  isSubtechnique: boolean;
  /** The parent's id, for a sub-technique. */
  parentId: string | null;
  /** Ids of the sub-techniques, sorted. */
  subTechniques: string[];
  isRevoked: boolean;
  isDeprecated: boolean;
  /** `x_mitre_platforms` (Windows, Linux, …): the rules' coverage by platform. */
  platforms: string[];
}

export interface AttackData {
  /** True when a bundle was read; false: no data (names unknown). */
  available: boolean;
  /** Where the data came from (a path, or `database import #3`), for logs. */
  source: string | null;
  /** What the data came from, for the UI: a configured or downloaded bundle, an import, the repository's compact file. */
  origin?: 'bundle' | 'import' | 'compact';
  /** ATT&CK release (`18.1`) of the bundle's collection object, when the bundle has one. */
  version: string | null;
  tactics: AttackTactic[];
  /** Techniques and sub-techniques, sorted by id. */
  techniques: AttackTechnique[];
  byId: Map<string, AttackTechnique>;
}
