import { useParams } from '@tanstack/react-router'
import { NotAcceptablePage } from '../../features/errors/NotAcceptablePage'

export function NotAcceptableScreen() {
  const { requestId } = useParams({ from: '/_public/406/$requestId' })
  return <NotAcceptablePage requestId={requestId} />
}
