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

/** The package id the console's package pages use: `<type>://<name>`. */
export const packageIdOf = (packageType: string, name: string) => `${packageType}://${name}`

/** The artifact tree's browse path of a repository. */
export const treePathOf = (repoKey: string) => `tree/General/${repoKey}`
