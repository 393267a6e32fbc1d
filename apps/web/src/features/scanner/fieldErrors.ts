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
