import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import { missingFields, type Personalization } from '@trove/contracts/onboarding'
import {
  DESIRED_FEATURES,
  ONBOARDING_NAME_MAX,
  ONBOARDING_PURPOSES,
  ONBOARDING_ROLES,
  type OnboardingStep,
} from '@trove/contracts/shellConstants'
import { useEffect, useRef, useState } from 'react'
import { ApiError } from '../../lib/api'
import { personalizationQuery, saveStep, sendPersonalization } from './api/onboarding'

/** The steps the user walks (init has nothing to fill in). */
const WALKED = ['purpose', 'details', 'features'] as const satisfies readonly OnboardingStep[]
type Walked = (typeof WALKED)[number]
type Data = Record<Walked, Record<string, unknown>>
/** A step is saved this long after the user stops typing. */
const SAVE_DELAY_MS = 500

/** Field errors from the server's `step.field: message; …`. */
export function fieldErrors(message: string): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const part of message.replace(/^Invalid request: /, '').split('; ')) {
    const match = /^(?:body\.stepDataObject\.|\w+\.)?(\w+)(?:\.\d+)?: (.*)$/.exec(part)
    if (match?.[1] && match[2]) errors[match[1]] = match[2]
  }
  return errors
}

/** The first step not completed yet: where a reload resumes. */
export function resumeAt(p: Personalization | undefined): number {
  if (!p) return 0
  const index = WALKED.findIndex((s) => !p.steps[s]?.isCompleted)
  return index === -1 ? WALKED.length - 1 : index
}

export interface OnboardingWizardProps {
  /** After the questionnaire was sent. */
  onDone: () => void
  /** The user closes the wizard without sending it. */
  onSkip: () => void
}

/**
 * The onboarding questionnaire (shell §4.6): purpose, details, desired features. Each step is saved
 * on the server as it is filled in, so a reload resumes where the user was; Next completes a step
 * once it is valid; Finish sends the whole.
 */
export function OnboardingWizard({ onDone, onSkip }: OnboardingWizardProps) {
  const queryClient = useQueryClient()
  const stored = useQuery(personalizationQuery())
  const [active, setActive] = useState<number | null>(null)
  const [data, setData] = useState<Data>({ purpose: {}, details: {}, features: {} })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)

  useEffect(() => {
    if (!stored.data || active !== null) return
    const s = stored.data.steps
    setData({
      purpose: s.purpose?.stepDataObject ?? {},
      details: s.details?.stepDataObject ?? {},
      features: s.features?.stepDataObject ?? {},
    })
    setActive(resumeAt(stored.data))
  }, [stored.data, active])
  useEffect(() => () => clearTimeout(timer.current), [])

  if (active === null) return null
  const step = WALKED[active] as Walked
  const purpose = data.purpose.purpose

  const save = async (which: Walked, value: Record<string, unknown>, isCompleted: boolean) => {
    try {
      await saveStep(which, { stepDataObject: value, isCompleted })
      return true
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) setErrors(fieldErrors(error.message))
      else setFailure(error instanceof Error && error.message ? error.message : 'The step could not be saved')
      return false
    }
  }
  const change = (key: string, value: unknown) => {
    const next = { ...data[step], [key]: value }
    if (value === '' || value === null) delete next[key]
    setData({ ...data, [step]: next })
    setErrors((e) => ({ ...e, [key]: '' }))
    clearTimeout(timer.current)
    timer.current = setTimeout(() => void save(step, next, false), SAVE_DELAY_MS)
  }
  const next = async () => {
    const missing = missingFields(step, data[step], purpose)
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map((f) => [f, Messages.fieldMandatory])))
      return
    }
    clearTimeout(timer.current)
    setBusy(true)
    setFailure(null)
    const saved = await save(step, data[step], true)
    if (saved && active < WALKED.length - 1) setActive(active + 1)
    if (saved && active === WALKED.length - 1) {
      try {
        await sendPersonalization()
        await queryClient.invalidateQueries({ queryKey: ['shell', 'onboarding'] })
        onDone()
      } catch (error) {
        setFailure(error instanceof Error && error.message ? error.message : 'The answers could not be sent')
      }
    }
    setBusy(false)
  }
  const text = (key: string, label: string, required = false) => (
    <TextInput
      label={label}
      withAsterisk={required}
      maxLength={ONBOARDING_NAME_MAX}
      value={typeof data[step][key] === 'string' ? (data[step][key] as string) : ''}
      onChange={(e) => change(key, e.currentTarget.value)}
      error={errors[key] || undefined}
    />
  )

  return (
    <Paper withBorder p="xl" maw={720} mx="auto" mt="xl" radius="md">
      <Stack gap="lg">
        <div>
          <Title order={1}>Welcome to Trove</Title>
          <Text c="dimmed" size="sm">
            Three questions, so Trove opens on what matters to you. Your answers are saved as you go.
          </Text>
        </div>
        <Stepper active={active} onStepClick={(i) => i < active && setActive(i)} size="sm">
          <Stepper.Step label="Purpose" />
          <Stepper.Step label="About you" />
          <Stepper.Step label="Features" />
        </Stepper>
        {step === 'purpose' && (
          <Radio.Group
            label="What will you use Trove for?"
            withAsterisk
            value={typeof purpose === 'string' ? purpose : null}
            onChange={(v) => change('purpose', v)}
            error={errors.purpose || undefined}
          >
            <Group mt="xs">
              {ONBOARDING_PURPOSES.map((p) => (
                <Radio key={p} value={p} label={p} />
              ))}
            </Group>
          </Radio.Group>
        )}
        {step === 'details' && (
          <Stack>
            {purpose === 'Commercial'
              ? text('companyName', 'Company name', true)
              : text('ossProjectName', 'Open-source project name')}
            <Select
              label="Your role"
              withAsterisk
              data={[...ONBOARDING_ROLES]}
              value={typeof data.details.role === 'string' ? data.details.role : null}
              onChange={(v) => change('role', v)}
              error={errors.role || undefined}
            />
            {data.details.role === 'Other' && text('otherRole', 'Which role?', true)}
          </Stack>
        )}
        {step === 'features' && (
          <Checkbox.Group
            label="What do you want from Trove?"
            withAsterisk
            value={Array.isArray(data.features.desiredFeature) ? (data.features.desiredFeature as string[]) : []}
            onChange={(v) => change('desiredFeature', v.length > 0 ? v : null)}
            error={errors.desiredFeature || undefined}
          >
            <SimpleGrid cols={2} mt="xs">
              {DESIRED_FEATURES.map((f) => (
                <Checkbox key={f} value={f} label={f} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
        )}
        {failure && <Alert color="red">{failure}</Alert>}
        <Group justify="space-between">
          <Button variant="subtle" onClick={onSkip}>
            Skip for now
          </Button>
          <Group>
            {active > 0 && (
              <Button variant="default" onClick={() => setActive(active - 1)}>
                Back
              </Button>
            )}
            <Button onClick={() => void next()} loading={busy}>
              {active === WALKED.length - 1 ? 'Finish' : 'Next'}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Paper>
  )
}
