import type { Format } from '../kit/types.js'
import { npmRoutes } from './routes.js'

export const npmFormat: Format = { type: 'npm', routes: npmRoutes, ecosystem: 'npm' }
