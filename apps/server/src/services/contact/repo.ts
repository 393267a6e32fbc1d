import type { ContactDeliveryStatus, ContactRequest, ContactRequestPage, ContactRequestView } from '@trove/contracts/contact'
import type { Kysely, Selectable } from 'kysely'
import type { ContactRequestsTable, Database } from '../../core/schema.js'

/** Keeps a request before anything is sent; its delivery starts pending. */
export async function insertContactRequest(
  db: Kysely<Database>,
  request: ContactRequest,
  userName: string | null,
  at: number,
): Promise<number> {
  const row = await db
    .insertInto('contact_requests')
    .values({
      created_at: at,
      user_name: userName,
      first_name: request.firstName,
      last_name: request.lastName,
      country: request.country,
      email: request.email,
      help_option: request.helpOption,
      comment: request.optionalComment || null,
      marketo_data_key: request.marketoDataKey || null,
      context: request.context ?? null,
      delivery_status: 'pending',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function recordDelivery(
  db: Kysely<Database>,
  id: number,
  delivery: { status: ContactDeliveryStatus; recipient: string | null; error: string | null; at: number },
): Promise<void> {
  await db
    .updateTable('contact_requests')
    .set({
      delivery_status: delivery.status,
      delivery_recipient: delivery.recipient,
      delivery_error: delivery.error?.slice(0, 1000) ?? null,
      delivered_at: delivery.at,
    })
    .where('id', '=', id)
    .execute()
}

const view = (r: Selectable<ContactRequestsTable>): ContactRequestView => ({
  id: r.id,
  createdAt: r.created_at,
  submittedBy: r.user_name,
  firstName: r.first_name,
  lastName: r.last_name,
  country: r.country,
  email: r.email,
  helpOption: r.help_option,
  optionalComment: r.comment,
  marketoDataKey: r.marketo_data_key,
  context: r.context,
  delivery: {
    status: r.delivery_status as ContactDeliveryStatus,
    recipient: r.delivery_recipient,
    error: r.delivery_error,
    at: r.delivered_at,
  },
})

/** Newest first (ids grow with time), a page at a time. */
export async function listContactRequests(
  db: Kysely<Database>,
  query: { page: number; pageSize: number },
): Promise<ContactRequestPage> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('contact_requests')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    db
      .selectFrom('contact_requests')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ])
  return { items: rows.map(view), total: Number(count.n), page: query.page, pageSize: query.pageSize }
}
