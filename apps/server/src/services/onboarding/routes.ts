import {
  GettingStarted,
  Personalization,
  PersonalizationSent,
  PersonalizationStep,
  PersonalizationStepUpdate,
  SetMeUpInfo,
} from '@trove/contracts/onboarding'
import { ONBOARDING_STEPS } from '@trove/contracts/shellConstants'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Principal } from '../../core/access.js'
import { forbidden, notFound, unauthorized } from '../../core/errors.js'
import { readGeneralConfig } from '../../core/instance.js'
import type { FormatContext } from '../../formats/index.js'
import { OnboardingService } from './service.js'

/** Set-me-up, the onboarding questionnaire and the getting-started checklist, under /ui/api/v1/ui. */
export const onboardingRoutes =
  (fctx: FormatContext): FastifyPluginAsyncZod =>
  async (app) => {
    const service = new OnboardingService(fctx.db.kysely)
    const caller = async (request: FastifyRequest): Promise<Principal> => {
      const principal = await fctx.principal(request)
      if (!principal) throw unauthorized()
      return principal
    }

    app.get(
      '/setMeUp',
      {
        config: { access: 'user' },
        schema: {
          tags: ['onboarding'],
          summary:
            'Where package clients reach Trove (the configured base URL, else the address this request came to) and, with repoKey, that repository (403 when the caller may not read it)',
          querystring: z.object({ repoKey: z.string().min(1).max(64).optional() }),
          response: { 200: SetMeUpInfo },
        },
      },
      async (request) => {
        const principal = await caller(request)
        const configured = (await readGeneralConfig(fctx.db.kysely, fctx.config)).baseUrl
        const baseUrl = (configured || fctx.baseUrl(request)).replace(/\/+$/, '')
        const key = request.query.repoKey
        if (!key) return { baseUrl, repository: null }
        const repo = await fctx.repos.get(key)
        if (!repo) throw notFound(`Repository ${key} does not exist`)
        if (!(await fctx.authz.canOnRepo(principal, 'read', key))) throw forbidden(`You may not read the repository ${key}`)
        return { baseUrl, repository: { key: repo.key, packageType: repo.packageType, rclass: repo.rclass } }
      },
    )

    app.get(
      '/onboarding/personalization',
      {
        config: { access: 'user' },
        schema: { tags: ['onboarding'], summary: "The caller's questionnaire, step by step", response: { 200: Personalization } },
      },
      async (request) => service.personalization((await caller(request)).userId),
    )

    app.put(
      '/onboarding/personalization/:step',
      {
        config: { access: 'user' },
        schema: {
          tags: ['onboarding'],
          summary: 'Saves one step of the questionnaire (400 per field on a value the step does not allow; other steps kept)',
          params: z.object({ step: z.enum(ONBOARDING_STEPS) }),
          body: PersonalizationStepUpdate,
          response: { 200: PersonalizationStep },
        },
      },
      async (request) => service.saveStep((await caller(request)).userId, request.params.step, request.body),
    )

    app.post(
      '/onboarding/personalization/send',
      {
        config: { access: 'user' },
        schema: {
          tags: ['onboarding'],
          summary: 'Sends the questionnaire: merged into the user, the steps cleared and the wizard closed',
          response: { 200: PersonalizationSent },
        },
      },
      async (request) => service.send((await caller(request)).userId),
    )

    app.get(
      '/onboarding/gettingStarted',
      {
        config: { access: 'user' },
        schema: {
          tags: ['onboarding'],
          summary: 'The getting-started checklist, ticked from what exists',
          response: { 200: GettingStarted },
        },
      },
      async (request) => service.gettingStarted((await caller(request)).userId),
    )
  }
