import { Alert, Anchor, Button, Card, Group, NumberInput, Skeleton, Stack, Switch, Text, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import { Messages } from '@trove/contracts/messages'
import { useEffect, useState } from 'react'
import { isNotFound } from '../../lib/api'
import { PageHeader } from '../../ui/PageHeader'
import { anonymousAccess, mfaPolicy, passwordPolicy, registration, uiAccess } from './api/security'

/** Admin › Security › Security Configuration: anonymous access, UI access, password and MFA policy, SSO. */
export function SecurityConfigPage() {
  return (
    <>
      <PageHeader title="Security Configuration" breadcrumbs={['Security', 'Security Configuration']} />
      <Stack maw={720} gap="lg">
        <Card withBorder radius="md" padding="lg" component="section" aria-label="Access">
          <Title order={2} size="h4" mb="sm">
            Access
          </Title>
          <Stack>
            <AnonymousAccessSwitch />
            <UiAccessSwitch />
            <RegistrationSwitch />
          </Stack>
        </Card>
        <PasswordPolicyCard />
        <MfaCard />
        <Card withBorder radius="md" padding="lg" component="section" aria-label="Single sign-on">
          <Title order={2} size="h4" mb="sm">
            Single sign-on
          </Title>
          <Stack gap={6}>
            <Anchor component={Link} to="/admin/configuration/security/oauth">
              OAuth / OpenID Connect providers
            </Anchor>
            <Anchor component={Link} to="/admin/configuration/security/saml_integration">
              SAML
            </Anchor>
          </Stack>
        </Card>
      </Stack>
    </>
  )
}

function SaveError({ error }: { error: Error | null }) {
  if (!error) return null
  return (
    <Alert color="red" role="alert">
      {error.message || Messages.somethingWentWrong}
    </Alert>
  )
}

function AnonymousAccessSwitch() {
  const value = anonymousAccess.useValue()
  const save = anonymousAccess.useSave()
  if (value.isPending) return <Skeleton h={40} />
  if (isNotFound(value.error)) {
    return (
      <Text size="sm" c="dimmed">
        Anonymous access is not available in this version of Trove.
      </Text>
    )
  }
  return (
    <>
      <Switch
        label="Allow anonymous access"
        description="Visitors who are not signed in may browse and download what anonymous users are permitted"
        checked={value.data?.enabled ?? false}
        onChange={(e) => save.mutate({ enabled: e.currentTarget.checked })}
      />
      <SaveError error={save.error} />
    </>
  )
}

function UiAccessSwitch() {
  const value = uiAccess.useValue()
  const save = uiAccess.useSave()
  if (value.isPending) return <Skeleton h={40} />
  return (
    <>
      <Switch
        label="Block the console to anonymous users"
        description="Anonymous users are sent to sign in; package clients keep their anonymous access"
        checked={value.data?.blocked ?? false}
        onChange={(e) => save.mutate({ blocked: e.currentTarget.checked })}
      />
      <SaveError error={save.error} />
    </>
  )
}

function RegistrationSwitch() {
  const value = registration.useValue()
  const save = registration.useSave()
  if (value.isPending) return <Skeleton h={40} />
  return (
    <>
      <Switch
        label="Allow self-registration"
        description="The login screen offers to create an account; administrators can also invite by e-mail from Users"
        checked={value.data?.enabled ?? false}
        onChange={(e) => save.mutate({ enabled: e.currentTarget.checked })}
      />
      <SaveError error={save.error} />
    </>
  )
}

function PasswordPolicyCard() {
  const value = passwordPolicy.useValue()
  const save = passwordPolicy.useSave()
  const [days, setDays] = useState(0)
  useEffect(() => {
    if (value.data) setDays(value.data.expiryDays)
  }, [value.data])
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Password policy">
      <Title order={2} size="h4" mb="sm">
        Password policy
      </Title>
      {value.isPending ? (
        <Skeleton h={60} />
      ) : (
        <Group align="flex-end">
          <NumberInput
            label="Passwords expire after (days)"
            description="0: never"
            min={0}
            max={3650}
            value={days}
            onChange={(v) => setDays(Number(v) || 0)}
            w={260}
          />
          <Button onClick={() => save.mutate({ expiryDays: days })} loading={save.isPending}>
            Save
          </Button>
        </Group>
      )}
      <SaveError error={save.error} />
    </Card>
  )
}

function MfaCard() {
  const value = mfaPolicy.useValue()
  const save = mfaPolicy.useSave()
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Multi-factor authentication">
      <Title order={2} size="h4" mb="sm">
        Multi-factor authentication
      </Title>
      {value.isPending ? (
        <Skeleton h={40} />
      ) : (
        <Switch
          label="Require MFA for everyone"
          description="Users without an authenticator enrol at their next sign-in"
          checked={value.data?.required ?? false}
          onChange={(e) => save.mutate({ required: e.currentTarget.checked })}
        />
      )}
      <SaveError error={save.error} />
    </Card>
  )
}
