import { Breadcrumbs, Stack, Text, Title } from '@mantine/core'
import type { ReactNode } from 'react'

export interface PageHeaderProps {
  title: string
  breadcrumbs?: string[]
  children?: ReactNode
}

/** The title block at the top of a screen. */
export function PageHeader({ title, breadcrumbs, children }: PageHeaderProps) {
  return (
    <Stack gap={4} mb="lg">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <Breadcrumbs separator="›" aria-label="Breadcrumb">
          {breadcrumbs.map((crumb) => (
            <Text key={crumb} size="sm" c="dimmed">
              {crumb}
            </Text>
          ))}
        </Breadcrumbs>
      )}
      <Title order={1} size="h2">
        {title}
      </Title>
      {children}
    </Stack>
  )
}
