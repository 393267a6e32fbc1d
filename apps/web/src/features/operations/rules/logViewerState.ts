import { DEFAULT_LOG_SERVICE } from '@trove/contracts/operations'

/** The log viewer's state (spec §3 Log viewer state). */
export interface LogViewerState {
  productList: string[]
  /** node ids per product */
  nodeList: Record<string, string[]>
  selectedProduct: string
  selectedNode: string | null
  selectedFile: string | null
  haStatus: Record<string, string[]> | null
  serviceChanged: boolean
}

export const initialLogViewerState: LogViewerState = {
  productList: [],
  nodeList: {},
  selectedProduct: DEFAULT_LOG_SERVICE,
  selectedNode: null,
  selectedFile: null,
  haStatus: null,
  serviceChanged: false,
}

export type LogViewerAction =
  | { type: 'lists'; byService: Record<string, string[]> }
  | { type: 'serviceChanged' }
  | { type: 'selectProduct'; product: string }
  | { type: 'selectNode'; node: string }
  | { type: 'selectFile'; file: string | null }
  | { type: 'reset' }

/**
 * The rules of spec §4 Log viewer: the product changes only once the service-changed flag is
 * set; reset clears the lists, returns to the artifact repository service and clears node and file.
 * A selection that no longer exists (node gone Offline) falls back to the first one that does.
 */
export function logViewerReducer(state: LogViewerState, action: LogViewerAction): LogViewerState {
  switch (action.type) {
    case 'lists': {
      const productList = Object.keys(action.byService)
      // The default product may not run anywhere: then the first one that does.
      const selectedProduct =
        productList.includes(state.selectedProduct) || productList.length === 0
          ? state.selectedProduct
          : (productList[0] as string)
      const nodes = action.byService[selectedProduct] ?? []
      const selectedNode = state.selectedNode && nodes.includes(state.selectedNode) ? state.selectedNode : (nodes[0] ?? null)
      return {
        ...state,
        haStatus: action.byService,
        productList,
        selectedProduct,
        nodeList: action.byService,
        selectedNode,
        selectedFile:
          selectedNode === state.selectedNode && selectedProduct === state.selectedProduct ? state.selectedFile : null,
      }
    }
    case 'serviceChanged':
      return { ...state, serviceChanged: true }
    case 'selectProduct': {
      if (!state.serviceChanged || action.product === state.selectedProduct) return { ...state, serviceChanged: false }
      return {
        ...state,
        serviceChanged: false,
        selectedProduct: action.product,
        selectedNode: state.nodeList[action.product]?.[0] ?? null,
        selectedFile: null,
      }
    }
    case 'selectNode':
      return action.node === state.selectedNode ? state : { ...state, selectedNode: action.node, selectedFile: null }
    case 'selectFile':
      return { ...state, selectedFile: action.file }
    case 'reset':
      return { ...initialLogViewerState }
  }
}

/** Freemium licences read products and nodes from the node status source, the others from service status. */
export const logListSource = (freemium: boolean): 'nodes' | 'ha' => (freemium ? 'nodes' : 'ha')
