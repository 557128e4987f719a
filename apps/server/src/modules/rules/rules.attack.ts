import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import { attackSource } from '../../integrations/attack/attack.source.ts';
import type { AttackData } from '../../integrations/attack/attack.ts';

/** ATT&CK data for the rules: the imported bundle, else the configured one or the compact file. */
export const rulesAttack = (config: Config, db: Db): (() => Promise<AttackData>) => attackSource(config, db);
