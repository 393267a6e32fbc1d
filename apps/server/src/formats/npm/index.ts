import type { Format } from '../types.js'
import { npmRoutes } from './routes.js'

export const npmFormat: Format = { type: 'npm', routes: npmRoutes }
