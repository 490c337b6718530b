/** The named fields of `obj`, in the order named; a field `obj` does not have is there as undefined. */
export function pick<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, obj[k]])) as Pick<T, K>
}

/** `obj` without the named fields, the rest in their order. */
export function omit<T extends object, K extends keyof T>(obj: T, keys: readonly K[]): Omit<T, K> {
  const dropped = new Set<PropertyKey>(keys)
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !dropped.has(k))) as Omit<T, K>
}
