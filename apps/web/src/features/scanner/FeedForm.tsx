import { Alert, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core'
import { format, Messages } from '@trove/contracts/messages'
import type { AdvisoryFeed } from '@trove/contracts/scanner'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { type FormEvent, useState } from 'react'
import { notify } from '../../lib/notify'
import { useSaveFeed, useSyncFeed } from './api/database'
import { fieldErrors } from './fieldErrors'

const FEED_FIELDS = ['url', 'intervalHours'] as const
type FeedField = (typeof FEED_FIELDS)[number]
const MAX_HOURS = 24 * 30

/** What the form can tell before the server: an http(s) URL or nothing, and 1 to 720 whole hours. */
export function validateFeed(feed: AdvisoryFeed): Partial<Record<FeedField, string>> {
  const errors: Partial<Record<FeedField, string>> = {}
  const url = feed.url.trim()
  if (url) {
    let ok = false
    try {
      ok = ['http:', 'https:'].includes(new URL(url).protocol)
    } catch {
      ok = false
    }
    if (!ok) errors.url = Messages.invalidUrl
  }
  if (!Number.isInteger(feed.intervalHours) || feed.intervalHours < 1 || feed.intervalHours > MAX_HOURS)
    errors.intervalHours = `A whole number of hours from 1 to ${MAX_HOURS}`
  return errors
}

/** The feed's URL and interval, saved with PUT admin/database/feed, and "Sync now" for the saved feed. */
export function FeedForm({ feed }: { feed: AdvisoryFeed }) {
  const save = useSaveFeed()
  const sync = useSyncFeed()
  const [draft, setDraft] = useState<AdvisoryFeed>(feed)
  const [server, setServer] = useState<{ fields: Partial<Record<FeedField, string>>; other: string | null }>({
    fields: {},
    other: null,
  })
  const [submitted, setSubmitted] = useState(false)
  const local = validateFeed(draft)
  const errorOf = (field: FeedField) => server.fields[field] ?? (submitted ? local[field] : undefined)
  const changed = draft.url.trim() !== feed.url || draft.intervalHours !== feed.intervalHours

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(local).length > 0) return
    setServer({ fields: {}, other: null })
    save.mutate(
      { url: draft.url.trim(), intervalHours: draft.intervalHours },
      {
        onSuccess: () => notify({ color: 'green', message: ScreenMessages.scannerFeedSaved }),
        onError: (error) => setServer(fieldErrors(error, FEED_FIELDS)),
      },
    )
  }
  const syncNow = () => {
    setServer({ fields: {}, other: null })
    sync.mutate(undefined, {
      onSuccess: (result) =>
        notify({
          color: 'green',
          message: format(ScreenMessages.scannerImported, { records: result.records, versions: result.reevaluated.versions }),
        }),
      onError: (error) => setServer(fieldErrors(error, FEED_FIELDS)),
    })
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Advisory feed">
      <Stack gap="sm">
        {!feed.url && (
          <Text size="sm" c="dimmed">
            {ScreenMessages.scannerFeedNone}
          </Text>
        )}
        <TextInput
          label="Feed URL"
          description="An OSV zip or JSON over http(s); empty: no feed"
          placeholder="https://osv-vulnerabilities.storage.googleapis.com/npm/all.zip"
          value={draft.url}
          onChange={(e) => {
            const url = e.currentTarget.value
            setDraft((d) => ({ ...d, url }))
            setServer((s) => ({ ...s, fields: { ...s.fields, url: undefined } }))
          }}
          error={errorOf('url')}
        />
        <NumberInput
          label="Sync every (hours)"
          min={1}
          max={MAX_HOURS}
          allowDecimal={false}
          value={draft.intervalHours}
          onChange={(v) => setDraft((d) => ({ ...d, intervalHours: typeof v === 'number' ? v : Number.NaN }))}
          error={errorOf('intervalHours')}
        />
        {server.other && (
          <Alert color="red" variant="light" role="alert">
            {server.other}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={syncNow}
            loading={sync.isPending}
            disabled={!feed.url || changed}
            title={changed ? 'Save the feed first' : undefined}
          >
            Sync now
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!changed}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
