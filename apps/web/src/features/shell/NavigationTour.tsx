import { Button, Group, Popover, Text } from '@mantine/core'
import { useClickOutside, useWindowEvent } from '@mantine/hooks'
import { useEffect, useState } from 'react'

/** The navigation tour's steps: each points at a part of the frame marked with data-tour. */
export const TOUR_STEPS = [
  {
    target: 'search',
    title: 'Search',
    text: 'Find packages, artifacts or release bundles: the search follows the screen you are on.',
  },
  { target: 'menus', title: 'Menus', text: 'Switch between the application and the administration (or project settings) menus.' },
  { target: 'quick-actions', title: 'Quick actions', text: 'Create repositories, users, groups and permissions from anywhere.' },
  { target: 'help', title: 'Help', text: 'Documentation, this tour and the keyboard shortcuts.' },
  { target: 'user', title: 'Your account', text: 'Edit your profile, switch the theme, or log out.' },
] as const

/** A step-by-step tour of the frame; steps whose target is not on screen are skipped. */
export function NavigationTour({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const steps = TOUR_STEPS.filter((s) => !opened || document.querySelector(`[data-tour="${s.target}"]`))
  const [index, setIndex] = useState(0)
  useEffect(() => {
    if (opened) setIndex(0)
  }, [opened])
  const step = steps[index]
  // Esc ends the tour wherever the focus is (the popover's own handler only hears it inside the card).
  useWindowEvent('keydown', (event) => {
    if (opened && event.key === 'Escape') onClose()
  })
  // A click anywhere else (the header's menus, the sidebar) goes where it was aimed and ends the tour.
  const card = useClickOutside<HTMLDivElement>(() => {
    if (opened) onClose()
  })
  const [rect, setRect] = useState<DOMRect | null>(null)
  useEffect(() => {
    if (!opened || !step) return
    setRect(document.querySelector(`[data-tour="${step.target}"]`)?.getBoundingClientRect() ?? null)
  }, [opened, step])
  if (!opened || !step || !rect) return null
  const last = index === steps.length - 1
  return (
    <Popover opened position="bottom" withArrow trapFocus closeOnEscape onClose={onClose} width={300} shadow="md">
      <Popover.Target>
        <div
          aria-hidden
          style={{
            position: 'fixed',
            left: rect.left - 4,
            top: rect.top - 4,
            width: rect.width + 8,
            height: rect.height + 8,
            borderRadius: 8,
            outline: '3px solid var(--mantine-color-green-5)',
            pointerEvents: 'none',
            zIndex: 300,
          }}
        />
      </Popover.Target>
      <Popover.Dropdown ref={card} role="dialog" aria-label="Navigation tour">
        <Text fw={700} mb={4}>
          {step.title} ({index + 1}/{steps.length})
        </Text>
        <Text size="sm" mb="sm">
          {step.text}
        </Text>
        <Group justify="space-between">
          <Button variant="subtle" size="xs" onClick={onClose}>
            Skip tour
          </Button>
          <Group gap="xs">
            {index > 0 && (
              <Button variant="default" size="xs" onClick={() => setIndex(index - 1)}>
                Back
              </Button>
            )}
            <Button size="xs" onClick={() => (last ? onClose() : setIndex(index + 1))}>
              {last ? 'Done' : 'Next'}
            </Button>
          </Group>
        </Group>
      </Popover.Dropdown>
    </Popover>
  )
}
