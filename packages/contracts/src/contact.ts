import { z } from 'zod'
import { CONTACT_CONTEXTS, CONTACT_DELIVERY_STATUSES, CONTACT_LIMITS, EMAIL_PATTERN, HELP_OPTIONS } from './contactConstants.js'
import { Limits } from './limits.js'
import { format, Messages } from './messages.js'

export {
  CONTACT_CONTEXTS,
  CONTACT_LIMITS,
  CONTACT_PATHS,
  type ContactContext,
  HELP_OPTIONS,
  type HelpOption,
} from './contactConstants.js'

const mandatory = (max: number) => z.string().trim().min(1, Messages.fieldMandatory).max(max, `At most ${max} characters`)

/** POST /ui/api/v1/marketing/contact (shell §3, §7.2): the contact form's fields. */
export const ContactRequest = z
  .object({
    firstName: mandatory(CONTACT_LIMITS.nameMax),
    lastName: mandatory(CONTACT_LIMITS.nameMax),
    country: mandatory(CONTACT_LIMITS.countryMax),
    email: z
      .string()
      .trim()
      .min(1, Messages.fieldMandatory)
      .max(CONTACT_LIMITS.emailMax, Messages.invalidEmail)
      .regex(EMAIL_PATTERN, Messages.invalidEmail),
    helpOption: z.enum(HELP_OPTIONS, { error: Messages.fieldMandatory }),
    optionalComment: z
      .string()
      .trim()
      .max(CONTACT_LIMITS.commentMax, format(Messages.commentTooLong, { max: CONTACT_LIMITS.commentMax }))
      .optional(),
    marketoDataKey: z.string().trim().max(CONTACT_LIMITS.marketoDataKeyMax).optional(),
    /** The context the dialog was opened with. */
    context: z.enum(CONTACT_CONTEXTS).optional(),
  })
  .meta({ id: 'ContactRequest' })
export type ContactRequest = z.infer<typeof ContactRequest>

/** What became of a request's mail (CONTACT_DELIVERY_STATUSES). */
export const ContactDeliveryStatus = z.enum(CONTACT_DELIVERY_STATUSES)
export type ContactDeliveryStatus = z.infer<typeof ContactDeliveryStatus>

export const ContactAccepted = z.object({ id: z.number().int(), delivery: ContactDeliveryStatus }).meta({ id: 'ContactAccepted' })
export type ContactAccepted = z.infer<typeof ContactAccepted>

/** A stored request, as administrators list it. */
export const ContactRequestView = z
  .object({
    id: z.number().int(),
    /** Epoch ms. */
    createdAt: z.number().int(),
    /** The signed-in user who sent it. */
    submittedBy: z.string().nullable(),
    firstName: z.string(),
    lastName: z.string(),
    country: z.string(),
    email: z.string(),
    helpOption: z.string(),
    optionalComment: z.string().nullable(),
    marketoDataKey: z.string().nullable(),
    context: z.string().nullable(),
    delivery: z.object({
      status: ContactDeliveryStatus,
      /** The address it was (or was to be) mailed to. */
      recipient: z.string().nullable(),
      /** Why it was not sent. */
      error: z.string().nullable(),
      /** Epoch ms of the attempt. */
      at: z.number().int().nullable(),
    }),
  })
  .meta({ id: 'ContactRequestView' })
export type ContactRequestView = z.infer<typeof ContactRequestView>

export const ContactRequestQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(Limits.defaultPageSize),
})
export const ContactRequestPage = z
  .object({ items: z.array(ContactRequestView), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'ContactRequestPage' })
export type ContactRequestPage = z.infer<typeof ContactRequestPage>

/** Where contact requests are mailed; empty: nowhere (they are only stored). */
export const ContactSettings = z
  .object({
    recipient: z.union([
      z.literal(''),
      z.string().trim().max(CONTACT_LIMITS.emailMax, Messages.invalidEmail).regex(EMAIL_PATTERN, Messages.invalidEmail),
    ]),
  })
  .meta({ id: 'ContactSettings' })
export type ContactSettings = z.infer<typeof ContactSettings>
