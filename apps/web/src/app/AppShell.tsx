import { Box, Burger, AppShell as Frame, Group, Image, Text, useMantineColorScheme } from '@mantine/core'
import { useHotkeys, useMediaQuery } from '@mantine/hooks'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, Outlet, useNavigate, useRouter, useRouterState } from '@tanstack/react-router'
import { BRAND_NAME } from '@trove/contracts/messages'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { LOGO_URL } from '../features/adminConfig/api/generalConfig'
import { currentUserQuery } from '../features/auth/api/currentUser'
import { useFooter } from '../features/auth/api/footer'
import { localStorageQuery, saveLocalStorage, useEntitlements, useProjects } from '../features/shell/api/startup'
import { contactUsContextFor } from '../features/shell/contactContext'
import {
  administrationMenuTarget,
  applicationMenuTarget,
  availableSidebars,
  helpMenu,
  isAdmin,
  menuForVisit,
  menuOf,
  quickActions,
  type SidebarName,
  selectSidebar,
} from '../features/shell/model'
import {
  navigationState,
  setQuickSetup,
  setSetMeUp,
  updateNavigation,
  useNavigationState,
} from '../features/shell/navigationStore'
import { selectProject } from '../features/shell/projectSelection'
import { QuotaBanner } from '../features/shell/QuotaBanner'
import { Sidebar } from '../features/shell/Sidebar'
import { SHORTCUTS } from '../features/shell/shortcuts'
import { type FrameAction, HelpMenu, ProjectSelector, QuickActionMenu, UserMenu } from '../features/shell/TopBar'
import { trackIdleness } from './idleTracker'
import { useShellContext } from './shellContext'
import { QUICK_SETUP_PAGE } from './shellGuards'
import { TopSearch } from './TopSearch'

// Dialogs and panels load when first opened.
const ShortcutsDialog = lazy(() => import('../features/shell/ShortcutsDialog').then((m) => ({ default: m.ShortcutsDialog })))
const NavigationTour = lazy(() => import('../features/shell/NavigationTour').then((m) => ({ default: m.NavigationTour })))
const Panels = lazy(() => import('../features/shell/Panels').then((m) => ({ default: m.Panels })))
const ContactUs = lazy(() => import('../features/contact/ContactUs').then((m) => ({ default: m.ContactUs })))
const QuickSetupForm = lazy(() => import('../features/onboarding/QuickSetupForm').then((m) => ({ default: m.QuickSetupForm })))
const SetMeUpContent = lazy(() => import('./SetMeUpContent').then((m) => ({ default: m.SetMeUpContent })))

const MENU_KEYS = { application: 'menu.application', administration: 'menu.administration' } as const

/** The application frame: top bar, the sidebars of §4.3, the quota banner, the screen. */
export function AppShell() {
  const ctx = useShellContext()
  const hasLogo = useEntitlements().data?.hasLogo === true
  const nav = useNavigationState()
  const pathname = useRouterState({ select: (s) => s.location.pathname })
  const href = useRouterState({ select: (s) => s.location.href })
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> })
  const queryClient = useQueryClient()
  const router = useRouter()
  const navigate = useNavigate()
  const footer = useFooter().data
  const projects = useProjects().data
  const storage = useQuery({ ...localStorageQuery(), enabled: !ctx.user.anonymous }).data
  const { toggleColorScheme } = useMantineColorScheme()
  const searchRef = useRef<HTMLInputElement>(null)
  const [dialog, setDialog] = useState<'shortcuts' | 'tour' | null>(null)
  const [mobileOpen, setMobileOpen] = useState(false)
  // Mantine's 'sm' breakpoint, where the frame's navbar turns into a drawer.
  const narrow = useMediaQuery('(max-width: 47.99em)') ?? false
  const sidebarShown = narrow ? mobileOpen : !nav.sidebarCollapsed
  const [logoFailed, setLogoFailed] = useState(false)

  // Back from being idle: is the session still alive? If not, the guards send the user to sign in.
  useEffect(
    () =>
      trackIdleness(() => {
        void queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey }).then(() => router.invalidate())
      }),
    [queryClient, router],
  )

  // Shell §4.1: each visit is remembered for its menu, here and on the server for the next visit.
  const menu = menuForVisit(pathname, ctx)
  useEffect(() => {
    const key = menu === 'administration' ? 'lastAdministrationPath' : 'lastApplicationPath'
    if (navigationState()[key] === href) return
    updateNavigation({ [key]: href })
    if (!ctx.user.anonymous) void saveLocalStorage({ [MENU_KEYS[menu]]: href }).catch(() => {})
  }, [href, menu, ctx.user.anonymous])

  // Shell §4.2: entering the quick-setup page hides the quick-action bubble, leaving shows it.
  useEffect(() => {
    updateNavigation({ quickActionBubble: pathname !== QUICK_SETUP_PAGE })
  }, [pathname])

  const active = selectSidebar(pathname, ctx)
  const sidebars = availableSidebars(ctx)
  const lastApplication = nav.lastApplicationPath ?? storage?.[MENU_KEYS.application]
  const lastAdministration = nav.lastAdministrationPath ?? storage?.[MENU_KEYS.administration]
  const goTo = (target: string) => void navigate({ href: target })
  const switchMenu = (sidebar: SidebarName) =>
    goTo(sidebar === 'application' ? applicationMenuTarget(lastApplication) : administrationMenuTarget(lastAdministration, ctx))

  const onAction = (action: FrameAction) => {
    switch (action) {
      case 'logout':
        void navigate({ to: '/logout' })
        break
      case 'shortcuts':
      case 'tour':
        setDialog(action)
        break
      case 'quickSetup':
      case 'quickRepo':
        // Shell §2.6: the quick-deploy landing page is a route of its own; otherwise a panel.
        if (ctx.features.quickDeployLandingPage && pathname !== QUICK_SETUP_PAGE) goTo(QUICK_SETUP_PAGE)
        else setQuickSetup(true, { singlePackage: action === 'quickRepo' })
        break
      case 'setMeUp':
        setSetMeUp(true)
        break
      case 'contactUs':
        void navigate({ to: '.', search: (s: Record<string, unknown>) => ({ ...s, contactUsContext: 'contact us' }) } as never)
        break
      case 'classicUi':
      case 'newUi':
        break
    }
  }

  useHotkeys(
    SHORTCUTS.map((s) => [
      s.hotkey,
      () => {
        if (s.action === 'search') searchRef.current?.focus()
        else if (s.action === 'shortcuts') setDialog('shortcuts')
        else if (s.action === 'application') switchMenu('application')
        else if (s.action === 'administration' && isAdmin(ctx)) switchMenu('administration')
        else if (s.action === 'home') goTo('/')
        else if (s.action === 'sidebar') updateNavigation({ sidebarCollapsed: !nav.sidebarCollapsed })
        else if (s.action === 'theme') toggleColorScheme()
      },
      { preventDefault: true },
    ]),
  )

  // Shell §2.7: after each navigation, a known contactUsContext opens the contact-us dialog.
  const contactContext = contactUsContextFor(search, ctx)
  const actions = quickActions(ctx)
  const userItems = actions.filter((a) => a.id === 'edit-profile' || a.id === 'logout')
  const menuActions = actions.filter((a) => a.id !== 'edit-profile' && a.id !== 'logout')
  const showProjects = ctx.features.projects && !ctx.user.anonymous && (projects?.projects.length ?? 0) > 0

  return (
    <Frame
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !mobileOpen, desktop: nav.sidebarCollapsed } }}
      padding="lg"
    >
      <Frame.Header bg="dark.7" c="white" withBorder={false}>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger
              color="white"
              size="sm"
              // Below the breakpoint the sidebar is a drawer of its own; above it, the saved preference.
              opened={sidebarShown}
              aria-expanded={sidebarShown}
              onClick={() => (narrow ? setMobileOpen((o) => !o) : updateNavigation({ sidebarCollapsed: !nav.sidebarCollapsed }))}
              aria-label="Toggle sidebar"
            />
            <Link
              to="/"
              aria-label={`${footer?.serverName ?? BRAND_NAME} home`}
              style={{ display: 'flex', alignItems: 'center', color: 'white', textDecoration: 'none' }}
            >
              {hasLogo && !logoFailed ? (
                <Image src={LOGO_URL} alt="" h={28} w="auto" fit="contain" onError={() => setLogoFailed(true)} />
              ) : null}
              <Text fw={700} size="lg" ml={hasLogo && !logoFailed ? 8 : 0}>
                {footer?.serverName || BRAND_NAME}
              </Text>
            </Link>
            {showProjects && (
              <ProjectSelector
                projects={projects?.projects ?? []}
                value={ctx.selectedProject}
                onChange={(key) => {
                  selectProject(key)
                  if (pathname.startsWith('/admin')) goTo(administrationMenuTarget(undefined, { ...ctx, selectedProject: key }))
                }}
              />
            )}
          </Group>
          {/* §4.2: the search model resets when the project key changes. */}
          <TopSearch key={ctx.selectedProject ?? ''} ref={searchRef} ctx={ctx} />
          <Group gap="xs" wrap="nowrap">
            <QuickActionMenu items={menuActions} onAction={onAction} bubble={nav.quickActionBubble} />
            <HelpMenu items={helpMenu(ctx)} onAction={onAction} />
            {!ctx.user.anonymous ? (
              <UserMenu user={ctx.user} items={userItems} onAction={onAction} />
            ) : (
              <Text component={Link} to="/login" c="white" size="sm">
                Log In
              </Text>
            )}
          </Group>
        </Group>
      </Frame.Header>
      <Frame.Navbar p="xs">
        <Sidebar
          sidebars={sidebars}
          active={active}
          groups={menuOf(active)}
          ctx={ctx}
          pathname={pathname}
          onSwitch={switchMenu}
        />
        <Text size="xs" c="dimmed" px="xs" pt="xs">
          {BRAND_NAME} {footer?.version}
        </Text>
      </Frame.Navbar>
      <Frame.Main style={{ background: 'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))' }}>
        <Box mx="calc(var(--mantine-spacing-lg) * -1)" mt="calc(var(--mantine-spacing-lg) * -1)" mb="md">
          <QuotaBanner enabled={!ctx.user.anonymous || ctx.anonymousAccess} />
        </Box>
        <Outlet />
      </Frame.Main>
      <Suspense fallback={null}>
        {dialog === 'shortcuts' && <ShortcutsDialog opened onClose={() => setDialog(null)} />}
        {dialog === 'tour' && <NavigationTour opened onClose={() => setDialog(null)} />}
        {contactContext && <ContactUs key={contactContext} context={contactContext} />}
        {(nav.quickSetupVisible || nav.setMeUpVisible) && (
          <Panels
            quickSetup={<QuickSetupForm initialType={nav.predefinedPackageType} onLeave={() => setQuickSetup(false)} />}
            setMeUp={
              <SetMeUpContent
                user={ctx.user.name}
                repoKey={nav.setMeUpConfig.target === 'repository' ? nav.setMeUpConfig.repoKey : null}
              />
            }
          />
        )}
      </Suspense>
    </Frame>
  )
}
