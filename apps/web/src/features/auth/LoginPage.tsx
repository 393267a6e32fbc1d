import { Alert, Anchor, Button, Checkbox, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { UserData } from '@trove/contracts/auth'
import { CREDENTIALS_EXPIRED } from '@trove/contracts/http'
import { BRAND_NAME, Messages } from '@trove/contracts/messages'
import { type FormEvent, lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import { ApiError } from '../../lib/api'
import { useLoginRelatedData } from './api/accounts'
import { useLogin } from './api/login'
import { useLoginDialogSettings } from './api/sso'
import { applyLoginDialog, dismissLoginDialog, loginViewMode, providerButtons } from './loginScreenRules'

export interface LoginPageProps {
  /** Where to go once the password is accepted: the user data's mfaStatus says whether a code must follow. */
  onSignedIn: (user: UserData) => void
  /** Shell §8: an expired password goes to the change-password screen with the user name. */
  onPasswordExpired: (userName: string) => void
  rememberMeEnabled?: boolean
  /** Why a single sign-on just failed (from the login URL), to show above the form. */
  ssoError?: string | null
  /** Shown under the title: what this sign-in is for (a waiting command-line client, say). */
  notice?: ReactNode
}

// The dialog (and Mantine's modal machinery) loads only when there is a notice to show, keeping
// the login page's JavaScript within its budget.
const LoginNoticeDialog = lazy(() => import('./LoginNoticeDialog').then((m) => ({ default: m.LoginNoticeDialog })))

/** Shell §3/§4.4: the administrator's notice on the login screen, with the stored dismissal rule. */
function LoginNotice() {
  const settings = useLoginDialogSettings().data
  // Decided once per visit of the screen, when the settings arrive.
  const [open, setOpen] = useState<boolean | null>(null)
  useEffect(() => {
    if (settings && open === null) setOpen(applyLoginDialog(settings))
  }, [settings, open])
  if (!settings || !open) return null
  return (
    <Suspense fallback={null}>
      <LoginNoticeDialog
        title={settings.title}
        content={settings.content}
        onClose={() => {
          dismissLoginDialog(settings)
          setOpen(false)
        }}
      />
    </Suspense>
  )
}

/** The password sign-in form. */
export function LoginPage({ onSignedIn, onPasswordExpired, rememberMeEnabled = true, ssoError, notice }: LoginPageProps) {
  const login = useLogin()
  const loginData = useLoginRelatedData()
  const [user, setUser] = useState('')
  const [password, setPassword] = useState('')
  const [rememberMe, setRememberMe] = useState(false)
  const [touched, setTouched] = useState(false)
  const mode = loginViewMode(loginData.data, loginData.isError)
  const providers = providerButtons(loginData.data)
  // In the external mode single sign-on comes first; the password form opens on demand.
  const [showForm, setShowForm] = useState(false)
  const formVisible = mode === 'internal' || showForm || providers.length === 0

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (!user || !password) return
    login.mutate(
      { user, password, rememberMe },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          if (error instanceof ApiError && error.code === CREDENTIALS_EXPIRED) onPasswordExpired(user)
        },
      },
    )
  }

  const providerList = (
    <Stack gap="xs" aria-label="Single sign-on">
      {providers.map((p) => (
        <Button
          key={p.key}
          component="a"
          href={p.url}
          variant="default"
          fullWidth
          leftSection={p.icon ? <img src={p.icon} alt="" width={18} height={18} /> : undefined}
        >
          Sign in with {p.name}
        </Button>
      ))}
    </Stack>
  )

  return (
    <Paper component="main" withBorder shadow="sm" p="xl" radius="md" w={380} maw="92vw">
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {BRAND_NAME}
            </Title>
            <Text c="dimmed" size="sm">
              Sign in to continue
            </Text>
          </div>
          {notice}
          {ssoError && (
            <Alert color="red" role="alert" variant="light" title="Single sign-on">
              {ssoError}
            </Alert>
          )}
          {mode === 'external' && providerList}
          {mode === 'external' && !formVisible && (
            <Button variant="subtle" size="xs" onClick={() => setShowForm(true)}>
              Sign in with a {BRAND_NAME} account
            </Button>
          )}
          {formVisible && (
            <>
              {login.error && (
                <Alert color="red" role="alert" variant="light">
                  {login.error.message || Messages.somethingWentWrong}
                </Alert>
              )}
              <TextInput
                label="Username"
                name="username"
                autoComplete="username"
                autoFocus
                value={user}
                onChange={(e) => setUser(e.currentTarget.value)}
                error={touched && !user ? Messages.fieldMandatory : undefined}
              />
              <PasswordInput
                label="Password"
                name="password"
                autoComplete={loginData.data?.passwordAutocompleteEnabled === false ? 'off' : 'current-password'}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={touched && !password ? Messages.fieldMandatory : undefined}
              />
              {rememberMeEnabled && loginData.data?.canRememberMe !== false && (
                <Checkbox label="Remember me" checked={rememberMe} onChange={(e) => setRememberMe(e.currentTarget.checked)} />
              )}
              <Button type="submit" loading={login.isPending} fullWidth>
                Log In
              </Button>
            </>
          )}
          {mode === 'internal' && providers.length > 0 && (
            <>
              <Text size="xs" c="dimmed" ta="center">
                or
              </Text>
              {providerList}
            </>
          )}
          <Group justify="space-between">
            <Group gap="md">
              {loginData.data?.forgotPassword && (
                <Anchor component={Link} to="/login/forgot-password" size="sm">
                  Forgot password?
                </Anchor>
              )}
              {loginData.data?.registrationEnabled && (
                <Anchor component={Link} to="/login/registration" size="sm">
                  Create an account
                </Anchor>
              )}
            </Group>
            <Anchor size="xs" c="dimmed" href="/api/docs" target="_blank" rel="noopener noreferrer">
              API reference
            </Anchor>
          </Group>
        </Stack>
      </form>
      <LoginNotice />
    </Paper>
  )
}
