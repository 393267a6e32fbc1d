// What the signed-in console needs at each navigation, loaded after sign-in (not by the login page).

export { onboardingStatusQuery, samlLogoutUrlQuery } from '../features/shell/api/startup'
export { contextFromCache } from './shellContext'
export {
  adminPathGuard,
  demoAdminGuard,
  landingGuard,
  licenseGuard,
  releaseBundlesTab,
  securityTeaserGuard,
  signInOnboardingGuard,
} from './shellGuards'
export { resetStartup, startApplication } from './startup'
