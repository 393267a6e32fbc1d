import { z } from 'zod'

/** Body of POST /ui/api/v1/ui/auth/login (shell §3 "Login payload"). */
export const LoginRequest = z
  .object({
    user: z.string().min(1).max(255),
    password: z.string().min(1).max(1024),
    type: z.literal('login'),
  })
  .meta({ id: 'LoginRequest' })
export type LoginRequest = z.infer<typeof LoginRequest>

export const LoginQuery = z.object({
  _spring_security_remember_me: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
})

export const MfaStatus = z.enum(['none', 'enroll', 'verify'])
export type MfaStatus = z.infer<typeof MfaStatus>

/** User data (shell §3): what the console knows of who is signed in. */
export const UserData = z
  .object({
    name: z.string(),
    realm: z.string(),
    admin: z.boolean(),
    anonymous: z.boolean(),
    mfaStatus: MfaStatus,
  })
  .meta({ id: 'UserData' })
export type UserData = z.infer<typeof UserData>

/** GET /ui/api/v1/ui/auth/screen/footer: what the console frame shows of the server. */
export const Footer = z
  .object({
    serverName: z.string().nullable(),
    version: z.string(),
    revision: z.string(),
    /** Whether anonymous callers may browse (the security configuration's switch, off by default). */
    anonymousAccess: z.boolean(),
  })
  .meta({ id: 'Footer' })
export type Footer = z.infer<typeof Footer>

/** Body of the MFA verify and enroll-confirm calls (shell §7.1: authenticator type plus otp). */
export const MfaCodeRequest = z
  .object({
    otp: z.string().min(1).max(16),
    authenticatorType: z.string().max(32).optional(),
    /** The current password: needed to enrol from the profile (not during a sign-in, which just checked it). */
    password: z.string().max(1024).optional(),
  })
  .meta({ id: 'MfaCodeRequest' })
export type MfaCodeRequest = z.infer<typeof MfaCodeRequest>

/** GET …/ui/auth/mfa/enroll: a new secret for any authenticator app, and its QR code. */
export const MfaEnrollment = z
  .object({ secret: z.string(), otpauthUrl: z.string(), qrCode: z.string() })
  .meta({ id: 'MfaEnrollment' })
export type MfaEnrollment = z.infer<typeof MfaEnrollment>

/** Whether MFA is required: for everyone (security configuration) or for one user. */
export const MfaRequirement = z.object({ required: z.boolean() }).meta({ id: 'MfaRequirement' })
export type MfaRequirement = z.infer<typeof MfaRequirement>

/** POST /ui/api/v1/ui/userProfile answers the profile to a caller who gives the password again. */
export const ProfileRequest = z.object({ password: z.string().max(1024) }).meta({ id: 'ProfileRequest' })
export const Profile = z
  .object({
    name: z.string(),
    email: z.string().nullable(),
    realm: z.string(),
    admin: z.boolean(),
    mfaEnabled: z.boolean(),
  })
  .meta({ id: 'Profile' })
export type Profile = z.infer<typeof Profile>
export const ProfileUpdate = z
  .object({ email: z.email().max(320).nullable(), password: z.string().min(1).max(1024) })
  .meta({ id: 'ProfileUpdate' })

/** User names follow the spec's name rule (shell §5). */
export const USER_NAME_PATTERN = /^[A-Za-z0-9._-]+$/
const UserName = z
  .string()
  .min(1)
  .max(64)
  .regex(USER_NAME_PATTERN, 'Name can only contain alphanumeric characters, dashes and periods')

/** POST …/ui/auth/register: self-registration, when the admin opened it. */
export const RegistrationRequest = z
  .object({
    name: UserName,
    email: z.email().max(320),
    password: z.string().min(8, 'A password has at least 8 characters').max(1024),
  })
  .meta({ id: 'RegistrationRequest' })

/** An admin's invitation by mail. */
export const InvitationRequest = z
  .object({ email: z.email().max(320), admin: z.boolean().default(false) })
  .meta({ id: 'InvitationRequest' })
export type InvitationRequest = z.input<typeof InvitationRequest>
export const InvitationInfo = z.object({ email: z.string() }).meta({ id: 'InvitationInfo' })
export const AcceptInvitationRequest = z
  .object({ name: UserName, password: z.string().min(8, 'A password has at least 8 characters').max(1024) })
  .meta({ id: 'AcceptInvitationRequest' })

/** What the login screen needs to know before anyone signs in (shell §3 login-related data). */
export const LoginRelatedData = z
  .object({
    forgotPassword: z.boolean(),
    canRememberMe: z.boolean(),
    passwordAutocompleteEnabled: z.boolean(),
    registrationEnabled: z.boolean(),
    /** Shell §3: OAuth providers on the login screen (name, type, url, icon). */
    oauthProviders: z.array(z.object({ name: z.string(), type: z.string(), url: z.string(), icon: z.string().nullable() })),
    /** Shell §3: SAML providers on the login screen (name, url). */
    ssoProviderLinksSAML: z.array(z.object({ name: z.string(), url: z.string() })),
    /** The link auto-redirect login follows (SAML first, else the first OAuth provider). */
    ssoProviderLink: z.string().nullable(),
    loginIsExternal: z.boolean(),
    isProvidersHidden: z.boolean(),
    isUserPluginEnabled: z.boolean(),
    /** Where the browser goes after logout for a SAML user (the identity provider's logout URL). */
    logoutUrl: z.string().nullable(),
    samlRegistrationId: z.string(),
  })
  .meta({ id: 'LoginRelatedData' })
export type LoginRelatedData = z.infer<typeof LoginRelatedData>
