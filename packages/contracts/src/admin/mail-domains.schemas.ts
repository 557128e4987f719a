import { z } from 'zod';

/** A mail domain, e.g. `customer.ru` (lower-cased; no `@`, no wildcard). */
export const MailDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/, {
    error: 'Enter a mail domain such as example.ru.',
  });

/**
 * `GET|PUT /admin/systems/{id}/mail_domains/` (issue 25 item 12): the domains whose addresses may
 * receive this system's reports, besides the addresses of the system's users.
 */
export const SystemMailDomainsSchema = z.object({
  mail_domains: z.array(MailDomainSchema).max(100),
});
export type SystemMailDomains = z.infer<typeof SystemMailDomainsSchema>;

/**
 * The field error of a report recipient outside the systems' users and allowed domains,
 * in the caller's language.
 */
export const refusedRecipientMessage = (address: string, language: 'ru' | 'en') =>
  language === 'en'
    ? `${address} is neither a user of the chosen systems nor in a mail domain an administrator allowed for them.`
    : `Адрес ${address} не принадлежит пользователю выбранных систем и не входит в домены, разрешённые для них администратором.`;
