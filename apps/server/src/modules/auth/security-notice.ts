import type { Language } from '@soc/contracts';
import type { Db } from '../../db/client.ts';
import type { auditLog } from '../../db/schema/index.ts';
import type { Mailer, MailMessage } from '../../integrations/mail/mailer.ts';
import { createAuthRepository } from './auth.repository.ts';

type AuditRow = typeof auditLog.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What changed, per audit action (lib/audit.ts SECURITY_NOTICE_ACTIONS), in each language. */
const CHANGES: Record<Language, Record<string, string>> = {
  ru: {
    'auth.password_change': 'Пароль вашей учётной записи изменён.',
    'auth.password_reset': 'Администратор выдал вашей учётной записи новый временный пароль.',
    'auth.totp_enabled': 'Для входа подключено приложение-аутентификатор.',
    'auth.totp_replaced': 'Приложение-аутентификатор для входа заменено новым.',
    'auth.totp_disabled': 'Приложение-аутентификатор для входа отключено.',
    'auth.sms_enabled': 'Для входа подключены коды по SMS.',
    'auth.sms_changed': 'Изменён номер телефона, на который приходят коды для входа.',
    'auth.sms_disabled': 'Коды для входа по SMS отключены.',
    'user.reset_mfa': 'Администратор сбросил второй фактор входа вашей учётной записи.',
    'token.create': 'Создан API-токен вашей учётной записи.',
    'token.revoke': 'Отозван API-токен вашей учётной записи.',
  },
  en: {
    'auth.password_change': 'The password of your account was changed.',
    'auth.password_reset': 'An administrator gave your account a new temporary password.',
    'auth.totp_enabled': 'An authenticator app was set up for signing in.',
    'auth.totp_replaced': 'The authenticator app for signing in was replaced by a new one.',
    'auth.totp_disabled': 'The authenticator app for signing in was turned off.',
    'auth.sms_enabled': 'Sign-in codes by SMS were turned on.',
    'auth.sms_changed': 'The phone number receiving your sign-in codes was changed.',
    'auth.sms_disabled': 'Sign-in codes by SMS were turned off.',
    'user.reset_mfa': 'An administrator reset the second sign-in factor of your account.',
    'token.create': 'An API token of your account was created.',
    'token.revoke': 'An API token of your account was revoked.',
  },
};

const PASSWORD_ACTIONS: ReadonlySet<string> = new Set(['auth.password_change', 'auth.password_reset']);

const TEXTS = {
  ru: {
    subject: 'Уведомление безопасности',
    token: 'Токен',
    when: 'Когда (UTC)',
    ip: 'IP-адрес',
    notYou:
      'Если это сделали не вы, немедленно смените пароль в портале и сообщите администратору ' +
      'или в SOC: вашей учётной записью может пользоваться посторонний.',
    automatic: 'Это автоматическое письмо; в нём никогда нет паролей, кодов и токенов.',
    ended: 'Все сеансы завершены, все персональные API-токены отозваны.',
  },
  en: {
    subject: 'Security notice',
    token: 'Token',
    when: 'When (UTC)',
    ip: 'IP address',
    notYou:
      'If this was not you, change your password in the portal at once and tell your administrator ' +
      'or the SOC: someone else may be using your account.',
    automatic: 'This is an automatic message; it never contains passwords, codes or tokens.',
    ended: 'Every session was ended and every personal API token revoked.',
  },
} as const;

/**
 * The notice about one audit entry in the user's language: what changed, when and from where,
 * and what to do if it was not them. Only the entry's own fields (which never hold secrets) and
 * a token's name go into it.
 */
export function securityNoticeMail(entry: AuditRow, lang: Language): Pick<MailMessage, 'subject' | 'text'> {
  const t = TEXTS[lang];
  const change = CHANGES[lang][entry.action] ?? entry.action;
  const name = typeof entry.details.name === 'string' ? entry.details.name : null;
  const rows = [
    ...(entry.objectType === 'service_token' && name ? [`${t.token}: ${name}`] : []),
    `${t.when}: ${entry.at.toISOString().slice(0, 19).replace('T', ' ')}`,
    `${t.ip}: ${entry.ip || '—'}`,
  ];
  // a new password ends every credential in the same transaction (token.revoke_all, no notice of its own)
  const ended = PASSWORD_ACTIONS.has(entry.action) ? [t.ended] : [];
  return {
    subject: `${t.subject}: ${change.replace(/\.$/, '')}`,
    text: [change, ...ended, '', ...rows, '', t.notYou, '', t.automatic].join('\n'),
  };
}

/**
 * The job handler: mails the notice of an audit entry to the user it concerns (the user named by
 * the entry, or the owner of the token), when that user has an e-mail address.
 */
export function createSecurityNoticeJob({ db, mailer }: { db: Db; mailer: Mailer }) {
  const repo = createAuthRepository(db);
  return async (payload: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const entry = await repo.auditEntry(Number(payload.audit_id));
    if (!entry) return { skipped: 'no audit entry' };
    let userId: number | null = null;
    if (entry.objectType === 'user') userId = Number(entry.objectId);
    else if (entry.objectType === 'service_token' && UUID.test(entry.objectId)) {
      userId = await repo.tokenOwner(entry.objectId);
    }
    if (!userId) return { skipped: 'no user' };
    const user = await repo.mailAddress(userId);
    if (!user?.email) return { skipped: 'no address' };
    await mailer.send({ to: user.email, ...securityNoticeMail(entry, user.locale) });
    return { user: userId };
  };
}
