import { Alert, Button, Group, Stack, Switch, Textarea, TextInput, Title } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import type { LoginScreenSettings } from '@trove/contracts/sso'
import { useState } from 'react'
import { useSaveLoginScreenSettings } from './api/loginScreen'

/** Auto-redirect, the login view mode and the login notice. */
export function LoginScreenSettingsForm({ initial }: { initial: LoginScreenSettings }) {
  const save = useSaveLoginScreenSettings()
  const [settings, setSettings] = useState(initial)
  const set = (patch: Partial<LoginScreenSettings>) => setSettings((s) => ({ ...s, ...patch }))
  const setDialog = (patch: Partial<LoginScreenSettings['dialog']>) =>
    setSettings((s) => ({ ...s, dialog: { ...s.dialog, ...patch } }))
  return (
    <Stack gap="sm" component="section" aria-label="Login screen">
      <Title order={2} size="h4">
        Login screen
      </Title>
      {save.error && (
        <Alert color="red" variant="light" role="alert">
          {save.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      <Switch
        label="Auto-redirect to single sign-on"
        description="The login screen sends the browser straight to the SAML provider, or else the first OAuth provider. Open /ui/login?noAutoRedirect=true to use a local account."
        checked={settings.autoRedirect}
        onChange={(e) => set({ autoRedirect: e.currentTarget.checked })}
      />
      <Switch
        label="Single sign-on first"
        description="The password form opens only on demand"
        checked={settings.loginIsExternal}
        onChange={(e) => set({ loginIsExternal: e.currentTarget.checked })}
      />
      <Switch
        label="Hide the provider buttons"
        checked={settings.isProvidersHidden}
        onChange={(e) => set({ isProvidersHidden: e.currentTarget.checked })}
      />
      <Switch
        label="Show a notice on the login screen"
        checked={settings.dialog.enabled}
        onChange={(e) => setDialog({ enabled: e.currentTarget.checked })}
      />
      {settings.dialog.enabled && (
        <>
          <TextInput
            label="Notice title"
            value={settings.dialog.title}
            onChange={(e) => setDialog({ title: e.currentTarget.value })}
          />
          <Textarea
            label="Notice text"
            autosize
            minRows={2}
            value={settings.dialog.content}
            onChange={(e) => setDialog({ content: e.currentTarget.value })}
          />
          <Switch
            label="Permanent (shown at every visit, even after it was closed)"
            checked={settings.dialog.permanent}
            onChange={(e) => setDialog({ permanent: e.currentTarget.checked })}
          />
        </>
      )}
      <Group>
        <Button onClick={() => save.mutate(settings)} loading={save.isPending}>
          Save login screen
        </Button>
        {save.isSuccess && !save.isPending && (
          <Alert color="green" variant="light" role="status" py={4}>
            Saved
          </Alert>
        )}
      </Group>
    </Stack>
  )
}
