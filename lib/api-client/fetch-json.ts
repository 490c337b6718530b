/** Browser-side fetch of the app's own API; errors carry the contract's code and message. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: unknown,
  ) {
    super(message)
    this.name = 'ApiRequestError'
  }
}

export async function fetchJson<T>(url: string, init: RequestInit & { signal?: AbortSignal } = {}): Promise<T> {
  let res: Response
  try {
    res = await fetch(url, { ...init, headers: { accept: 'application/json', ...(init.headers ?? {}) } })
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err
    throw new ApiRequestError(0, 'network', 'The server could not be reached. Check that Loom Runs is running.')
  }
  const text = await res.text()
  let body: unknown = undefined
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    throw new ApiRequestError(
      res.status,
      'bad_response',
      `The server answered ${res.status} with a body that is not JSON`,
    )
  }
  if (!res.ok) {
    const err = (body as { error?: { code?: string; message?: string } })?.error
    throw new ApiRequestError(
      res.status,
      err?.code ?? 'http_error',
      err?.message ?? `Request failed with ${res.status}`,
      body,
    )
  }
  return body as T
}

/** A write to the API: the body goes as JSON, the answer comes back as `fetchJson` reads it. */
export function sendJson<T>(
  url: string,
  method: 'POST' | 'PUT' | 'DELETE',
  body: unknown,
  signal?: AbortSignal,
): Promise<T> {
  return fetchJson<T>(url, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
}
