/** The console's keyboard shortcuts: one list for the handler and for the dialog that lists them. */
export interface Shortcut {
  /** In the form Mantine's useHotkeys takes. */
  hotkey: string
  keys: string[]
  label: string
  action: 'search' | 'shortcuts' | 'application' | 'administration' | 'theme' | 'sidebar' | 'home'
}

export const SHORTCUTS: Shortcut[] = [
  { hotkey: '/', keys: ['/'], label: 'Search', action: 'search' },
  { hotkey: 'shift+?', keys: ['Shift', '?'], label: 'Show keyboard shortcuts', action: 'shortcuts' },
  { hotkey: 'alt+1', keys: ['Alt', '1'], label: 'Application menu', action: 'application' },
  { hotkey: 'alt+2', keys: ['Alt', '2'], label: 'Administration menu', action: 'administration' },
  { hotkey: 'alt+H', keys: ['Alt', 'H'], label: 'Home', action: 'home' },
  { hotkey: 'alt+B', keys: ['Alt', 'B'], label: 'Collapse or expand the sidebar', action: 'sidebar' },
  { hotkey: 'alt+T', keys: ['Alt', 'T'], label: 'Switch between light and dark theme', action: 'theme' },
]
