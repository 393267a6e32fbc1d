/** The path of the page shown before the current navigation; undefined on the first page of a visit. */
let current: string | undefined

export function previousPath(): string | undefined {
  return current
}

export function rememberPath(path: string): void {
  current = path
}
