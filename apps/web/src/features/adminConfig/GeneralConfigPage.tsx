import {
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  Image,
  NumberInput,
  PasswordInput,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useQueryClient } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import { LOGO_MAX_BYTES, LOGO_TYPES } from '@trove/contracts/shellConstants'
import { type FormEvent, type ReactNode, useEffect, useState } from 'react'
import { notify } from '../../lib/notify'
import { PageHeader } from '../../ui/PageHeader'
import { SaveFooter } from '../../ui/SaveFooter'
import { generalConfigQuery, LOGO_URL, removeLogo, uploadLogo, useGeneralConfig, useSaveGeneralConfig } from './api/generalConfig'
import { useMailSettings, useSaveMailSettings } from './api/mail'

const isUrl = (v: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol)
  } catch {
    return false
  }
}

/**
 * Admin › Platform Configurations › General Settings: name, base URL, logo, read-only mode, mail;
 * `children` are further settings cards other areas own (the app layer composes them in).
 */
export function GeneralConfigPage({ children }: { children?: ReactNode }) {
  return (
    <>
      <PageHeader title="General Settings" breadcrumbs={['Platform Configurations', 'Platform Management', 'General Settings']} />
      <Stack maw={720} gap="lg">
        <GeneralSection />
        <LogoSection />
        <MailSection />
        {children}
      </Stack>
    </>
  )
}

function GeneralSection() {
  const config = useGeneralConfig()
  const save = useSaveGeneralConfig()
  const [serverName, setServerName] = useState('')
  const [baseUrl, setBaseUrl] = useState('')
  const [readOnly, setReadOnly] = useState(false)
  useEffect(() => {
    if (!config.data) return
    setServerName(config.data.serverName)
    setBaseUrl(config.data.baseUrl)
    setReadOnly(config.data.readOnly)
  }, [config.data])
  const urlError = baseUrl && !isUrl(baseUrl) ? Messages.invalidUrl : undefined
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (urlError) return
    save.mutate(
      { serverName, baseUrl, readOnly },
      { onSuccess: () => notify({ color: 'green', message: 'General settings saved', autoClose: 3000 }) },
    )
  }
  if (config.isPending) return <Skeleton h={260} radius="md" />
  return (
    <Card withBorder radius="md" padding="lg" component="form" onSubmit={submit} aria-label="General settings">
      <Stack>
        <Title order={2} size="h4">
          Server
        </Title>
        <TextInput
          label="Server name"
          description="Shown in page titles and the top bar"
          value={serverName}
          onChange={(e) => setServerName(e.currentTarget.value)}
          maxLength={100}
        />
        <TextInput
          label="Base URL"
          description="The URL users reach Trove at (behind a reverse proxy, the proxy's URL)"
          placeholder="https://repo.example.org"
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.currentTarget.value)}
          error={urlError}
        />
        <Switch
          label="Read-only mode"
          description="Nothing can be changed (uploads, settings, users) until this is turned off again"
          checked={readOnly}
          onChange={(e) => setReadOnly(e.currentTarget.checked)}
        />
        {config.data?.readOnly && (
          <Alert color="orange" variant="light">
            Read-only mode is on: {Messages.readOnlyMode.toLowerCase()}.
          </Alert>
        )}
        <SaveFooter error={save.error} pending={save.isPending} />
      </Stack>
    </Card>
  )
}

function LogoSection() {
  const config = useGeneralConfig()
  const queryClient = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  const refresh = () => {
    setVersion((v) => v + 1)
    void queryClient.invalidateQueries({ queryKey: generalConfigQuery().queryKey })
  }
  const upload = async (file: File | null) => {
    setError(null)
    if (!file) return
    if (!(LOGO_TYPES as readonly string[]).includes(file.type))
      return setError('The logo must be a PNG, JPEG, SVG, GIF or WebP image')
    if (file.size > LOGO_MAX_BYTES) return setError(`${Messages.fileTooLarge} 512 KB`)
    try {
      await uploadLogo(file)
      refresh()
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : Messages.somethingWentWrong)
    }
  }
  return (
    <Card withBorder radius="md" padding="lg" aria-label="Logo" component="section">
      <Stack>
        <Title order={2} size="h4">
          Logo
        </Title>
        <Group>
          {config.data?.hasLogo ? (
            <Image src={`${LOGO_URL}?v=${version}`} alt="Current logo" h={48} w="auto" fit="contain" />
          ) : (
            <Text c="dimmed" size="sm">
              No logo: the top bar shows the server name.
            </Text>
          )}
        </Group>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group>
          <FileButton onChange={(f) => void upload(f)} accept={LOGO_TYPES.join(',')}>
            {(props) => (
              <Button variant="default" {...props}>
                Upload logo
              </Button>
            )}
          </FileButton>
          {config.data?.hasLogo && (
            <Button variant="subtle" color="red" onClick={() => void removeLogo().then(refresh)}>
              Remove logo
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  )
}

function MailSection() {
  const mail = useMailSettings()
  const save = useSaveMailSettings()
  const [form, setForm] = useState({
    enabled: false,
    host: '',
    port: 25,
    secure: false,
    username: '',
    password: '',
    from: '',
    baseUrl: '',
  })
  useEffect(() => {
    const m = mail.data
    if (m)
      setForm((f) => ({
        ...f,
        enabled: m.enabled,
        host: m.host,
        port: m.port,
        secure: m.secure,
        username: m.username ?? '',
        from: m.from,
        baseUrl: m.baseUrl,
      }))
  }, [mail.data])
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!isUrl(form.baseUrl)) return
    save.mutate(
      { ...form, username: form.username || undefined, password: form.password || undefined },
      { onSuccess: () => notify({ color: 'green', message: 'Mail server saved', autoClose: 3000 }) },
    )
  }
  if (mail.isPending) return <Skeleton h={320} radius="md" />
  return (
    <Card withBorder radius="md" padding="lg" component="form" onSubmit={submit} aria-label="Mail server">
      <Stack>
        <Title order={2} size="h4">
          Mail server
        </Title>
        <Switch label="Send mail" checked={form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
        <Group grow>
          <TextInput
            label="Host"
            value={form.host}
            onChange={(e) => set({ host: e.currentTarget.value })}
            required={form.enabled}
          />
          <NumberInput label="Port" value={form.port} min={1} max={65535} onChange={(v) => set({ port: Number(v) || 25 })} />
        </Group>
        <Switch
          label="TLS from the start (port 465)"
          checked={form.secure}
          onChange={(e) => set({ secure: e.currentTarget.checked })}
        />
        <Group grow>
          <TextInput
            label="User name"
            value={form.username}
            onChange={(e) => set({ username: e.currentTarget.value })}
            autoComplete="off"
          />
          <PasswordInput
            label="Password"
            placeholder={mail.data?.passwordSet ? 'Unchanged' : ''}
            value={form.password}
            onChange={(e) => set({ password: e.currentTarget.value })}
            autoComplete="new-password"
          />
        </Group>
        <TextInput
          label="From"
          placeholder="trove@example.org"
          value={form.from}
          onChange={(e) => set({ from: e.currentTarget.value })}
        />
        <TextInput
          label="Base URL for links in mails"
          value={form.baseUrl}
          onChange={(e) => set({ baseUrl: e.currentTarget.value })}
          error={form.baseUrl && !isUrl(form.baseUrl) ? Messages.invalidUrl : undefined}
        />
        <SaveFooter error={save.error} pending={save.isPending} label="Save mail server" />
      </Stack>
    </Card>
  )
}
