import type { Format } from '../types.js'
import { pypiRoutes } from './routes.js'

export const pypiFormat: Format = { type: 'pypi', routes: pypiRoutes }
