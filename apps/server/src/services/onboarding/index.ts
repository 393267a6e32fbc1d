/** Onboarding: the questionnaire, set-me-up and getting started. What the rest of the server may use of it: nothing deeper is imported from outside. */
export { onboardingRoutes } from './routes.js'
export { hasOnlyDefaultRepos, SEEN_GETTING_STARTED_KEY, WIZARD_CLOSED_KEY } from './service.js'
