import { z } from 'zod';

/** Minimum password length (product §A5, §A9). */
export const PASSWORD_MIN_LENGTH = 9;
/** Length of the second-factor PIN (product §A9). */
export const MFA_PIN_LENGTH = 6;
/** Seconds before another second-factor code may be requested, unless the server says otherwise. */
export const MFA_DEFAULT_TIMEOUT_S = 60;
/** Failed sign-ins in a row (per username or per IP) before further attempts get 429. */
export const LOGIN_MAX_FAILURES = 10;
/** How long a throttled username or IP has to wait, in seconds. */
export const LOGIN_LOCK_SECONDS = 15 * 60;

/** Server-side messages for the password rules; the web app shows its own translated texts. */
export const PASSWORD_MESSAGES = {
  required: 'This field is required',
  tooShort: `Minimum password length is ${PASSWORD_MIN_LENGTH}`,
  numeric: 'Password should be not entirely numeric',
  mismatch: 'Must match',
  oldWrong: 'Your old password was entered incorrectly. Please enter it again.',
  sameAsOld: 'The new password must differ from the old one',
  common: 'This password is too common. Please choose another one.',
} as const;

const requiredString = z
  .string({ error: PASSWORD_MESSAGES.required })
  .min(1, { error: PASSWORD_MESSAGES.required });

/** True when a password is made of digits only (product §A5). */
export const isEntirelyNumeric = (value: string): boolean => /^\d+$/.test(value);

/** True when a string holds a control character (C0 or C1, NUL and DEL included): never in a password. */
export const hasControlCharacter = (value: string): boolean => /\p{Cc}/u.test(value);

/** A new password: 9 or more characters and at least one letter or non-word character. */
export const NewPasswordSchema = requiredString
  .max(256)
  .refine((v) => v.length >= PASSWORD_MIN_LENGTH, { error: PASSWORD_MESSAGES.tooShort })
  .refine((v) => !isEntirelyNumeric(v), { error: PASSWORD_MESSAGES.numeric });

/** POST /auth/token/obtain/ */
export const TokenObtainRequestSchema = z.object({
  /** Login name, case-insensitive. */
  username: requiredString.max(150),
  password: requiredString.max(256),
});
export type TokenObtainRequest = z.infer<typeof TokenObtainRequestSchema>;

/** Access and refresh tokens issued on sign-in and on refresh. */
export const TokenPairSchema = z.object({
  /** Short-lived signed JWT for the Authorization header. */
  access: z.string(),
  /** Long-lived opaque token; each use returns a new one (rotation). */
  refresh: z.string(),
  /**
   * True while the password is an administrator's temporary one: the client opens the password
   * change, the only call (besides sign-out and the current user) the API then answers.
   */
  must_change_password: z.boolean().optional(),
});
export type TokenPair = z.infer<typeof TokenPairSchema>;

/** Sign-in answer when the user has a second factor: a code has been sent. */
export const MfaPendingSchema = z.object({
  mfa_token: z.string(),
  /** Seconds before another code may be requested. */
  generate_challenge_timeout: z.number().int().nonnegative(),
  /** Where the code comes from: an SMS (default) or the user's authenticator app (no resend). */
  method: z.enum(['sms', 'totp']).optional(),
});
export type MfaPending = z.infer<typeof MfaPendingSchema>;

export const TokenObtainResponseSchema = z.union([TokenPairSchema, MfaPendingSchema]);
export type TokenObtainResponse = z.infer<typeof TokenObtainResponseSchema>;

/** Wrong second-factor codes after which the mfa_token is invalidated (a new sign-in is needed). */
export const MFA_MAX_FAILURES = 5;
/** Lifetime of one second-factor code, in seconds. */
export const MFA_CODE_TTL_S = 5 * 60;

/** Server-side messages of the second-factor steps (product §A4, §A8). */
export const MFA_MESSAGES = {
  pinFormat: 'Enter the 6-digit code',
  wrongCode: 'Invalid code',
  codeExpired: 'The code has expired. Request a new one.',
  /** The "new token" error: the mfa_token is gone and the client must sign in again. */
  tokenInvalid: 'The confirmation session has expired or was closed. Sign in again.',
  sendFailed: 'The code could not be sent. Try again later.',
  totpNoResend: 'Use the current code of your authenticator app.',
  totpNotStarted: 'Start the authenticator app set-up first.',
  noSmsFactor: 'No phone number receives codes for this account.',
} as const;

/**
 * Answers (`{detail}`, 403) of a change of second factors whose proof was wrong, per language:
 * the server picks one by Accept-Language.
 */
export const MFA_CHANGE_MESSAGES = {
  ru: {
    wrongPassword: 'Неверный пароль. Изменение второго фактора не выполнено.',
    wrongCode: 'Неверный или устаревший код второго фактора. Изменение не выполнено.',
    codeRequired: 'Введите текущий код второго фактора.',
  },
  en: {
    wrongPassword: 'Wrong password. The second factor was not changed.',
    wrongCode: 'Wrong or expired second-factor code. The second factor was not changed.',
    codeRequired: 'Enter the current code of your second factor.',
  },
} as const;

/** Answers of the API while a temporary password has to be changed, and of its expiry, per language. */
export const TEMPORARY_PASSWORD_MESSAGES = {
  ru: {
    mustChange: 'Смените временный пароль, выданный администратором, чтобы продолжить работу.',
    expired: 'Срок действия временного пароля истёк. Обратитесь к администратору за новым паролем.',
  },
  en: {
    mustChange: 'Change the temporary password given by the administrator to continue.',
    expired: 'The temporary password has expired. Ask your administrator for a new one.',
  },
} as const;

/** How long a temporary password given by an administrator signs in. */
export const TEMPORARY_PASSWORD_TTL_HOURS = 72;

const mfaTokenField = requiredString.max(128);
/** A second-factor code: exactly 6 digits (product §A5). */
const pinField = z
  .string({ error: PASSWORD_MESSAGES.required })
  .regex(new RegExp(`^\\d{${MFA_PIN_LENGTH}}$`), { error: MFA_MESSAGES.pinFormat });

/** POST /auth/token/mfa/obtain/ */
export const MfaObtainRequestSchema = z.object({
  /** Token of the pending sign-in, from the password step. */
  mfa_token: mfaTokenField,
  /** The 6-digit code received by SMS or shown by the authenticator app. */
  otp: pinField,
});
export type MfaObtainRequest = z.infer<typeof MfaObtainRequestSchema>;

/** POST /auth/token/mfa/generate_challenge/ */
export const MfaChallengeRequestSchema = z.object({ mfa_token: mfaTokenField });
export type MfaChallengeRequest = z.infer<typeof MfaChallengeRequestSchema>;

/** GET /auth/mfa/: the second factors of the signed-in user. */
export const MfaStatusSchema = z.object({
  /** Codes by SMS to the phone on file (set by the provider's staff). */
  sms: z.boolean(),
  /** An authenticator app is confirmed; it then replaces the SMS at sign-in. */
  totp: z.boolean(),
});
export type MfaStatus = z.infer<typeof MfaStatusSchema>;

/** POST /auth/mfa/totp/setup/: a new secret, not active until confirmed with a code. */
export const TotpSetupResponseSchema = z.object({
  /** Base32 secret for entering by hand. */
  secret: z.string(),
  /** `otpauth://` URI for apps that import it. */
  otpauth_url: z.string(),
});
export type TotpSetupResponse = z.infer<typeof TotpSetupResponseSchema>;

const optionalPin = pinField.optional();

/**
 * What a change of second factors needs: the password, and while a factor is on, its current code
 * (of the authenticator app, or by SMS from POST /auth/mfa/code/ when only the SMS factor is on).
 */
export const MfaChangeProofSchema = z.object({
  password: requiredString.max(256),
  /** The current code of the active second factor; required while one is on. */
  otp: optionalPin,
});
export type MfaChangeProof = z.infer<typeof MfaChangeProofSchema>;

/** POST /auth/mfa/totp/setup/ */
export const TotpSetupRequestSchema = MfaChangeProofSchema;
export type TotpSetupRequest = z.infer<typeof TotpSetupRequestSchema>;

/** POST /auth/mfa/code/: an SMS code was sent to confirm a change of second factors. */
export const MfaCodeSentSchema = z.object({
  /** Seconds before another code may be requested. */
  generate_challenge_timeout: z.number().int().nonnegative(),
});
export type MfaCodeSent = z.infer<typeof MfaCodeSentSchema>;

/** POST /auth/mfa/totp/confirm/ */
export const TotpConfirmRequestSchema = z.object({ otp: pinField });
export type TotpConfirmRequest = z.infer<typeof TotpConfirmRequestSchema>;

/** POST /auth/mfa/totp/disable/: the password and the app's current code. */
export const TotpDisableRequestSchema = MfaChangeProofSchema;
export type TotpDisableRequest = z.infer<typeof TotpDisableRequestSchema>;

/** 429 of generate_challenge: a new code may be requested only after this many seconds. */
export const MfaChallengeTooEarlySchema = z.object({
  detail: z.string(),
  generate_challenge_timeout: z.number().int().nonnegative(),
});

/** POST /auth/token/refresh/ */
export const TokenRefreshRequestSchema = z.object({ refresh: requiredString.max(512) });
export type TokenRefreshRequest = z.infer<typeof TokenRefreshRequestSchema>;

/** POST /auth/logout/ */
export const LogoutRequestSchema = z.object({ refresh: requiredString.max(512) });
export type LogoutRequest = z.infer<typeof LogoutRequestSchema>;

/** Roles known to the server (design §4). */
export const RoleSchema = z.enum(['customer', 'analyst', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

/** GET /auth/user/ */
export const CurrentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  /** Permission codes of the user's role, e.g. `incidents.view`. */
  permissions: z.array(z.string()),
  /**
   * The password is a temporary one given by an administrator: until it is changed, every call
   * but the password change, sign-out and this one answers 403.
   */
  must_change_password: z.boolean(),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** PUT /auth/password_change/ */
export const PasswordChangeRequestSchema = z
  .object({
    old_password: requiredString.max(256),
    password: NewPasswordSchema,
    confirmed_password: requiredString.max(256),
  })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmed_password) {
      ctx.addIssue({ code: 'custom', path: ['confirmed_password'], message: PASSWORD_MESSAGES.mismatch });
    }
  });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequestSchema>;

/** An OIDC identity provider offered on the login screen (product §A3). */
export const OidcProviderSchema = z.object({
  client_id: z.string(),
  configuration_url: z.string(),
  name: z.string(),
});
export type OidcProvider = z.infer<typeof OidcProviderSchema>;

/** POST /auth/token/ticket/: the one-time ticket of an OIDC or SSO sign-in callback. */
export const TicketExchangeRequestSchema = z.object({ ticket: requiredString.max(128) });
export type TicketExchangeRequest = z.infer<typeof TicketExchangeRequestSchema>;

const externalTokenType = z.enum(['OIDC', 'SSO']);

/**
 * Tokens of an external sign-in and how it was made (the web app's token type, product §A3);
 * or, for a user whose portal second factor applies (EXTERNAL_LOGIN_MFA=portal), the pending
 * sign-in of the password flow, completed at `POST /auth/token/mfa/obtain/`.
 */
export const TicketExchangeResponseSchema = z.union([
  TokenPairSchema.extend({ token_type: externalTokenType }),
  MfaPendingSchema.extend({ token_type: externalTokenType }),
]);
export type TicketExchangeResponse = z.infer<typeof TicketExchangeResponseSchema>;

/** Server texts of external sign-ins that the web app recognises (and shows in ru or en). */
export const EXTERNAL_LOGIN_MESSAGES = {
  /** The ticket was issued to another browser, or the sign-in cookie is missing (login CSRF). */
  otherBrowser:
    'This sign-in was started in another browser. Start it again here; the browser must accept the sign-in cookie.',
} as const;

/**
 * Codes of a failed OIDC or SSO sign-in in the web app's callback URL (`/auth/callback?error=`):
 * `other_browser` — the callback reached another browser than the one that started the flow;
 * `email_unverified` — the provider has not confirmed the e-mail (`email_verified`);
 * `email_taken` — a portal account with a password already uses the e-mail: it is never linked
 * or duplicated automatically.
 */
export const EXTERNAL_LOGIN_ERRORS = [
  'no_account',
  'oidc_unavailable',
  'oidc_failed',
  'sso_failed',
  'other_browser',
  'email_unverified',
  'email_taken',
] as const;
export type ExternalLoginErrorCode = (typeof EXTERNAL_LOGIN_ERRORS)[number];

/** Permission codes carried in `GET /auth/user/` (what the web app may offer a user). */
const CUSTOMER_PERMISSIONS = [
  'incidents.view',
  'incidents.comment',
  'incidents.update',
  'incidents.create',
  'reports.view',
  'reports.manage',
  'documents.view',
  'rules.view',
  'assets.view',
  'systems.view',
  // outbound webhooks of the user's systems (analysts: any system)
  'webhooks.manage',
] as const;
const ANALYST_PERMISSIONS = [
  ...CUSTOMER_PERMISSIONS,
  'incidents.set_status',
  'incidents.set_critical',
  'alerts.manage',
  'documents.edit',
  'rules.edit',
  // the staff area of the web app (design §9): the triage queue and the SOC's screens
  'soc.workspace',
] as const;
export const ROLE_PERMISSIONS: Record<Role, readonly string[]> = {
  customer: CUSTOMER_PERMISSIONS,
  analyst: ANALYST_PERMISSIONS,
  // rules.import: the Sigma import of the rules screen (POST /admin/rules/import/)
  admin: [...ANALYST_PERMISSIONS, 'users.manage', 'systems.manage', 'settings.manage', 'rules.import'],
};
