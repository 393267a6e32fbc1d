import { Badge, Button, Card, Group, Modal, PasswordInput, Popover, Stack, Text, TextInput, UnstyledButton } from '@mantine/core'
import { gitVendor, INTEGRATION_SERVICES } from '@trove/contracts/gitIntegrations'
import { Messages } from '@trove/contracts/messages'
import { type Dispatch, type FormEvent, useState } from 'react'
import { ApiError } from '../../lib/api'
import { notify } from '../../lib/notify'
import { testConnection, useSaveIntegration } from './api/integrations'
import {
  formErrors,
  type GitForm,
  type ModalEvent,
  type ModalState,
  modalAction,
  saveDisabled,
  testButtonVisible,
} from './modalState'

export interface GitIntegrationModalProps {
  state: ModalState
  dispatch: Dispatch<ModalEvent>
  /** The select-service step chose the security scanner for the new integration. */
  onSelectService: (vendorName: string, integrationKey: string) => void
}

const LABELS: Record<keyof GitForm, string> = {
  integrationName: 'Integration name',
  userName: 'User name',
  token: 'Token',
  url: 'URL',
}

/** A server field error ("integrationName: …") belongs to its field; anything else to the toast. */
function fieldOf(error: unknown): { field: keyof GitForm; message: string } | null {
  if (!(error instanceof ApiError)) return null
  const m = /^(integrationName|userName|token|url): (.+)$/.exec(error.message)
  return m ? { field: m[1] as keyof GitForm, message: m[2] as string } : null
}

function CreateEditStep({ state, dispatch }: Omit<GitIntegrationModalProps, 'onSelectService'>) {
  const save = useSaveIntegration()
  const [touched, setTouched] = useState<Partial<Record<keyof GitForm, boolean>>>({})
  const [serverError, setServerError] = useState<{ field: keyof GitForm; message: string } | null>(null)
  const errors = formErrors(state)
  const action = modalAction(state)
  const vendorName = state.vendorName ?? ''
  const body = () => ({ ...state.form, vendorName, integrationType: 'git' as const, integrationKey: state.editKey ?? undefined })

  const runTest = async () => {
    dispatch({ type: 'testStarted' })
    setServerError(null)
    try {
      const result = await testConnection(body())
      dispatch({ type: 'testPassed', vendorUser: result.vendorUser })
    } catch (error) {
      dispatch({ type: 'testFailed' })
      const field = fieldOf(error)
      if (field) setServerError(field)
      else notify({ color: 'red', message: Messages.connectionTestFailed })
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (saveDisabled(state)) return
    dispatch({ type: 'saveStarted' })
    setServerError(null)
    save.mutate(
      { form: body(), key: state.editKey ?? undefined },
      {
        onSuccess: ({ data }) => {
          if (action === 'update') {
            notify({ color: 'green', message: `${Messages.integrationUpdated} ${data}` })
            dispatch({ type: 'close' })
          } else {
            notify({ color: 'blue', message: `${Messages.integrationCreated} ${data}` })
            dispatch({ type: 'created', key: data })
          }
        },
        onError: (error) => {
          dispatch({ type: 'saveFailed' })
          const field = fieldOf(error)
          if (field) setServerError(field)
          notify({
            color: 'red',
            message: action === 'update' ? Messages.integrationUpdateFailed : Messages.integrationCreateFailed,
          })
        },
      },
    )
  }

  const input = (field: keyof GitForm) => ({
    label: LABELS[field],
    value: state.form[field],
    onChange: (e: { currentTarget: { value: string } }) => {
      if (serverError?.field === field) setServerError(null)
      dispatch({ type: 'change', field, value: e.currentTarget.value })
    },
    onBlur: () => setTouched((t) => ({ ...t, [field]: true })),
    error: (serverError?.field === field && serverError.message) || (touched[field] && errors[field]),
  })

  return (
    <form onSubmit={submit} noValidate aria-label="Git integration">
      <Stack gap="sm">
        <TextInput {...input('integrationName')} required data-autofocus />
        <TextInput
          {...input('url')}
          description={
            vendorName === 'bitbucketServer'
              ? 'The address of your Bitbucket server'
              : 'Leave as it is for the hosted service, or give your server'
          }
        />
        <TextInput {...input('userName')} required autoComplete="off" />
        <PasswordInput
          {...input('token')}
          required={!state.editKey}
          autoComplete="new-password"
          placeholder={state.editKey ? 'Leave empty to keep the saved token' : undefined}
        />
        <Group justify="space-between" mt="sm">
          {testButtonVisible(state) ? (
            <Popover
              opened={state.popover !== null}
              onChange={(o) => !o && dispatch({ type: 'hidePopover' })}
              position="bottom-start"
              middlewares={{ flip: false, shift: true }}
              withArrow
            >
              <Popover.Target>
                <Button
                  variant="default"
                  onClick={runTest}
                  loading={state.loading && !save.isPending}
                  disabled={Object.keys(errors).length > 0}
                >
                  Test connection
                </Button>
              </Popover.Target>
              <Popover.Dropdown role="status">
                <Text size="sm">
                  Connection successful: signed in as <b>{state.popover}</b>
                </Text>
              </Popover.Dropdown>
            </Popover>
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button variant="default" onClick={() => dispatch({ type: 'close' })}>
              Cancel
            </Button>
            <Button type="submit" disabled={saveDisabled(state)} loading={save.isPending}>
              {action === 'update' ? 'Update' : 'Create'}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  )
}

function SelectServiceStep({ state, dispatch, onSelectService }: GitIntegrationModalProps) {
  return (
    <Stack gap="sm">
      <Text size="sm">Choose the service that will use this integration.</Text>
      {INTEGRATION_SERVICES.map((service) => (
        <Card key={service.name} withBorder padding="sm" radius="md" opacity={service.disabled ? 0.55 : 1}>
          <UnstyledButton
            disabled={service.disabled}
            aria-label={service.displayName}
            onClick={() => {
              if (!state.vendorName || !state.createdKey) return
              onSelectService(state.vendorName, state.createdKey)
              dispatch({ type: 'close' })
            }}
          >
            <Group justify="space-between" w="100%">
              <Text fw={600}>{service.displayName}</Text>
              {service.disabled ? <Badge color="gray">Not available</Badge> : <Badge color="green">Select repositories</Badge>}
            </Group>
          </UnstyledButton>
        </Card>
      ))}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => dispatch({ type: 'close' })}>
          Later
        </Button>
      </Group>
    </Stack>
  )
}

/** §4 "Git integration modal": create/edit, then select service. */
export function GitIntegrationModal(props: GitIntegrationModalProps) {
  const { state, dispatch } = props
  const vendor = state.vendorName ? gitVendor(state.vendorName) : undefined
  const title =
    state.step === 'selectService'
      ? 'Select service'
      : `${state.editKey ? 'Edit' : 'New'} ${vendor?.displayName ?? 'git'} integration`
  return (
    <Modal opened={state.opened} onClose={() => dispatch({ type: 'close' })} title={title} size="lg">
      {state.step === 'createEdit' ? <CreateEditStep state={state} dispatch={dispatch} /> : <SelectServiceStep {...props} />}
    </Modal>
  )
}
