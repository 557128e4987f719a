// The types the sign-in's services share (auth.service.ts, mfa.service.ts and the files of the
// second factor), apart from those services, so that the files they are made of need nothing of them.
import type { FastifyBaseLogger } from 'fastify';
import type { TokenPair } from '@soc/contracts';
import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import type { SmsGateway } from '../../integrations/sms/sms-gateway.ts';
import type { AuthRepository, UserRow } from './auth.repository.ts';

/** Who is calling, for audit entries and session records. */
export interface CallerContext {
  ip: string;
  userAgent: string;
  /** The language of refusals (Accept-Language); English when absent. */
  lang?: 'ru' | 'en';
}

/** What the second-factor service is made with. */
export interface MfaServiceDeps {
  db: Db;
  config: Config;
  users: AuthRepository;
  sms: SmsGateway;
  issueTokens: (user: UserRow, ctx: CallerContext) => Promise<TokenPair>;
  log?: FastifyBaseLogger;
}
