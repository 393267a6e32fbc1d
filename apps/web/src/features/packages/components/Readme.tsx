import { Typography } from '@mantine/core'
import Markdown from 'react-markdown'
import rehypeSanitize from 'rehype-sanitize'

/**
 * A readme as markdown. Raw HTML in it is not rendered, and the tree is sanitized (GitHub's
 * schema): no scripts, no event handlers, no javascript: links.
 */
export function Readme({ text }: { text: string }) {
  return (
    <Typography>
      <div data-testid="readme">
        <Markdown rehypePlugins={[rehypeSanitize]}>{text}</Markdown>
      </div>
    </Typography>
  )
}
