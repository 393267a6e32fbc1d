/** A moment for people, in their locale; a dash when there is none. */
export const when = (ms: number | null | undefined) => (ms ? new Date(ms).toLocaleString() : '—')
