import { type FormEvent, useState } from 'react'
import { ApiError } from '../../lib/api'

/** Server refusals split into the form's fields, and what belongs to no field. */
export interface FieldErrors<F extends string> {
  fields: Partial<Record<F, string>>
  other: string | null
}

/**
 * Reads the scanner's refusals onto a form's fields. The server names the field before a colon,
 * either from schema validation ("Invalid request: body.deniedLicenses.0: unknown SPDX licence id
 * X; body.minSeverity: …") or from the service ("name: a policy named X already exists"). A part
 * naming a field the form does not have, or no field at all, is returned as `other`.
 */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): FieldErrors<F> {
  const known = new Set<string>(fields)
  const out: FieldErrors<F> = { fields: {}, other: null }
  if (!(error instanceof ApiError)) {
    out.other = error instanceof Error ? error.message : null
    return out
  }
  const rest: string[] = []
  const text = error.message.replace(/^Invalid request: /, '')
  for (const part of text.split('; ')) {
    const m = /^(?:body\.)?([A-Za-z]+)(?:\.[\w.]+)?: (.+)$/s.exec(part)
    const field = m?.[1]
    if (field && known.has(field)) {
      const f = field as F
      out.fields[f] = out.fields[f] ? `${out.fields[f]}; ${m[2]}` : m[2]
    } else rest.push(part)
  }
  out.other = rest.length > 0 ? rest.join('; ') : null
  return out
}

/**
 * A dialog form's state: the draft, its own checks (shown once it was submitted) and the server's
 * refusals read onto the fields (`fieldErrors`), a field's refusal cleared when it changes.
 * `submit(send)` makes the form's submit handler: it sends the draft only when it passes the
 * checks, and `send` hands a refusal to `fail`.
 */
export function useDialogForm<D extends object, F extends string>(options: {
  initial: () => D
  validate: (draft: D) => Partial<Record<F, string>>
  fields: readonly F[]
}) {
  const [draft, setDraft] = useState<D>(options.initial)
  const [submitted, setSubmitted] = useState(false)
  const [server, setServer] = useState<FieldErrors<F>>({ fields: {}, other: null })
  const local = options.validate(draft)
  const errorOf = (field: F) => server.fields[field] ?? (submitted ? local[field] : undefined)
  const change = <K extends keyof D>(key: K, value: D[K]) => {
    setDraft((d) => ({ ...d, [key]: value }))
    if (key in server.fields) setServer((s) => ({ ...s, fields: { ...s.fields, [key]: undefined } }))
  }
  const fail = (error: unknown) => setServer(fieldErrors(error, options.fields))
  const submit = (send: (draft: D, fail: (error: unknown) => void) => void) => (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(local).length > 0) return
    setServer({ fields: {}, other: null })
    send(draft, fail)
  }
  return { draft, setDraft, errorOf, change, submit, serverError: server.other }
}
