/** The React Query keys, declared with the endpoints that use them. */
export { authKeys, healthKeys, runKeys, schemaKeys, viewKeys } from '../endpoints/keys'
