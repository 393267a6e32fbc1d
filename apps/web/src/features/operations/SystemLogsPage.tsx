import { Alert, Button, Group, Paper, Select, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Messages } from '@trove/contracts/messages'
import { SERVICE_LABELS, type ServiceType } from '@trove/contracts/operations'
import { useEffect, useReducer, useRef } from 'react'
import { PageHeader } from '../../ui/PageHeader'
import { useLogConfig } from './api/logs'
import { nodeStatusQuery, serviceStatusQuery } from './api/serviceStatus'
import { initialLogViewerState, logListSource, logViewerReducer } from './rules/logViewerState'
import { onlineNodesByService, onlineNodesFromNodeList } from './rules/serviceStatus'
import { useLogTail } from './useLogTail'

const DEFAULT_REFRESH_MS = 5000

export interface SystemLogsPageProps {
  /** Freemium licences list products and nodes from the node status source (spec §4). Trove has no licence tiers: false. */
  freemium?: boolean
}

/** Admin → Monitoring → System Logs: live logs per service, node and file. */
export function SystemLogsPage({ freemium = false }: SystemLogsPageProps) {
  const source = logListSource(freemium)
  const ha = useQuery({ ...serviceStatusQuery(), enabled: source === 'ha' })
  const nodes = useQuery({ ...nodeStatusQuery(), enabled: source === 'nodes' })
  const [state, dispatch] = useReducer(logViewerReducer, initialLogViewerState)

  useEffect(() => {
    const byService =
      source === 'nodes' ? nodes.data && onlineNodesFromNodeList(nodes.data) : ha.data && onlineNodesByService(ha.data)
    if (byService) dispatch({ type: 'lists', byService })
  }, [source, ha.data, nodes.data])

  const config = useLogConfig(state.selectedProduct, state.selectedNode)
  useEffect(() => {
    if (config.data && (!state.selectedFile || !config.data.logs.includes(state.selectedFile))) {
      dispatch({ type: 'selectFile', file: config.data.selected_log })
    }
  }, [config.data, state.selectedFile])

  const refreshMs = config.data?.refresh_rate_millis ?? DEFAULT_REFRESH_MS
  const tail = useLogTail(state.selectedProduct, state.selectedNode, state.selectedFile, refreshMs)

  // Follow the end of the log as lines arrive.
  const viewport = useRef<HTMLPreElement>(null)
  useEffect(() => {
    const el = viewport.current
    if (el && tail.lines.length > 0) el.scrollTop = el.scrollHeight
  }, [tail.lines])

  const productOptions = (state.productList.length > 0 ? state.productList : [state.selectedProduct]).map((p) => ({
    value: p,
    label: SERVICE_LABELS[p as ServiceType] ?? p,
  }))
  const error = config.error?.message || tail.error

  return (
    <>
      <PageHeader title="System Logs" breadcrumbs={['Administration', 'Monitoring', 'System Logs']} />
      <Group align="flex-end" mb="md" wrap="wrap">
        <Select
          label="Service"
          data={productOptions}
          value={state.selectedProduct}
          allowDeselect={false}
          onChange={(value) => {
            if (!value) return
            dispatch({ type: 'serviceChanged' })
            dispatch({ type: 'selectProduct', product: value })
          }}
          w={220}
        />
        <Select
          label="Node"
          data={state.nodeList[state.selectedProduct] ?? []}
          value={state.selectedNode}
          allowDeselect={false}
          onChange={(value) => value && dispatch({ type: 'selectNode', node: value })}
          placeholder="No node online"
          w={220}
        />
        <Select
          label="Log file"
          data={config.data?.logs ?? []}
          value={state.selectedFile}
          allowDeselect={false}
          onChange={(value) => value && dispatch({ type: 'selectFile', file: value })}
          w={200}
        />
        <Group gap="xs" ml="auto" align="center">
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="refresh-countdown">
            {tail.paused ? Messages.logsPaused : `Refreshing in ${Math.ceil(tail.remainingMs / 1000)}s`}
          </Text>
          {tail.paused ? (
            <Button size="xs" variant="default" onClick={tail.resume}>
              Resume
            </Button>
          ) : (
            <Button size="xs" variant="default" onClick={tail.pause}>
              Pause
            </Button>
          )}
          <Button size="xs" onClick={tail.refreshNow}>
            Refresh now
          </Button>
          <Button
            size="xs"
            variant="subtle"
            onClick={() => {
              dispatch({ type: 'reset' })
              void (source === 'nodes' ? nodes.refetch() : ha.refetch())
            }}
          >
            Reset
          </Button>
        </Group>
      </Group>
      {error && (
        <Alert color="red" role="alert" mb="md">
          {error}
        </Alert>
      )}
      <Paper withBorder>
        {tail.waiting || tail.lines.length === 0 ? (
          <Text p="md" c="dimmed">
            {Messages.waitingForLogs}
          </Text>
        ) : (
          <pre
            ref={viewport}
            role="log"
            aria-label="Log lines"
            // A scrollable region: reachable with the keyboard to scroll through the lines.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: scrolling by keyboard needs focus
            tabIndex={0}
            style={{
              margin: 0,
              padding: 12,
              height: '65vh',
              overflow: 'auto',
              fontSize: 12,
              lineHeight: 1.45,
              whiteSpace: 'pre-wrap',
              wordBreak: 'break-all',
            }}
          >
            {tail.lines.join('\n')}
          </pre>
        )}
      </Paper>
    </>
  )
}
