// What other features and app/ may use of this feature (design §10.10).
export {
  prefetchCurrentUser,
  STAFF_PERMISSION,
  useCurrentUserQuery,
  useHasPermission,
  useIsStaff,
} from './api/useCurrentUserQuery.ts';
export { useLogoutMutation } from './api/useLogoutMutation.ts';
export { fullName } from './lib/fullName.ts';
