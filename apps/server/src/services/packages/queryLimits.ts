import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql'

/**
 * What one metadata query may ask for. The console's largest query has under 100 tokens, 37
 * fields and a depth of 6; these leave room for scripts and refuse what only an attacker sends.
 */
export const QUERY_LIMITS = {
  /** Tokens in the document: checked while parsing, before anything is built from it. */
  tokens: 2_000,
  /** Fields the query selects, with every fragment spread counted each time it is used. */
  fields: 300,
  /** Nesting of selections, fragments followed (Mercurius' own `queryDepth` does not follow them). */
  depth: 12,
} as const

interface Cost {
  fields: number
  depth: number
}

/**
 * A validation rule refusing an operation past QUERY_LIMITS.fields or QUERY_LIMITS.depth. Fragments
 * are measured once each and their cost added wherever they are spread, so a chain of fragments
 * that doubles at every step is counted, not expanded (cycles are GraphQL's own
 * NoFragmentCycles error).
 */
export function queryCostRule(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>()
  for (const definition of context.getDocument().definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition)
  }
  const measured = new Map<string, Cost>()
  const costOf = (set: SelectionSetNode | undefined, visiting: Set<string>): Cost => {
    let fields = 0
    let depth = 0
    for (const selection of set?.selections ?? []) {
      let inner: Cost
      if (selection.kind === Kind.FIELD) {
        const below = costOf(selection.selectionSet, visiting)
        inner = { fields: below.fields + 1, depth: below.depth + 1 }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = costOf(selection.selectionSet, visiting)
      } else {
        const name = selection.name.value
        const known = measured.get(name)
        if (known) inner = known
        else if (visiting.has(name) || !fragments.has(name)) inner = { fields: 0, depth: 0 }
        else {
          visiting.add(name)
          inner = costOf(fragments.get(name)?.selectionSet, visiting)
          visiting.delete(name)
          measured.set(name, inner)
        }
      }
      fields = Math.min(fields + inner.fields, Number.MAX_SAFE_INTEGER)
      depth = Math.max(depth, inner.depth)
    }
    return { fields, depth }
  }
  return {
    OperationDefinition(operation) {
      const cost = costOf(operation.selectionSet, new Set())
      if (cost.fields > QUERY_LIMITS.fields) {
        context.reportError(
          new GraphQLError(`The query selects ${cost.fields} fields, more than the ${QUERY_LIMITS.fields} allowed`, {
            nodes: operation,
          }),
        )
      }
      if (cost.depth > QUERY_LIMITS.depth) {
        context.reportError(
          new GraphQLError(`The query nests ${cost.depth} levels deep, more than the ${QUERY_LIMITS.depth} allowed`, {
            nodes: operation,
          }),
        )
      }
    },
  }
}
