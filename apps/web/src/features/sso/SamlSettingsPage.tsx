import { Alert, Button, Code, Group, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core'
import { DEFAULT_SAML_PROVIDER_NAME, Messages } from '@trove/contracts/messages'
import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'
import { type FormEvent, useState } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { type SamlView, useSamlSettings, useSaveSamlSettings } from './api/saml'

const isHttpUrl = (v: string) => sanitizeProviderUrl(v) !== null && /^https?:\/\//i.test(v.trim())

function SamlForm({ view }: { view: SamlView }) {
  const save = useSaveSamlSettings()
  const initial = view.settings
  const [enabled, setEnabled] = useState(initial?.enabled ?? true)
  const [providerName, setProviderName] = useState(initial?.providerName ?? DEFAULT_SAML_PROVIDER_NAME)
  const [loginUrl, setLoginUrl] = useState(initial?.loginUrl ?? '')
  const [logoutUrl, setLogoutUrl] = useState(initial?.logoutUrl ?? '')
  const [certificate, setCertificate] = useState(initial?.certificate ?? '')
  const [idpIssuer, setIdpIssuer] = useState(initial?.idpIssuer ?? '')
  const [autoCreateUsers, setAutoCreateUsers] = useState(initial?.autoCreateUsers ?? false)
  const [defaultGroups, setDefaultGroups] = useState<string[]>(initial?.defaultGroups ?? [])
  const [touched, setTouched] = useState(false)
  const errors = {
    providerName: providerName ? undefined : Messages.fieldMandatory,
    loginUrl: !loginUrl ? Messages.fieldMandatory : isHttpUrl(loginUrl) ? undefined : Messages.invalidUrl,
    logoutUrl: !logoutUrl || isHttpUrl(logoutUrl) ? undefined : Messages.invalidUrl,
    certificate: certificate ? undefined : Messages.fieldMandatory,
  }
  const shown = (key: keyof typeof errors) => (touched ? errors[key] : undefined)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (Object.values(errors).some(Boolean)) return
    save.mutate({
      enabled,
      providerName,
      loginUrl,
      logoutUrl,
      certificate,
      idpIssuer,
      serviceProviderId: initial?.serviceProviderId ?? '',
      autoCreateUsers,
      defaultGroups,
    })
  }
  return (
    <form onSubmit={submit} noValidate aria-label="SAML settings">
      <Stack gap="sm">
        {save.error && (
          <Alert color="red" variant="light" role="alert">
            {save.error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <TextInput
          label="Provider name"
          required
          value={providerName}
          onChange={(e) => setProviderName(e.currentTarget.value)}
          error={shown('providerName')}
        />
        <TextInput
          label="SAML login URL"
          required
          value={loginUrl}
          onChange={(e) => setLoginUrl(e.currentTarget.value)}
          error={shown('loginUrl')}
        />
        <TextInput
          label="SAML logout URL"
          value={logoutUrl}
          onChange={(e) => setLogoutUrl(e.currentTarget.value)}
          error={shown('logoutUrl')}
        />
        <TextInput label="Identity provider entity ID" value={idpIssuer} onChange={(e) => setIdpIssuer(e.currentTarget.value)} />
        <Textarea
          label="Identity provider certificate"
          description="PEM; assertions must be signed with its key"
          required
          autosize
          minRows={4}
          maxRows={10}
          styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
          value={certificate}
          onChange={(e) => setCertificate(e.currentTarget.value)}
          error={shown('certificate')}
        />
        <TagsInput label="Default groups" value={defaultGroups} onChange={setDefaultGroups} />
        <Switch
          label="Create users on first sign-in"
          checked={autoCreateUsers}
          onChange={(e) => setAutoCreateUsers(e.currentTarget.checked)}
        />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
          {save.isSuccess && !save.isPending && (
            <Text size="sm" c="green" role="status">
              Saved
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  )
}

/** SAML 2.0 identity provider settings, and what to give the identity provider. */
export function SamlSettingsPage() {
  const saml = useSamlSettings()
  return (
    <Stack gap="lg" maw={800}>
      <PageHeader title="SAML SSO" breadcrumbs={['Platform Configurations', 'Security', 'SAML SSO']}>
        {saml.data && (
          <Text size="sm" c="dimmed">
            Give the identity provider Trove's metadata <Code>{saml.data.metadataUrl}</Code> (assertion consumer{' '}
            <Code>{saml.data.acsUrl}</Code>).
          </Text>
        )}
      </PageHeader>
      {saml.error && (
        <Alert color="red" variant="light" role="alert">
          {saml.error.message || Messages.somethingWentWrong}
        </Alert>
      )}
      {saml.data && <SamlForm view={saml.data} />}
    </Stack>
  )
}
