import { z } from 'zod'
import { PASSWORD_MIN_LENGTH } from './limits.js'

/** Trove's password rule (the spec leaves it open): 8 to 1024 characters. */
export const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `A password has at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(1024)

export const ForgotPasswordRequest = z.object({ user: z.string().min(1).max(255) }).meta({ id: 'ForgotPasswordRequest' })
export const KeyQuery = z.object({ key: z.string().min(1).max(128) })
export const ValidatedToken = z.object({ user: z.string() }).meta({ id: 'ValidatedToken' })
export const ResetPasswordRequest = z
  .object({ user: z.string().min(1).max(255), password: NewPassword })
  .meta({ id: 'ResetPasswordRequest' })

/** POST …/ui/auth/changePassword?prefix=changePassword (shell §7.1: userName and newPassword1). */
export const ChangePasswordRequest = z
  .object({
    userName: z.string().min(1).max(255),
    oldPassword: z.string().min(1).max(1024),
    newPassword1: NewPassword,
    newPassword2: z.string().max(1024).optional(),
  })
  .refine((v) => v.newPassword2 === undefined || v.newPassword2 === v.newPassword1, {
    message: 'The new passwords do not match',
    path: ['newPassword2'],
  })
  .meta({ id: 'ChangePasswordRequest' })
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>

/** The mail server the admin configures: password flows and invitations send through it. */
export const MailSettings = z
  .object({
    enabled: z.boolean(),
    host: z.string().max(255),
    port: z.number().int().min(1).max(65535),
    secure: z.boolean().describe('TLS from the start (port 465); otherwise STARTTLS when offered'),
    username: z.string().max(255).optional(),
    password: z.string().max(1024).optional().describe('Write-only: kept encrypted, never answered'),
    from: z.string().max(320),
    baseUrl: z.url().describe('The URL users reach Trove at, for links in mails'),
  })
  .meta({ id: 'MailSettings' })
export type MailSettings = z.infer<typeof MailSettings>

export const MailSettingsView = MailSettings.omit({ password: true })
  .extend({ passwordSet: z.boolean() })
  .meta({ id: 'MailSettingsView' })

export const PasswordPolicy = z
  .object({ expiryDays: z.number().int().min(0).max(3650).describe('0: passwords never expire') })
  .meta({ id: 'PasswordPolicy' })
export type PasswordPolicy = z.infer<typeof PasswordPolicy>
