import type { ReactNode } from 'react'

/**
 * Trove's own simple line glyphs for the catalogue's cards, one per kind of integration, drawn here
 * rather than taken from any vendor's brand artwork.
 */
const GLYPHS = {
  git: (
    <>
      <circle cx="7" cy="6" r="2.2" />
      <circle cx="7" cy="18" r="2.2" />
      <circle cx="17" cy="9" r="2.2" />
      <path d="M7 8.2v7.6M17 11.2c0 3-4 3.2-8.3 5.6" />
    </>
  ),
  package: (
    <>
      <path d="M12 3 4 7.5v9L12 21l8-4.5v-9L12 3Z" />
      <path d="M4 7.5 12 12l8-4.5M12 12v9" />
    </>
  ),
  container: (
    <>
      <rect x="3" y="10" width="18" height="9" rx="1.5" />
      <path d="M7 10v9M12 10v9M17 10v9M6 10V6h5v4M13 10V7h4v3" />
    </>
  ),
  code: <path d="m9 7-5 5 5 5M15 7l5 5-5 5M13.5 5l-3 14" />,
  desktop: (
    <>
      <rect x="3" y="4" width="18" height="12" rx="1.5" />
      <path d="M8 20h8M12 16v4" />
    </>
  ),
  pipeline: (
    <>
      <circle cx="5" cy="12" r="2.2" />
      <circle cx="19" cy="12" r="2.2" />
      <path d="M7.2 12h9.6M13.5 8.5 17 12l-3.5 3.5" />
    </>
  ),
  cloud: <path d="M7 18h10a4 4 0 0 0 .6-7.95A6 6 0 0 0 6.2 9.1 4.5 4.5 0 0 0 7 18Z" />,
  key: (
    <>
      <circle cx="8" cy="14" r="4" />
      <path d="m11 11 8-8M16 6l2 2M14 8l2 2" />
    </>
  ),
} satisfies Record<string, ReactNode>

export type IntegrationGlyph = keyof typeof GLYPHS

export function IntegrationIcon({ glyph, scale = 1, size = 36 }: { glyph: IntegrationGlyph; scale?: number; size?: number }) {
  return (
    <svg
      aria-hidden="true"
      width={size * scale}
      height={size * scale}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {GLYPHS[glyph]}
    </svg>
  )
}
