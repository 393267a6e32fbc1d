import { useNavigate, useSearch } from '@tanstack/react-router'
import type { ContactContext } from '@trove/contracts/contactConstants'
import { ContactUsDialog } from './ContactUsDialog'

/** The query keys that open the dialog (shell §2.7); closing removes them. */
const CONTACT_QUERY = ['contactUsContext', 'marketoDataKey'] as const

export function withoutContactQuery(search: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...search }
  for (const key of CONTACT_QUERY) delete rest[key]
  return rest
}

/** The dialog opened by the query string; closing it clears that query and stays on the page. */
export function ContactUs({ context }: { context: ContactContext }) {
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const navigate = useNavigate()
  const key = typeof search.marketoDataKey === 'string' ? search.marketoDataKey : undefined
  return (
    <ContactUsDialog
      context={context}
      marketoDataKey={key}
      onClose={() => void navigate({ to: '.', search: withoutContactQuery, replace: true } as never)}
    />
  )
}
