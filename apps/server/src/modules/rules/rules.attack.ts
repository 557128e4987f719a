import type { Config } from '../../config.ts';
import type { RulesAttackData } from './rules.service.ts';

const EMPTY: RulesAttackData = { available: false, tactics: [], techniques: [], byId: new Map() };

/** ATT&CK data for the rules (placeholder until the shared loader lands). */
export const rulesAttack = (_config: Config) => async (): Promise<RulesAttackData> => EMPTY;
