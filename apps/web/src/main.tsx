import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { Messages } from '@trove/contracts/messages'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppRouter } from './app/router'
import { ApiError, configureApi } from './lib/api'
import { notify } from './lib/notify'

// A green whose filled shades keep white text above the WCAG AA contrast ratio (≥ 5:1).
const theme = createTheme({
  colors: {
    trove: ['#ebf8ef', '#d4efdc', '#a9ddb9', '#7bca93', '#54b973', '#3aa85d', '#1f7a3a', '#1b7033', '#16632c', '#115624'],
  },
  primaryColor: 'trove',
  primaryShade: { light: 6, dark: 6 },
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
})

// Dimmed text dark enough for AA contrast on white and on the light page background.
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636a' },
  dark: { '--mantine-color-dimmed': '#a6a7ab' },
})

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
})
const router = createAppRouter(queryClient)

configureApi({
  onUnauthorized: () => {
    queryClient.clear()
    void router.navigate({ to: '/login', search: { logout: true }, replace: true })
  },
  // Read-only mode refuses changes with its own message (shell §8); other refusals are not-authorized.
  onForbidden: (error) =>
    notify({
      color: 'red',
      message: error.code === 'READ_ONLY' ? Messages.readOnlyMode : Messages.notAuthorized,
      autoClose: 4500,
    }),
})

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element')
createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
)
