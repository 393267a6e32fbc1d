import { MantineProvider } from '@mantine/core'
import { render } from '@testing-library/react'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Readme } from './Readme'

// Readmes come from whoever published the package. Whatever markdown or HTML they hold, the
// rendered tree has no script, no event handler and no link or source a browser would run.
// FUZZ_RUNS=10000 asks for more cases (the tests run in Node, where process is defined).
const asked = Number((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.FUZZ_RUNS)
const RUNS = Number.isInteger(asked) && asked > 0 ? asked : 150
// The bounded run asks the same cases every time (a red run is a finding, not chance); FUZZ_SEED
// picks others, and FUZZ_RUNS without it draws new ones.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {}
const SEED = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : RUNS === 150 ? 20261125 : undefined

const scheme = fc.constantFrom(
  'javascript:',
  'JaVaScRiPt:',
  ' javascript:',
  'java\tscript:',
  'vbscript:',
  'data:text/html,',
  'jav&#x61;script:',
  'https:',
  '',
)
const payload = fc.constantFrom('alert(1)', 'window.__pwned=true', '//evil.example/x', '')
const handler = fc.constantFrom('onerror', 'onload', 'onclick', 'ONMOUSEOVER', 'onfocus', 'formaction', 'style')
const tag = fc.constantFrom(
  'script',
  'img',
  'a',
  'iframe',
  'svg',
  'math',
  'object',
  'embed',
  'form',
  'input',
  'details',
  'style',
  'base',
  'meta',
)
const piece = fc.oneof(
  fc.tuple(tag, handler, scheme, payload).map(([t, h, s, p]) => `<${t} src="${s}${p}" href="${s}${p}" ${h}="${p}">x</${t}>`),
  fc.tuple(scheme, payload).map(([s, p]) => `[link](${s}${p})`),
  fc.tuple(scheme, payload).map(([s, p]) => `![img](${s}${p})`),
  fc.tuple(scheme, payload).map(([s, p]) => `[ref]: ${s}${p}\n\n[ref]`),
  fc.tuple(scheme, payload).map(([s, p]) => `<${s}${p}>`),
  fc.constantFrom(
    '<script>window.__pwned=true</script>',
    '<svg><script>alert(1)</script></svg>',
    '```html\n<script>x</script>\n```',
    '<!--',
    '-->',
    '<',
    '>',
    '"',
    "'",
  ),
  fc.constantFrom('# ', '> ', '* ', '1. ', '| a | b |\n|---|---|\n', '\n\n', '**', '`'),
  fc.string({ maxLength: 20 }),
)
const markdown = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''))

function assertHarmless(root: HTMLElement) {
  expect(root.querySelector('script, iframe, object, embed, base, meta, style, form')).toBeNull()
  for (const el of root.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      expect(attr.name.toLowerCase(), el.outerHTML).not.toMatch(/^on|^formaction$/)
      if (['href', 'src', 'xlink:href', 'action', 'srcset'].includes(attr.name.toLowerCase())) {
        // Browsers skip whitespace and control characters before a URL's scheme.
        const value = [...attr.value]
          .filter((c) => c.charCodeAt(0) > 0x20)
          .join('')
          .toLowerCase()
        expect(value, el.outerHTML).not.toMatch(/^(javascript|vbscript|data):/)
      }
    }
  }
}

describe('Readme under hostile markdown', () => {
  it('never renders a script element, an event handler or a javascript: URL', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const { container, unmount } = render(
          <MantineProvider>
            <Readme text={text} />
          </MantineProvider>,
        )
        try {
          assertHarmless(container.querySelector('[data-testid="readme"]') as HTMLElement)
          expect((window as { __pwned?: boolean }).__pwned).toBeUndefined()
        } finally {
          unmount()
        }
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    )
  }, 60_000)
})
