import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../test/render'
import { Readme } from './Readme'

describe('Readme', () => {
  it('renders markdown', async () => {
    await renderWithProviders(<Readme text={'# Title\n\nSome **bold** text and [a link](https://example.com).'} />)
    expect(screen.getByRole('heading', { name: 'Title' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'a link' })).toHaveAttribute('href', 'https://example.com')
  })

  it('does not run or keep injected script', async () => {
    const attack = [
      '<script>window.__pwned = true</script>',
      '<img src="x" onerror="window.__pwned = true">',
      '[click](javascript:window.__pwned=true)',
      '<a href="javascript:alert(1)">raw</a>',
      '<iframe src="https://evil.example"></iframe>',
      '![img](x" onerror="alert(1))',
    ].join('\n\n')
    await renderWithProviders(<Readme text={attack} />)
    const root = screen.getByTestId('readme')
    expect(root.querySelector('script, iframe, [onerror]')).toBeNull()
    for (const a of root.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').not.toMatch(/^javascript:/i)
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined()
    // The markdown around it still renders.
    expect(root.textContent).toContain('click')
  })
})
