import { Alert, Button, Group, NativeSelect, PasswordInput, Stack, Switch, TagsInput, TextInput } from '@mantine/core'
import { Messages } from '@trove/contracts/messages'
import { sanitizeProviderUrl } from '@trove/contracts/safeUrl'
import type { OAuthProvider, OAuthProviderInput } from '@trove/contracts/sso'
import { type FormEvent, useState } from 'react'
import { useSaveOAuthProvider } from './api/oauthProviders'

const TYPES = [
  { value: 'oauth', label: 'OpenID Connect (generic)' },
  { value: 'keycloak', label: 'Keycloak' },
  { value: 'okta', label: 'Okta' },
  { value: 'azure', label: 'Microsoft Entra ID' },
  { value: 'google', label: 'Google' },
  { value: 'gitlab', label: 'GitLab' },
]
const NAME = /^[A-Za-z0-9._-]+$/
const isHttpUrl = (v: string) => sanitizeProviderUrl(v) !== null && /^https?:\/\//i.test(v.trim())

export interface OAuthProviderFormProps {
  /** The provider to edit; null to add one. */
  provider: OAuthProvider | null
  onDone: () => void
}

/** Add or edit an OAuth / OpenID Connect provider. The client secret is write-only. */
export function OAuthProviderForm({ provider, onDone }: OAuthProviderFormProps) {
  const save = useSaveOAuthProvider()
  const [name, setName] = useState(provider?.name ?? '')
  const [type, setType] = useState<string>(provider?.type ?? 'oauth')
  const [issuerUrl, setIssuerUrl] = useState(provider?.issuerUrl ?? '')
  const [clientId, setClientId] = useState(provider?.clientId ?? '')
  const [clientSecret, setClientSecret] = useState('')
  const [icon, setIcon] = useState(provider?.icon ?? '')
  const [enabled, setEnabled] = useState(provider?.enabled ?? true)
  const [autoCreateUsers, setAutoCreateUsers] = useState(provider?.autoCreateUsers ?? false)
  const [defaultGroups, setDefaultGroups] = useState<string[]>(provider?.defaultGroups ?? [])
  const [touched, setTouched] = useState(false)

  const errors = {
    name: !name ? Messages.fieldMandatory : NAME.test(name) ? undefined : Messages.invalidName,
    issuerUrl: !issuerUrl ? Messages.fieldMandatory : isHttpUrl(issuerUrl) ? undefined : Messages.invalidUrl,
    clientId: clientId ? undefined : Messages.fieldMandatory,
    clientSecret: provider || clientSecret ? undefined : Messages.fieldMandatory,
    icon: !icon || isHttpUrl(icon) ? undefined : Messages.invalidUrl,
  }
  const shown = (key: keyof typeof errors) => (touched ? errors[key] : undefined)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (Object.values(errors).some(Boolean)) return
    const input: OAuthProviderInput = {
      name,
      type: type as OAuthProviderInput['type'],
      issuerUrl,
      clientId,
      ...(clientSecret ? { clientSecret } : {}),
      icon,
      enabled,
      autoCreateUsers,
      defaultGroups,
    }
    save.mutate({ previousName: provider?.name ?? null, input }, { onSuccess: onDone })
  }

  return (
    <form onSubmit={submit} noValidate aria-label={provider ? `Edit ${provider.name}` : 'New OAuth provider'}>
      <Stack gap="sm">
        {save.error && (
          <Alert color="red" variant="light" role="alert">
            {save.error.message || Messages.somethingWentWrong}
          </Alert>
        )}
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={shown('name')} />
        <NativeSelect label="Type" data={TYPES} value={type} onChange={(e) => setType(e.currentTarget.value)} />
        <TextInput
          label="Issuer URL"
          required
          placeholder="https://idp.example.com/realms/main"
          value={issuerUrl}
          onChange={(e) => setIssuerUrl(e.currentTarget.value)}
          error={shown('issuerUrl')}
        />
        <TextInput
          label="Client ID"
          required
          value={clientId}
          onChange={(e) => setClientId(e.currentTarget.value)}
          error={shown('clientId')}
        />
        <PasswordInput
          label="Client secret"
          required={!provider}
          placeholder={provider ? 'Unchanged' : undefined}
          description={provider ? 'Leave empty to keep the stored secret' : undefined}
          value={clientSecret}
          onChange={(e) => setClientSecret(e.currentTarget.value)}
          error={shown('clientSecret')}
          autoComplete="new-password"
        />
        <TextInput
          label="Icon URL"
          placeholder="https://idp.example.com/logo.png"
          value={icon}
          onChange={(e) => setIcon(e.currentTarget.value)}
          error={shown('icon')}
        />
        <TagsInput
          label="Default groups"
          description="Users this provider creates join these groups"
          value={defaultGroups}
          onChange={setDefaultGroups}
        />
        <Switch label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Switch
          label="Create users on first sign-in"
          checked={autoCreateUsers}
          onChange={(e) => setAutoCreateUsers(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
