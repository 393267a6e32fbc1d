import { Anchor, type AnchorProps } from '@mantine/core'
import { createLink } from '@tanstack/react-router'
import { type ComponentPropsWithoutRef, forwardRef } from 'react'

const MantineAnchor = forwardRef<HTMLAnchorElement, AnchorProps & ComponentPropsWithoutRef<'a'>>(
  function MantineAnchor(props, ref) {
    return <Anchor ref={ref} {...props} />
  },
)

/** A router link styled as Mantine's Anchor, with typed `to` and `params`. */
export const AnchorLink = createLink(MantineAnchor)
