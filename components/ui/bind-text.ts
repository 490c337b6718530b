import type { ChangeEvent } from 'react'

type TextField = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

/**
 * The value and change handler of a controlled field kept as text in state:
 * `<input {...bindText(name, setName)} />`. Numbers typed into a field stay text until the form is sent.
 */
export function bindText(value: string, set: (text: string) => void) {
  return { value, onChange: (e: ChangeEvent<TextField>) => set(e.target.value) }
}
