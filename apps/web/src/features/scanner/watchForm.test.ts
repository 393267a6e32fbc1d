import { Messages } from '@trove/contracts/messages'
import { ScreenMessages } from '@trove/contracts/screenMessages'
import { describe, expect, it } from 'vitest'
import { emptyWatch, validateWatch, watchDraftOf, watchOf } from './watchForm'

describe('the watch form', () => {
  it("sends '*' for all repositories, with the builds and projects it covers", () => {
    const saved = { name: 'all', repositories: ['*'], builds: ['ci-*'], projects: ['p1'], policies: ['no-high'] }
    const draft = watchDraftOf(saved)
    expect(draft).toMatchObject({ allRepositories: true, repositories: [] })
    expect(watchOf(draft)).toEqual(saved)
    expect(watchOf({ ...draft, allRepositories: false, repositories: ['npm-local'] }).repositories).toEqual(['npm-local'])
  })

  it('needs a name, something to cover (repositories or all, a project, a build) and a policy', () => {
    expect(validateWatch(emptyWatch())).toEqual({
      name: Messages.fieldMandatory,
      repositories: ScreenMessages.scannerWatchNeedsRepository,
      policies: ScreenMessages.scannerWatchNeedsPolicy,
    })
    expect(validateWatch({ ...emptyWatch(), name: 'w', allRepositories: true, policies: ['p'] })).toEqual({})
    expect(validateWatch({ ...emptyWatch(), name: 'w', projects: ['acme'], policies: ['p'] })).toEqual({})
    expect(validateWatch({ ...emptyWatch(), name: 'w', builds: ['*'], policies: ['p'] })).toEqual({})
  })
})
