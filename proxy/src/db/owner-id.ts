/**
 * The longest id a team, user, organization or customer is created with through the management API
 * (`idField`). A customer exists only that way, so an end user named by a longer id has none: the
 * call path does not look one up (a caller could otherwise fill the customer cache with megabyte ids).
 */
export const MAX_OWNER_ID_LENGTH = 256;
