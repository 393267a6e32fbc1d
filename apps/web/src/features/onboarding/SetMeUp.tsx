import { Alert, Button, Code, CopyButton, Group, Select, Stack, Text } from '@mantine/core'
import { useMutation, useQuery } from '@tanstack/react-query'
import { PACKAGE_TYPE_NAMES, type PackageTypeName } from '@trove/contracts/repositoryConstants'
import { type SetMeUpSnippet, setMeUpSnippets } from '@trove/contracts/setMeUp'
import { useState } from 'react'
import { ApiError } from '../../lib/api'
import { setMeUpQuery } from './api/onboarding'

export interface SetMeUpProps {
  /** The signed-in user, whose name goes into the snippets. */
  user: string
  /** The repository to start with; the user may pick another. */
  repoKey?: string | null
  /** The repositories the user may read, as the repository list gives them. */
  repositories: { key: string; packageType: string; type: string }[]
  /** Makes a deploy-scoped access token for the user and gives its secret. */
  generateToken: () => Promise<string>
}

/** A repository list's type (e.g. `Npm`) as the console names it (`npm`). */
const typeName = (listed: string) => PACKAGE_TYPE_NAMES[listed.toLowerCase() as PackageTypeName] ?? listed

function Snippet({ snippet }: { snippet: SetMeUpSnippet }) {
  return (
    <Stack gap={4} data-snippet={snippet.id}>
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm" fw={600}>
          {snippet.title}
          {snippet.file && (
            <Text span c="dimmed" size="sm" fw={400}>
              {' '}
              — in <Code>{snippet.file}</Code>
            </Text>
          )}
        </Text>
        <CopyButton value={snippet.text}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="light" onClick={copy} aria-label={`Copy: ${snippet.title}`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {snippet.text.trimEnd()}
      </Code>
    </Stack>
  )
}

/**
 * Set-me-up (shell §4.3): pick a repository; the exact configuration of its package client, with
 * a deploy-scoped token of the user's put in by the button (the token is shown only here, once).
 */
export function SetMeUp({ user, repoKey = null, repositories, generateToken }: SetMeUpProps) {
  const [selected, setSelected] = useState<string | null>(repoKey)
  const [token, setToken] = useState<string | null>(null)
  const info = useQuery({ ...setMeUpQuery(selected), enabled: selected !== null })
  const generate = useMutation({
    mutationFn: generateToken,
    onSuccess: setToken,
  })
  const repository = info.data?.repository
  const snippets =
    info.data && repository
      ? setMeUpSnippets({
          baseUrl: info.data.baseUrl,
          repoKey: repository.key,
          packageType: repository.packageType as PackageTypeName,
          rclass: repository.rclass,
          user,
          token,
        })
      : []
  return (
    <Stack>
      <Select
        label="Repository"
        placeholder="Choose a repository"
        searchable
        data={repositories.map((r) => ({
          value: r.key,
          label: `${r.key} (${typeName(r.packageType)}, ${r.type.toLowerCase()})`,
        }))}
        value={selected}
        onChange={setSelected}
        nothingFoundMessage="No repository matches"
      />
      {info.error && (
        <Alert color="red">{info.error instanceof ApiError ? info.error.message : 'The repository could not be read'}</Alert>
      )}
      {repository &&
        (token ? (
          <Alert color="green" variant="light">
            Your new token is in the configuration below. It is shown only now: copy what you need. It may read and deploy, never
            delete or administer, and expires in 30 days.
          </Alert>
        ) : (
          <Group gap="sm">
            <Text size="sm" c="dimmed">
              The configuration below has a placeholder for your token.
            </Text>
            <Button size="xs" onClick={() => generate.mutate()} loading={generate.isPending}>
              Generate Token & Create Instructions
            </Button>
          </Group>
        ))}
      {generate.error && (
        <Alert color="red">{generate.error instanceof ApiError ? generate.error.message : 'No token was made'}</Alert>
      )}
      {snippets.map((s) => (
        <Snippet key={s.id} snippet={s} />
      ))}
    </Stack>
  )
}
