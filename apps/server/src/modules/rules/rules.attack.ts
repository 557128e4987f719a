import type { Config } from '../../config.ts';
import { loadAttack } from '../../integrations/attack/attack.ts';
import type { AttackData } from '../../integrations/attack/attack.ts';

/** ATT&CK data for the rules: the shared loader (read once per configuration, kept in memory). */
export const rulesAttack = (config: Config) => (): Promise<AttackData> => loadAttack(config);
