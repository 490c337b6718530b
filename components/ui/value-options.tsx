/** A select's options: the empty one (no choice, named `none`), then one per value, named by the value. */
export function ValueOptions({ none, values }: { none: string; values: readonly string[] }) {
  return (
    <>
      <option value="">{none}</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {v}
        </option>
      ))}
    </>
  )
}
